package profile

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"time"

	"github.com/canvass/canvass/modules/web"
	"github.com/gofiber/fiber/v3"
	"golang.org/x/sync/semaphore"
)

// A profile picture is decoded and drawn anew on the server: what is stored holds pixels and
// nothing else (no EXIF, no comments, no bytes after the image), whatever was uploaded. The
// type comes from the bytes, never from the client's content type or file name.
const (
	// MaxPictureBytes bounds an upload (a phone's photo fits; the body limit is 4 MiB).
	MaxPictureBytes = 3 << 20
	// maxPictureSide, maxPicturePixels and maxPictureDecoded bound the decoded image, read from
	// its header before decoding, so a small file cannot ask for gigabytes of memory. Pixels
	// alone are not enough: a 16-bit RGBA PNG takes 8 bytes a pixel (a 130 KB file of 4096×4096
	// of them asks for 128 MiB), a phone's JPEG about 1.5.
	maxPictureSide    = 8192
	maxPicturePixels  = 16 << 20
	maxPictureDecoded = 64 << 20
	// pictureDecodeBudget is the memory every picture being decoded at once may take together,
	// in this process: an upload waits its turn for up to pictureDecodeWait, then is told to
	// try again (429), so uploads at once cannot take the server's memory.
	pictureDecodeBudget = 192 << 20
	pictureDecodeWait   = 5 * time.Second
	// storedPictureSide is the longest side kept: the top bar and settings show it far smaller.
	storedPictureSide = 512
	jpegQuality       = 85
)

// pictureRefused is the refusal of an upload, with its machine-readable code.
func pictureRefused(status int, id, code string, data map[string]any) *web.Error {
	e := web.Invalid("file", id, data).WithCode(code)
	e.Status = status
	return e
}

func errPictureTooLarge() *web.Error {
	return pictureRefused(fiber.StatusRequestEntityTooLarge, "error.picture_too_large", "picture_too_large", map[string]any{"Max": MaxPictureBytes >> 20})
}

// markup are signs of a document hidden in an image (a polyglot that a browser or a careless
// viewer could run as HTML, SVG or PHP). A photo's XMP packet (<?xpacket, <x:xmpmeta, <rdf:)
// is metadata, not markup, and is dropped by the re-encoding anyway.
var markup = [][]byte{
	[]byte("<script"), []byte("<html"), []byte("<svg"), []byte("<?php"), []byte("<iframe"), []byte("<body"),
	[]byte("<object"), []byte("<embed"), []byte("javascript:"), []byte("<!doctype"), []byte("onerror="), []byte("onload="),
}

func hasMarkup(data []byte) bool {
	lower := bytes.ToLower(data)
	for _, m := range markup {
		if bytes.Contains(lower, m) {
			return true
		}
	}
	return false
}

// trailing tells whether data carries bytes after its image's end (a JPEG's last EOI marker,
// a PNG's IEND chunk): another file appended, as in a JPEG+ZIP polyglot. Zero padding passes.
func trailing(data []byte, contentType string) bool {
	var end int
	switch contentType {
	case "image/jpeg":
		i := bytes.LastIndex(data, []byte{0xFF, 0xD9})
		if i < 0 {
			return true
		}
		end = i + 2
	case "image/png":
		i := bytes.LastIndex(data, []byte("IEND"))
		if i < 0 {
			return true
		}
		end = i + 8 // the chunk type and its CRC
	}
	if end > len(data) {
		return true
	}
	for _, b := range data[end:] {
		if b != 0 {
			return true
		}
	}
	return false
}

// storedPicture is an upload as it is kept.
type storedPicture struct {
	Data          []byte
	ContentType   string
	Width, Height int
}

// processPicture checks an upload and draws it anew: a JPEG or PNG by its bytes, no markup, no
// appended file, at most maxPictureSide on a side, turned upright (EXIF orientation), scaled to
// storedPictureSide and encoded again (JPEG stays JPEG, PNG keeps its transparency).
func processPicture(ctx context.Context, data []byte) (*storedPicture, error) {
	if len(data) == 0 {
		return nil, pictureRefused(fiber.StatusBadRequest, "error.picture_required", "picture_required", nil)
	}
	if len(data) > MaxPictureBytes {
		return nil, errPictureTooLarge()
	}
	ct := http.DetectContentType(data)
	if ct != "image/jpeg" && ct != "image/png" {
		return nil, pictureRefused(fiber.StatusUnsupportedMediaType, "error.picture_type", "picture_type", nil)
	}
	if hasMarkup(data) {
		return nil, pictureRefused(fiber.StatusBadRequest, "error.picture_script", "picture_script", nil)
	}
	if trailing(data, ct) {
		return nil, pictureRefused(fiber.StatusBadRequest, "error.picture_polyglot", "picture_polyglot", nil)
	}
	unreadable := pictureRefused(fiber.StatusBadRequest, "error.picture_unreadable", "picture_unreadable", nil)
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || "image/"+format != ct {
		return nil, unreadable
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > maxPictureSide || cfg.Height > maxPictureSide || cfg.Width*cfg.Height > maxPicturePixels {
		return nil, pictureRefused(fiber.StatusBadRequest, "error.picture_dimensions", "picture_dimensions", map[string]any{"Max": maxPictureSide})
	}
	cost := decodedBytes(cfg)
	if cost > maxPictureDecoded {
		return nil, pictureRefused(fiber.StatusRequestEntityTooLarge, "error.picture_pixels", "picture_dimensions", nil)
	}
	release, err := decodeBudget.take(ctx, cost)
	if err != nil {
		return nil, err
	}
	defer release()
	var img image.Image
	if ct == "image/jpeg" {
		img, err = jpeg.Decode(bytes.NewReader(data))
	} else {
		img, err = png.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return nil, unreadable
	}
	small := scaleDown(img, storedPictureSide)
	if ct == "image/jpeg" {
		small = orient(small, exifOrientation(data))
	}
	var out bytes.Buffer
	if ct == "image/jpeg" {
		err = jpeg.Encode(&out, small, &jpeg.Options{Quality: jpegQuality})
	} else {
		err = (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, small)
	}
	if err != nil {
		return nil, err
	}
	b := small.Bounds()
	return &storedPicture{Data: out.Bytes(), ContentType: ct, Width: b.Dx(), Height: b.Dy()}, nil
}

// decodedBytes is about what decoding an image of cfg takes: its pixels at the bytes a pixel
// of its colour model holds (Go decodes 16-bit PNGs to 16-bit images), plus the scaled copy.
func decodedBytes(cfg image.Config) int64 {
	perPixel := int64(4)
	switch cfg.ColorModel {
	case color.RGBA64Model, color.NRGBA64Model:
		perPixel = 8
	case color.Gray16Model:
		perPixel = 2
	case color.GrayModel, color.AlphaModel:
		perPixel = 1
	case color.YCbCrModel:
		perPixel = 3 // 4:4:4 at worst; phones' 4:2:0 takes half
	case color.CMYKModel:
		perPixel = 4
	default:
		if _, ok := cfg.ColorModel.(color.Palette); ok {
			perPixel = 1
		}
	}
	return int64(cfg.Width)*int64(cfg.Height)*perPixel + storedPictureSide*storedPictureSide*8
}

// memoryBudget shares a number of bytes among the decodes running at once in this process.
type memoryBudget struct {
	sem   *semaphore.Weighted
	total int64
	wait  time.Duration
}

var decodeBudget = newMemoryBudget(pictureDecodeBudget, pictureDecodeWait)

func newMemoryBudget(total int64, wait time.Duration) *memoryBudget {
	return &memoryBudget{sem: semaphore.NewWeighted(total), total: total, wait: wait}
}

// take holds cost bytes of the budget until release, waiting up to the budget's wait for
// them; a request still waiting then is told to try again shortly (429).
func (b *memoryBudget) take(ctx context.Context, cost int64) (release func(), err error) {
	cost = min(cost, b.total)
	wctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	if err := b.sem.Acquire(wctx, cost); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, pictureRefused(fiber.StatusTooManyRequests, "error.picture_busy", "picture_busy", nil)
	}
	return func() { b.sem.Release(cost) }, nil
}

// scaleDown draws img into a new RGBA image whose longer side is at most max, each pixel the
// average of the source pixels it covers (a box filter: enough for a picture this small). A
// JPEG's YCbCr and a PNG's RGBA are read from their planes directly: through At, a phone's photo
// took a second of a core (BenchmarkAPhonesPhotoIsCheckedAndDrawnAnew).
func scaleDown(img image.Image, max int) *image.RGBA {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if w > max || h > max {
		if w >= h {
			dw, dh = max, (h*max+w/2)/w
		} else {
			dw, dh = (w*max+h/2)/h, max
		}
		dw, dh = maxInt(dw, 1), maxInt(dh, 1)
	}
	type acc struct{ r, g, b, a, n uint64 }
	sums := make([]acc, dw*dh)
	// pixel reads one source pixel as 8-bit alpha-premultiplied RGBA.
	var pixel func(x, y int) (r, g, b, a uint8)
	switch src := img.(type) {
	case *image.YCbCr:
		pixel = func(x, y int) (uint8, uint8, uint8, uint8) {
			yi, ci := src.YOffset(x, y), src.COffset(x, y)
			r, g, b := color.YCbCrToRGB(src.Y[yi], src.Cb[ci], src.Cr[ci])
			return r, g, b, 0xff
		}
	case *image.RGBA:
		pixel = func(x, y int) (uint8, uint8, uint8, uint8) {
			c := src.RGBAAt(x, y)
			return c.R, c.G, c.B, c.A
		}
	case *image.NRGBA: // a PNG with transparency: premultiplied here, as RGBA keeps it
		pixel = func(x, y int) (uint8, uint8, uint8, uint8) {
			c := src.NRGBAAt(x, y)
			a := uint16(c.A)
			return uint8(uint16(c.R) * a / 0xff), uint8(uint16(c.G) * a / 0xff), uint8(uint16(c.B) * a / 0xff), c.A
		}
	case *image.Gray:
		pixel = func(x, y int) (uint8, uint8, uint8, uint8) {
			v := src.GrayAt(x, y).Y
			return v, v, v, 0xff
		}
	default:
		pixel = func(x, y int) (uint8, uint8, uint8, uint8) {
			r, g, b, a := img.At(x, y).RGBA()
			return uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)
		}
	}
	for y := 0; y < h; y++ {
		row := sums[(y*dh/h)*dw:]
		for x := 0; x < w; x++ {
			r, g, bl, a := pixel(b.Min.X+x, b.Min.Y+y)
			s := &row[x*dw/w]
			s.r, s.g, s.b, s.a, s.n = s.r+uint64(r), s.g+uint64(g), s.b+uint64(bl), s.a+uint64(a), s.n+1
		}
	}
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for i, s := range sums {
		if s.n == 0 {
			continue
		}
		out.SetRGBA(i%dw, i/dw, color.RGBA{R: uint8(s.r / s.n), G: uint8(s.g / s.n), B: uint8(s.b / s.n), A: uint8(s.a / s.n)})
	}
	return out
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// orient turns an image upright by its EXIF orientation (1 to 8), which re-encoding would
// otherwise drop along with the rest of the EXIF data.
func orient(img *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return img
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	out := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		for x := 0; x < dw; x++ {
			var sx, sy int
			switch o {
			case 2: // mirrored
				sx, sy = w-1-x, y
			case 3: // upside down
				sx, sy = w-1-x, h-1-y
			case 4: // mirrored upside down
				sx, sy = x, h-1-y
			case 5: // mirrored, turned left
				sx, sy = y, x
			case 6: // turned left: turn it right
				sx, sy = y, h-1-x
			case 7: // mirrored, turned right
				sx, sy = w-1-y, h-1-x
			case 8: // turned right: turn it left
				sx, sy = w-1-y, x
			}
			out.SetRGBA(x, y, img.RGBAAt(sx, sy))
		}
	}
	return out
}

// exifOrientation reads the orientation tag (0x0112) of a JPEG's EXIF segment; 1 (upright)
// when there is none or it cannot be read.
func exifOrientation(b []byte) int {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return 1
	}
	for i := 2; i+4 <= len(b); {
		if b[i] != 0xFF {
			return 1
		}
		marker := b[i+1]
		switch {
		case marker == 0xFF: // fill byte
			i++
			continue
		case marker == 0x01 || marker >= 0xD0 && marker <= 0xD7:
			i += 2
			continue
		case marker == 0xDA || marker == 0xD9: // the image data starts: no EXIF after this
			return 1
		}
		size := int(b[i+2])<<8 | int(b[i+3])
		if size < 2 || i+2+size > len(b) {
			return 1
		}
		if seg := b[i+4 : i+2+size]; marker == 0xE1 && len(seg) > 14 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
		i += 2 + size
	}
	return 1
}

// tiffOrientation finds the orientation in the first IFD of EXIF's TIFF structure.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	off := int(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > len(t) {
		return 1
	}
	n := int(bo.Uint16(t[off:]))
	for k := 0; k < n; k++ {
		e := off + 2 + 12*k
		if e+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[e:]) == 0x0112 {
			if v := int(bo.Uint16(t[e+8:])); v >= 1 && v <= 8 {
				return v
			}
			return 1
		}
	}
	return 1
}
