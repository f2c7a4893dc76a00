// Package imagetest makes the images picture tests upload: plain JPEGs and PNGs, a JPEG with an
// EXIF segment (an orientation and a text that must not survive), and the hostile files an
// upload must refuse.
package imagetest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
)

// Quadrants is a w×h image whose top-left quarter is red and the rest blue, so a test can tell
// which way up a stored picture is.
func Quadrants(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{B: 255, A: 255}
			if x < w/2 && y < h/2 {
				c = color.RGBA{R: 255, A: 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img
}

// JPEG encodes img as a JPEG.
func JPEG(img image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// PNG encodes img as a PNG.
func PNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// WithEXIF puts an EXIF segment right after a JPEG's start marker: the orientation tag (1-8)
// and an ImageDescription holding text (a stand-in for a camera's GPS position or serial).
func WithEXIF(jpegData []byte, orientation int, text string) []byte {
	desc := append([]byte(text), 0)
	var tiff bytes.Buffer
	le := binary.LittleEndian
	tiff.WriteString("II")
	_ = binary.Write(&tiff, le, uint16(42))
	_ = binary.Write(&tiff, le, uint32(8)) // the first IFD follows the header
	entries := uint16(2)
	_ = binary.Write(&tiff, le, entries)
	descOffset := uint32(8 + 2 + 12*int(entries) + 4)
	// ImageDescription (0x010E), ASCII, its text after the IFD.
	_ = binary.Write(&tiff, le, uint16(0x010E))
	_ = binary.Write(&tiff, le, uint16(2))
	_ = binary.Write(&tiff, le, uint32(len(desc)))
	_ = binary.Write(&tiff, le, descOffset)
	// Orientation (0x0112), SHORT, its value in the entry.
	_ = binary.Write(&tiff, le, uint16(0x0112))
	_ = binary.Write(&tiff, le, uint16(3))
	_ = binary.Write(&tiff, le, uint32(1))
	_ = binary.Write(&tiff, le, uint16(orientation))
	_ = binary.Write(&tiff, le, uint16(0))
	_ = binary.Write(&tiff, le, uint32(0)) // no next IFD
	tiff.Write(desc)
	seg := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	out := append([]byte{}, jpegData[:2]...)
	out = append(out, 0xFF, 0xE1, byte((len(seg)+2)>>8), byte(len(seg)+2))
	out = append(out, seg...)
	return append(out, jpegData[2:]...)
}

// WithComment puts a JPEG comment segment (COM) holding text right after the start marker:
// where a script hides in an otherwise valid image.
func WithComment(jpegData []byte, text string) []byte {
	out := append([]byte{}, jpegData[:2]...)
	out = append(out, 0xFF, 0xFE, byte((len(text)+2)>>8), byte(len(text)+2))
	out = append(out, text...)
	return append(out, jpegData[2:]...)
}

// BlankPNG16 is a w×h PNG of transparent black 16-bit RGBA pixels, written row by row (never
// held whole): a small file that decodes to 8 bytes a pixel, as an attacker's would (a
// 4096×4096 one is about 130 KB on the wire and 128 MiB decoded).
func BlankPNG16(w, h int) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		b.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		b.WriteString(kind)
		b.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		b.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 16, 6 // bit depth, colour type RGBA
	chunk("IHDR", ihdr)
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	row := make([]byte, 1+w*8) // the filter byte (none) and the row's pixels
	for range h {
		if _, err := z.Write(row); err != nil {
			panic(err)
		}
	}
	if err := z.Close(); err != nil {
		panic(err)
	}
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}
