package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// magenta marks a changed pixel in the diff picture.
var magenta = color.RGBA{R: 255, G: 0, B: 255, A: 255}

// comparison is how two pictures differ, over the union of their sizes.
type comparison struct {
	changed, total int
	diff           *image.RGBA // the after picture faded to grey, changed pixels in magenta
}

// share is the fraction of the pixels that changed.
func (c comparison) share() float64 {
	if c.total == 0 {
		return 0
	}
	return float64(c.changed) / float64(c.total)
}

// compare compares before and after pixel by pixel: a pixel changed when a channel differs by
// more than tolerance (of 255), or when it lies outside one of the pictures.
func compare(before, after image.Image, tolerance uint8) comparison {
	b, a := toRGBA(before), toRGBA(after)
	w := max(b.Rect.Dx(), a.Rect.Dx())
	h := max(b.Rect.Dy(), a.Rect.Dy())
	out := comparison{total: w * h, diff: image.NewRGBA(image.Rect(0, 0, w, h))}
	bw, bh, aw, ah := b.Rect.Dx(), b.Rect.Dy(), a.Rect.Dx(), a.Rect.Dy()
	for y := range h {
		for x := range w {
			i := y*out.diff.Stride + x*4
			d := out.diff.Pix[i : i+4 : i+4]
			if x >= bw || y >= bh || x >= aw || y >= ah || !same(b.Pix[y*b.Stride+x*4:], a.Pix[y*a.Stride+x*4:], tolerance) {
				out.changed++
				d[0], d[1], d[2], d[3] = magenta.R, magenta.G, magenta.B, magenta.A
				continue
			}
			p := a.Pix[y*a.Stride+x*4:]
			v := faded(p[0], p[1], p[2])
			d[0], d[1], d[2], d[3] = v, v, v, 255
		}
	}
	return out
}

// same tells whether two RGBA pixels are within tolerance on every channel.
func same(p, q []uint8, tolerance uint8) bool {
	for c := range 4 {
		d := int(p[c]) - int(q[c])
		if d < -int(tolerance) || d > int(tolerance) {
			return false
		}
	}
	return true
}

// faded is a colour's grey, brought two thirds of the way to white: the page stays legible
// behind the magenta without competing with it.
func faded(r, g, b uint8) uint8 {
	grey := (299*int(r) + 587*int(g) + 114*int(b)) / 1000
	return uint8(255 - (255-grey)/3)
}

// toRGBA is img as an *image.RGBA whose bounds start at 0,0.
func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok && r.Rect.Min == (image.Point{}) {
		return r
	}
	r := image.NewRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
	draw.Draw(r, r.Rect, img, img.Bounds().Min, draw.Src)
	return r
}

// diffPNGs compares two encoded pictures. Equal bytes are unchanged without decoding (Chromium
// encodes the same pixels the same way), which is most shots.
func diffPNGs(before, after []byte, tolerance uint8) (comparison, error) {
	if bytes.Equal(before, after) {
		return comparison{}, nil
	}
	b, err := png.Decode(bytes.NewReader(before))
	if err != nil {
		return comparison{}, fmt.Errorf("decode the base's picture: %w", err)
	}
	a, err := png.Decode(bytes.NewReader(after))
	if err != nil {
		return comparison{}, fmt.Errorf("decode the work tree's picture: %w", err)
	}
	return compare(b, a, tolerance), nil
}

// encodePNG encodes quickly: the diff pictures are read once and thrown away.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// pngSize is an encoded picture's width and height (0, 0 when unreadable).
func pngSize(data []byte) (int, int) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}

// formatShare writes a share of pixels as a percentage a reader can compare at a glance.
func formatShare(s float64) string {
	switch {
	case s == 0:
		return "0%"
	case s < 0.0001:
		return "under 0.01%"
	default:
		return fmt.Sprintf("%.2f%%", s*100)
	}
}
