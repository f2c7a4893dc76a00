package tenancy

// A small colour library for the theme's accessible variants: parse the CSS colours a theme
// accepts, measure WCAG 2.x contrast, and move a colour's lightness, keeping its hue, until it
// reaches a contrast ratio.
//
// Lightness is moved in OKLCH (Björn Ottosson's OKLab in polar form, as in CSS Color 4), not
// HSL: OKLCH's lightness is close to perceived lightness and its hue stays the perceived hue
// while lightness changes, so an orange darkened to pass stays a recognisable deep orange
// instead of drifting towards red or brown as HSL does, and a blue does not turn purple. A
// shade that falls outside sRGB keeps its lightness and hue and gives up chroma (the CSS
// Color 4 gamut mapping, done by bisection on chroma).

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// RGBA is a colour in sRGB: R, G, B are gamma-encoded channels in [0,1], A the alpha in [0,1].
type RGBA struct{ R, G, B, A float64 }

// OKLCH is a colour in OKLCH: L lightness in [0,1], C chroma, H hue in degrees.
type OKLCH struct{ L, C, H float64 }

var (
	black = RGBA{0, 0, 0, 1}
	white = RGBA{1, 1, 1, 1}
)

// ParseColour reads #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba(), hsl()/hsla() (comma or
// space separated, alpha as a fourth value or after a slash) and the CSS named colours. It
// reports false for anything else (currentColor, system colours, other colour functions).
func ParseColour(s string) (RGBA, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch {
	case strings.HasPrefix(s, "#"):
		return parseHex(s[1:])
	case strings.HasSuffix(s, ")"):
		open := strings.IndexByte(s, '(')
		if open < 0 {
			return RGBA{}, false
		}
		fn, args := s[:open], splitArgs(s[open+1:len(s)-1])
		if len(args) != 3 && len(args) != 4 {
			return RGBA{}, false
		}
		alpha := 1.0
		if len(args) == 4 {
			a, ok := number(args[3], 1)
			if !ok {
				return RGBA{}, false
			}
			alpha = clamp01(a)
		}
		switch fn {
		case "rgb", "rgba":
			var ch [3]float64
			for i := range ch {
				v, ok := number(args[i], 255)
				if !ok {
					return RGBA{}, false
				}
				ch[i] = clamp01(v / 255)
			}
			return RGBA{ch[0], ch[1], ch[2], alpha}, true
		case "hsl", "hsla":
			h, err := strconv.ParseFloat(strings.TrimSuffix(args[0], "deg"), 64)
			sat, ok2 := number(args[1], 100)
			light, ok3 := number(args[2], 100)
			if err != nil || math.IsNaN(h) || math.IsInf(h, 0) || !ok2 || !ok3 {
				return RGBA{}, false
			}
			c := hslToRGB(h, clamp01(sat/100), clamp01(light/100))
			c.A = alpha
			return c, true
		}
		return RGBA{}, false
	default:
		if v, ok := namedColours[s]; ok {
			return RGBA{float64(v>>16&0xff) / 255, float64(v>>8&0xff) / 255, float64(v&0xff) / 255, 1}, true
		}
		if s == "transparent" {
			return RGBA{0, 0, 0, 0}, true
		}
		return RGBA{}, false
	}
}

func parseHex(h string) (RGBA, bool) {
	var digits []float64
	switch len(h) {
	case 3, 4:
		for i := 0; i < len(h); i++ {
			v, err := strconv.ParseUint(h[i:i+1], 16, 8)
			if err != nil {
				return RGBA{}, false
			}
			digits = append(digits, float64(v*17)/255)
		}
	case 6, 8:
		for i := 0; i < len(h); i += 2 {
			v, err := strconv.ParseUint(h[i:i+2], 16, 8)
			if err != nil {
				return RGBA{}, false
			}
			digits = append(digits, float64(v)/255)
		}
	default:
		return RGBA{}, false
	}
	if len(digits) == 3 {
		digits = append(digits, 1)
	}
	return RGBA{digits[0], digits[1], digits[2], digits[3]}, true
}

// splitArgs splits a colour function's arguments on commas, spaces and the alpha slash.
func splitArgs(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '/' || r == ' ' || r == '\t' || r == '\n' })
}

// number reads a plain number or a percentage of scale.
func number(s string, scale float64) (float64, bool) {
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if pct {
		v = v / 100 * scale
	}
	return v, true
}

func hslToRGB(h, s, l float64) RGBA {
	h = math.Mod(math.Mod(h, 360)+360, 360)
	f := func(n float64) float64 {
		k := math.Mod(n+h/30, 12)
		a := s * math.Min(l, 1-l)
		return l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1))
	}
	return RGBA{f(0), f(8), f(4), 1}
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// Over composites c over an opaque background, as browsers do (in gamma-encoded sRGB).
func (c RGBA) Over(bg RGBA) RGBA {
	return RGBA{c.R*c.A + bg.R*(1-c.A), c.G*c.A + bg.G*(1-c.A), c.B*c.A + bg.B*(1-c.A), 1}
}

// Mix is CSS color-mix(in srgb, c p, other) of two opaque colours: p of c, the rest of other.
func (c RGBA) Mix(other RGBA, p float64) RGBA {
	return RGBA{c.R*p + other.R*(1-p), c.G*p + other.G*(1-p), c.B*p + other.B*(1-p), 1}
}

// Scale multiplies the channels, as the CSS brightness() filter does.
func (c RGBA) Scale(k float64) RGBA {
	return RGBA{clamp01(c.R * k), clamp01(c.G * k), clamp01(c.B * k), c.A}
}

// quantize rounds to the 8-bit colour a #rrggbb value gives the browser.
func (c RGBA) quantize() RGBA {
	q := func(v float64) float64 { return math.Round(clamp01(v)*255) / 255 }
	return RGBA{q(c.R), q(c.G), q(c.B), c.A}
}

// Hex is the opaque colour as #RRGGBB.
func (c RGBA) Hex() string {
	b := func(v float64) int { return int(math.Round(clamp01(v) * 255)) }
	return fmt.Sprintf("#%02X%02X%02X", b(c.R), b(c.G), b(c.B))
}

func linear(v float64) float64 {
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

func gamma(v float64) float64 {
	if v <= 0.0031308 {
		return 12.92 * v
	}
	return 1.055*math.Pow(v, 1/2.4) - 0.055
}

// Luminance is the WCAG 2.x relative luminance of an opaque colour.
func Luminance(c RGBA) float64 {
	return 0.2126*linear(c.R) + 0.7152*linear(c.G) + 0.0722*linear(c.B)
}

// Contrast is the WCAG 2.x contrast ratio of two opaque colours, from 1 to 21.
func Contrast(a, b RGBA) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// ToOKLCH converts an opaque sRGB colour to OKLCH. A grey has chroma 0 (and hue 0).
func ToOKLCH(c RGBA) OKLCH {
	r, g, b := linear(c.R), linear(c.G), linear(c.B)
	if c.R == c.G && c.G == c.B {
		return OKLCH{math.Cbrt(r), 0, 0}
	}
	l := math.Cbrt(0.4122214708*r + 0.5363325363*g + 0.0514459929*b)
	m := math.Cbrt(0.2119034982*r + 0.6806995451*g + 0.1073969566*b)
	s := math.Cbrt(0.0883024619*r + 0.2817188376*g + 0.6299787005*b)
	L := 0.2104542553*l + 0.7936177850*m - 0.0040720468*s
	A := 1.9779984951*l - 2.4285922050*m + 0.4505937099*s
	B := 0.0259040371*l + 0.7827717662*m - 0.8086757660*s
	h := math.Atan2(B, A) * 180 / math.Pi
	if h < 0 {
		h += 360
	}
	return OKLCH{L, math.Hypot(A, B), h}
}

// rgb converts OKLCH to sRGB; in tells whether the colour is inside the sRGB gamut.
func (o OKLCH) rgb() (c RGBA, in bool) {
	if o.C == 0 { // a grey: exactly, so that its channels never round apart
		v := gamma(clamp01(o.L * o.L * o.L))
		return RGBA{v, v, v, 1}, o.L >= 0 && o.L <= 1
	}
	A, B := o.C*math.Cos(o.H*math.Pi/180), o.C*math.Sin(o.H*math.Pi/180)
	l := math.Pow(o.L+0.3963377774*A+0.2158037573*B, 3)
	m := math.Pow(o.L-0.1055613458*A-0.0638541728*B, 3)
	s := math.Pow(o.L-0.0894841775*A-1.2914855480*B, 3)
	r := 4.0767416621*l - 3.3077115913*m + 0.2309699292*s
	g := -1.2684380046*l + 2.6097574011*m - 0.3413193965*s
	b := -0.0041960863*l - 0.7034186147*m + 1.7076147010*s
	const eps = 1e-6
	in = r >= -eps && r <= 1+eps && g >= -eps && g <= 1+eps && b >= -eps && b <= 1+eps
	return RGBA{gamma(clamp01(r)), gamma(clamp01(g)), gamma(clamp01(b)), 1}, in
}

// FromOKLCH converts to sRGB, keeping lightness and hue and lowering chroma until the colour
// fits sRGB (CSS Color 4 gamut mapping, by bisection).
func FromOKLCH(o OKLCH) RGBA {
	o.L = clamp01(o.L)
	if c, in := o.rgb(); in {
		return c
	}
	lo, hi := 0.0, o.C
	for i := 0; i < 24; i++ {
		o.C = (lo + hi) / 2
		if _, in := o.rgb(); in {
			lo = o.C
		} else {
			hi = o.C
		}
	}
	o.C = lo
	c, _ := o.rgb()
	return c
}

// Outcome tells what Reach had to do.
type Outcome int

const (
	Kept     Outcome = iota // the colour already reached the ratio
	Adjusted                // its lightness was moved, hue kept
	Fallback                // no lightness of its hue reaches the ratio: black or white, whichever is nearer
)

// margin is added to the target when a colour is adjusted, so that an adjusted colour is never
// on the edge (axe-core, for one, demands more than 4.5, not 4.5).
const margin = 0.05

// worstRatio is fg's lowest contrast over the backgrounds (opaque), fg composited on each.
func worstRatio(fg RGBA, bgs []RGBA) (ratio float64, on RGBA) {
	ratio = math.Inf(1)
	for _, bg := range bgs {
		if r := Contrast(fg.Over(bg), bg); r < ratio {
			ratio, on = r, bg
		}
	}
	return ratio, on
}

// isLight tells whether dark text reads better on bg than light text.
func isLight(bg RGBA) bool { return Contrast(bg, black) >= Contrast(bg, white) }

// Reach moves fg's lightness (in OKLCH, keeping its hue) the least amount needed for its
// contrast with every background to reach target: darker on light backgrounds, lighter on
// dark ones (the first background decides), the other way round if that cannot reach it. If
// no lightness of its hue reaches target, the result is black or white, whichever contrasts
// more, and the outcome says Fallback. A translucent fg is composited over each background to
// measure it and comes back opaque when adjusted; the backgrounds must be opaque.
func Reach(fg RGBA, bgs []RGBA, target float64) (RGBA, Outcome) {
	if len(bgs) == 0 {
		return fg, Kept
	}
	if r, _ := worstRatio(fg, bgs); r >= target {
		return fg, Kept
	}
	start := ToOKLCH(fg.Over(bgs[0]))
	ok := func(c RGBA) bool { r, _ := worstRatio(c, bgs); return r >= target+margin }
	darker := isLight(bgs[0])
	if c, found := moveLightness(start, darker, ok); found {
		return c, Adjusted
	}
	if c, found := moveLightness(start, !darker, ok); found {
		return c, Adjusted
	}
	rb, _ := worstRatio(black, bgs)
	rw, _ := worstRatio(white, bgs)
	if rb >= rw {
		return black, Fallback
	}
	return white, Fallback
}

// Lightest is the lightest (or, on dark backgrounds, darkest) colour of c's hue and chroma
// that still reaches target on every background: the quietest text that still reads.
func Lightest(c RGBA, bgs []RGBA, target float64) (RGBA, Outcome) {
	if len(bgs) == 0 {
		return c, Kept
	}
	o := ToOKLCH(c.Over(bgs[0]))
	darker := isLight(bgs[0])
	if darker {
		o.L = 1
	} else {
		o.L = 0
	}
	ok := func(c RGBA) bool { r, _ := worstRatio(c, bgs); return r >= target+margin }
	if out, found := moveLightness(o, darker, ok); found {
		return out, Adjusted
	}
	return Reach(c, bgs, target)
}

// moveLightness walks o's lightness from where it is towards 0 (darker) or 1 until ok holds
// for the 8-bit colour it gives, then narrows the last step by bisection: the least move.
func moveLightness(o OKLCH, darker bool, ok func(RGBA) bool) (RGBA, bool) {
	at := func(l float64) RGBA { o := o; o.L = l; return FromOKLCH(o).quantize() }
	const step = 0.01
	dir := step
	if darker {
		dir = -step
	}
	prev := o.L
	for i := 1; ; i++ {
		l := clamp01(o.L + dir*float64(i))
		if c := at(l); ok(c) {
			fail, pass := prev, l
			best := c
			for j := 0; j < 16; j++ {
				mid := (fail + pass) / 2
				if m := at(mid); ok(m) {
					pass, best = mid, m
				} else {
					fail = mid
				}
			}
			return best, true
		}
		if l == 0 || l == 1 {
			return RGBA{}, false
		}
		prev = l
	}
}

// namedColours are the CSS named colours (CSS Color 4), as 0xRRGGBB.
var namedColours = map[string]uint32{
	"aliceblue": 0xf0f8ff, "antiquewhite": 0xfaebd7, "aqua": 0x00ffff, "aquamarine": 0x7fffd4, "azure": 0xf0ffff,
	"beige": 0xf5f5dc, "bisque": 0xffe4c4, "black": 0x000000, "blanchedalmond": 0xffebcd, "blue": 0x0000ff,
	"blueviolet": 0x8a2be2, "brown": 0xa52a2a, "burlywood": 0xdeb887, "cadetblue": 0x5f9ea0, "chartreuse": 0x7fff00,
	"chocolate": 0xd2691e, "coral": 0xff7f50, "cornflowerblue": 0x6495ed, "cornsilk": 0xfff8dc, "crimson": 0xdc143c,
	"cyan": 0x00ffff, "darkblue": 0x00008b, "darkcyan": 0x008b8b, "darkgoldenrod": 0xb8860b, "darkgray": 0xa9a9a9,
	"darkgreen": 0x006400, "darkgrey": 0xa9a9a9, "darkkhaki": 0xbdb76b, "darkmagenta": 0x8b008b, "darkolivegreen": 0x556b2f,
	"darkorange": 0xff8c00, "darkorchid": 0x9932cc, "darkred": 0x8b0000, "darksalmon": 0xe9967a, "darkseagreen": 0x8fbc8f,
	"darkslateblue": 0x483d8b, "darkslategray": 0x2f4f4f, "darkslategrey": 0x2f4f4f, "darkturquoise": 0x00ced1, "darkviolet": 0x9400d3,
	"deeppink": 0xff1493, "deepskyblue": 0x00bfff, "dimgray": 0x696969, "dimgrey": 0x696969, "dodgerblue": 0x1e90ff,
	"firebrick": 0xb22222, "floralwhite": 0xfffaf0, "forestgreen": 0x228b22, "fuchsia": 0xff00ff, "gainsboro": 0xdcdcdc,
	"ghostwhite": 0xf8f8ff, "gold": 0xffd700, "goldenrod": 0xdaa520, "gray": 0x808080, "green": 0x008000,
	"greenyellow": 0xadff2f, "grey": 0x808080, "honeydew": 0xf0fff0, "hotpink": 0xff69b4, "indianred": 0xcd5c5c,
	"indigo": 0x4b0082, "ivory": 0xfffff0, "khaki": 0xf0e68c, "lavender": 0xe6e6fa, "lavenderblush": 0xfff0f5,
	"lawngreen": 0x7cfc00, "lemonchiffon": 0xfffacd, "lightblue": 0xadd8e6, "lightcoral": 0xf08080, "lightcyan": 0xe0ffff,
	"lightgoldenrodyellow": 0xfafad2, "lightgray": 0xd3d3d3, "lightgreen": 0x90ee90, "lightgrey": 0xd3d3d3, "lightpink": 0xffb6c1,
	"lightsalmon": 0xffa07a, "lightseagreen": 0x20b2aa, "lightskyblue": 0x87cefa, "lightslategray": 0x778899, "lightslategrey": 0x778899,
	"lightsteelblue": 0xb0c4de, "lightyellow": 0xffffe0, "lime": 0x00ff00, "limegreen": 0x32cd32, "linen": 0xfaf0e6,
	"magenta": 0xff00ff, "maroon": 0x800000, "mediumaquamarine": 0x66cdaa, "mediumblue": 0x0000cd, "mediumorchid": 0xba55d3,
	"mediumpurple": 0x9370db, "mediumseagreen": 0x3cb371, "mediumslateblue": 0x7b68ee, "mediumspringgreen": 0x00fa9a, "mediumturquoise": 0x48d1cc,
	"mediumvioletred": 0xc71585, "midnightblue": 0x191970, "mintcream": 0xf5fffa, "mistyrose": 0xffe4e1, "moccasin": 0xffe4b5,
	"navajowhite": 0xffdead, "navy": 0x000080, "oldlace": 0xfdf5e6, "olive": 0x808000, "olivedrab": 0x6b8e23,
	"orange": 0xffa500, "orangered": 0xff4500, "orchid": 0xda70d6, "palegoldenrod": 0xeee8aa, "palegreen": 0x98fb98,
	"paleturquoise": 0xafeeee, "palevioletred": 0xdb7093, "papayawhip": 0xffefd5, "peachpuff": 0xffdab9, "peru": 0xcd853f,
	"pink": 0xffc0cb, "plum": 0xdda0dd, "powderblue": 0xb0e0e6, "purple": 0x800080, "rebeccapurple": 0x663399,
	"red": 0xff0000, "rosybrown": 0xbc8f8f, "royalblue": 0x4169e1, "saddlebrown": 0x8b4513, "salmon": 0xfa8072,
	"sandybrown": 0xf4a460, "seagreen": 0x2e8b57, "seashell": 0xfff5ee, "sienna": 0xa0522d, "silver": 0xc0c0c0,
	"skyblue": 0x87ceeb, "slateblue": 0x6a5acd, "slategray": 0x708090, "slategrey": 0x708090, "snow": 0xfffafa,
	"springgreen": 0x00ff7f, "steelblue": 0x4682b4, "tan": 0xd2b48c, "teal": 0x008080, "thistle": 0xd8bfd8,
	"tomato": 0xff6347, "turquoise": 0x40e0d0, "violet": 0xee82ee, "wheat": 0xf5deb3, "white": 0xffffff,
	"whitesmoke": 0xf5f5f5, "yellow": 0xffff00, "yellowgreen": 0x9acd32,
}
