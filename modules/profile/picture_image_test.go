package profile

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/testsupport/imagetest"
	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func refusalCode(t *testing.T, err error) string {
	t.Helper()
	var e *web.Error
	require.ErrorAs(t, err, &e)
	return e.Code()
}

func TestAnUploadThatIsNotAPlainImageIsRefusedByName(t *testing.T) {
	t.Parallel()
	photo := imagetest.JPEG(imagetest.Quadrants(40, 30))
	huge := append([]byte{}, photo...)
	huge = append(huge, make([]byte, MaxPictureBytes)...) // zero padding, but far too much
	tests := []struct {
		name string
		data []byte
		code string
	}{
		{"nothing at all", nil, "picture_required"},
		{"a file over the size limit", huge, "picture_too_large"},
		{"an HTML page named picture.jpg", []byte("<!DOCTYPE html><html><body>hello</body></html>"), "picture_type"},
		{"an SVG with a script", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "picture_type"},
		{"a GIF", []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"), "picture_type"},
		{"a JPEG with a script in its comment", imagetest.WithComment(photo, "<script>alert(document.cookie)</script>"), "picture_script"},
		{"a JPEG with PHP in its comment", imagetest.WithComment(photo, "<?php system($_GET['c']); ?>"), "picture_script"},
		{"a JPEG with an HTML page after it", append(append([]byte{}, photo...), []byte("<html><script>alert(1)</script></html>")...), "picture_script"},
		{"a JPEG with a ZIP archive after it", append(append([]byte{}, photo...), []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00payload")...), "picture_polyglot"},
		{"a PNG with bytes after its end", append(imagetest.PNG(imagetest.Quadrants(8, 8)), []byte("PK\x03\x04rest")...), "picture_polyglot"},
		{"a JPEG cut short", photo[:len(photo)/2], "picture_polyglot"},
		{"a JPEG header over garbage", append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0}, append(bytes.Repeat([]byte{7}, 100), 0xFF, 0xD9)...), "picture_unreadable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := processPicture(context.Background(), tt.data)
			assert.Nil(t, out)
			assert.Equal(t, tt.code, refusalCode(t, err))
		})
	}
}

func TestAPictureAskingForTooManyPixelsIsRefusedBeforeItIsDecoded(t *testing.T) {
	t.Parallel()
	// A PNG header declaring 60000×60000 pixels over next to no data: decoding it would ask
	// for gigabytes; its header alone refuses it.
	small := imagetest.PNG(image.NewGray(image.Rect(0, 0, 1, 1)))
	big := append([]byte{}, small...)
	copy(big[16:24], []byte{0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60})
	binary.BigEndian.PutUint32(big[29:33], crc32.ChecksumIEEE(big[12:29])) // the IHDR chunk's CRC
	_, err := processPicture(context.Background(), big)
	assert.Equal(t, "picture_dimensions", refusalCode(t, err))
}

func TestAStoredPictureKeepsPixelsOnlyTurnedUprightAndScaledDown(t *testing.T) {
	t.Parallel()
	// Taken turned: 80 wide, 40 high, with EXIF orientation 6 ("turn right to view").
	upload := imagetest.WithEXIF(imagetest.JPEG(imagetest.Quadrants(80, 40)), 6, "GPS 51.5007N 0.1246W serial CANVASS-SECRET")
	require.Equal(t, 6, exifOrientation(upload), "the fixture carries its orientation")

	out, err := processPicture(context.Background(), upload)
	require.NoError(t, err)

	assert.Equal(t, "image/jpeg", out.ContentType)
	assert.NotContains(t, string(out.Data), "CANVASS-SECRET", "the EXIF text is gone")
	assert.False(t, bytes.Contains(out.Data, []byte("Exif\x00\x00")), "no EXIF segment at all")
	assert.Equal(t, 1, exifOrientation(out.Data))
	img, err := jpeg.Decode(bytes.NewReader(out.Data))
	require.NoError(t, err)
	assert.Equal(t, image.Pt(40, 80), img.Bounds().Size(), "turned upright: now taller than wide")
	// Turning right puts the red top-left quarter at the top right.
	r, _, b, _ := img.At(30, 10).RGBA()
	assert.Greater(t, r, b, "top right is red")
	r, _, b, _ = img.At(10, 10).RGBA()
	assert.Greater(t, b, r, "top left is blue")
}

func TestEveryOrientationEndsUpright(t *testing.T) {
	t.Parallel()
	// Quadrants drawn upright is red at the top left; each orientation's camera image, turned
	// upright again, must be too.
	upright := imagetest.Quadrants(60, 40)
	for o := 1; o <= 8; o++ {
		camera := unorient(upright, o)
		out, err := processPicture(context.Background(), imagetest.WithEXIF(imagetest.JPEG(camera), o, "x"))
		require.NoError(t, err, "orientation %d", o)
		img, err := jpeg.Decode(bytes.NewReader(out.Data))
		require.NoError(t, err)
		assert.Equal(t, image.Pt(60, 40), img.Bounds().Size(), "orientation %d", o)
		r, _, b, _ := img.At(10, 10).RGBA()
		assert.Greater(t, r, b, "orientation %d: red at the top left", o)
		r, _, b, _ = img.At(50, 30).RGBA()
		assert.Greater(t, b, r, "orientation %d: blue at the bottom right", o)
	}
}

// unorient draws what a camera stores for an upright scene under EXIF orientation o: the
// inverse of orient.
func unorient(upright image.Image, o int) image.Image {
	w, h := upright.Bounds().Dx(), upright.Bounds().Dy()
	cw, ch := w, h
	if o >= 5 {
		cw, ch = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, cw, ch))
	src := image.NewRGBA(upright.Bounds())
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			src.Set(x, y, upright.At(x, y))
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			sx, sy := cameraPixel(o, x, y, cw, ch)
			out.SetRGBA(sx, sy, src.RGBAAt(x, y))
		}
	}
	return out
}

// cameraPixel is the EXIF orientations' table (CIPA DC-008, tag 0x0112), written out apart from
// orient: the camera pixel an upright pixel (x, y) comes from, the camera image w×h.
func cameraPixel(o, x, y, w, h int) (int, int) {
	switch o {
	case 2:
		return w - 1 - x, y
	case 3:
		return w - 1 - x, h - 1 - y
	case 4:
		return x, h - 1 - y
	case 5:
		return y, x
	case 6:
		return y, h - 1 - x
	case 7:
		return w - 1 - y, h - 1 - x
	case 8:
		return w - 1 - y, x
	}
	return x, y
}

func TestAPNGKeepsItsTransparencyAndALargeOneIsScaledDown(t *testing.T) {
	t.Parallel()
	img := image.NewNRGBA(image.Rect(0, 0, 1200, 600))
	out, err := processPicture(context.Background(), imagetest.PNG(img)) // fully transparent
	require.NoError(t, err)
	assert.Equal(t, "image/png", out.ContentType)
	dec, err := png.Decode(bytes.NewReader(out.Data))
	require.NoError(t, err)
	assert.Equal(t, image.Pt(storedPictureSide, storedPictureSide/2), dec.Bounds().Size())
	_, _, _, a := dec.At(5, 5).RGBA()
	assert.Zero(t, a, "still transparent")

	half := image.NewNRGBA(image.Rect(0, 0, 40, 40))
	for i := 0; i < len(half.Pix); i += 4 {
		copy(half.Pix[i:], []byte{255, 0, 0, 128}) // red, half see-through
	}
	out, err = processPicture(context.Background(), imagetest.PNG(half))
	require.NoError(t, err)
	dec, err = png.Decode(bytes.NewReader(out.Data))
	require.NoError(t, err)
	c := color.NRGBAModel.Convert(dec.At(20, 20)).(color.NRGBA)
	assert.InDelta(t, 255, int(c.R), 2, "the colour survives its transparency")
	assert.InDelta(t, 128, int(c.A), 1)
	assert.Zero(t, c.G)
}

func TestAPhotosXMPPacketIsNotTakenForMarkup(t *testing.T) {
	t.Parallel()
	xmp := `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`
	out, err := processPicture(context.Background(), imagetest.WithComment(imagetest.JPEG(imagetest.Quadrants(20, 20)), xmp))
	require.NoError(t, err)
	assert.False(t, strings.Contains(string(out.Data), "xmpmeta"), "and it is dropped")
}

// BenchmarkAPhonesPhotoIsCheckedAndDrawnAnew is the cost of an upload the size of a phone's
// photo (12 megapixels, turned by its EXIF orientation): what one upload takes of a core.
func BenchmarkAPhonesPhotoIsCheckedAndDrawnAnew(b *testing.B) {
	photo := imagetest.WithEXIF(imagetest.JPEG(imagetest.Quadrants(4000, 3000)), 6, "x")
	b.SetBytes(int64(len(photo)))
	for b.Loop() {
		if _, err := processPicture(context.Background(), photo); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAPictureOfFewPixelsButManyBytesEachIsRefusedBeforeItIsDecoded(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		data   []byte
		status int
	}{
		// 16M pixels, within the pixel limit, but 8 bytes each: 128 MiB to decode.
		{"a 4096×4096 16-bit RGBA PNG", imagetest.BlankPNG16(4096, 4096), fiber.StatusRequestEntityTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Less(t, len(tc.data), 200<<10, "a small file")
			_, err := processPicture(context.Background(), tc.data)
			var e *web.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.status, e.Status)
			assert.Equal(t, "picture_dimensions", refusalCode(t, err))
		})
	}
	ok, err := processPicture(context.Background(), imagetest.BlankPNG16(512, 512))
	require.NoError(t, err, "a small 16-bit picture is fine")
	assert.Equal(t, 512, ok.Width)
}

func TestDecodesAtOnceShareTheMemoryBudgetAndAnUploadThatCannotWaitIsTold429(t *testing.T) {
	t.Parallel()
	b := newMemoryBudget(100, 50*time.Millisecond)
	ctx := context.Background()
	first, err := b.take(ctx, 60)
	require.NoError(t, err)

	_, err = b.take(ctx, 60)
	var e *web.Error
	require.ErrorAs(t, err, &e, "60 more do not fit beside the first 60")
	assert.Equal(t, fiber.StatusTooManyRequests, e.Status)
	assert.Equal(t, "picture_busy", refusalCode(t, err))

	small, err := b.take(ctx, 40)
	require.NoError(t, err, "40 do")
	small()

	got := make(chan error, 1)
	go func() {
		release, err := newMemoryBudgetWaiter(b, 60)
		if err == nil {
			release()
		}
		got <- err
	}()
	first()
	assert.NoError(t, <-got, "a decode waiting its turn goes once the first ends")

	huge, err := b.take(ctx, 1000)
	require.NoError(t, err, "a cost over the whole budget takes the whole budget, not forever")
	huge()
}

// newMemoryBudgetWaiter takes cost with a wait long enough for the test's release to come.
func newMemoryBudgetWaiter(b *memoryBudget, cost int64) (func(), error) {
	patient := &memoryBudget{sem: b.sem, total: b.total, wait: 10 * time.Second}
	return patient.take(context.Background(), cost)
}
