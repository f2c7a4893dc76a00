package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/jpeg"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/testsupport/imagetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// postFile sends a multipart form with one file (its name and content type as a browser or a
// hostile client would give them) and the other fields.
func (c *client) postFile(target, filename, contentType string, data []byte, fields url.Values) *response {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, vs := range fields {
		for _, v := range vs {
			require.NoError(c.e.t, w.WriteField(k, v))
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, filename))
	h.Set("Content-Type", contentType)
	part, err := w.CreatePart(h)
	require.NoError(c.e.t, err)
	_, err = part.Write(data)
	require.NoError(c.e.t, err)
	require.NoError(c.e.t, w.Close())
	return c.do(http.MethodPost, target, &b, http.Header{"Content-Type": {w.FormDataContentType()}})
}

// storedFiles are the files under the uploads directory.
func (e *env) storedFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(e.cfg.UploadsDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	}))
	return out
}

func TestAnUploadedPictureIsStoredWithoutItsEXIFAndServedForAYearToItsOwner(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("localhost", "pic@demo.test")
		upload := imagetest.WithEXIF(imagetest.JPEG(imagetest.Quadrants(800, 600)), 6, "GPS 51.5007N 0.1246W CANVASS-SECRET")

		res := c.postFile("/ah/api/v1/user/profile/pic", "holiday.png", "image/png", upload, nil)
		p := decodeJSON[profileJSON](t, res, http.StatusCreated)
		require.Len(t, p.ProfilePics, 1)
		pic := p.ProfilePics[0]
		assert.Equal(t, "/media/profile-pics/"+pic.Key, pic.URL)

		got := c.get(pic.URL)
		require.Equal(t, http.StatusOK, got.StatusCode)
		assert.Equal(t, "image/jpeg", got.Header.Get("Content-Type"), "the type is the bytes', not the client's")
		assert.Equal(t, "private, max-age=31536000, immutable", got.Header.Get("Cache-Control"))
		assert.Equal(t, `"`+pic.Key+`"`, got.Header.Get("ETag"))
		assert.Equal(t, "nosniff", got.Header.Get("X-Content-Type-Options"))
		sum := sha256.Sum256([]byte(got.Body))
		assert.Equal(t, pic.Key, hex.EncodeToString(sum[:]), "the name is the content's hash")
		assert.NotContains(t, got.Body, "CANVASS-SECRET", "EXIF is gone")
		assert.NotContains(t, got.Body, "Exif\x00\x00")
		img, err := jpeg.Decode(strings.NewReader(got.Body))
		require.NoError(t, err)
		assert.Equal(t, image.Pt(384, 512), img.Bounds().Size(), "turned upright by its orientation, scaled to 512")

		again := c.do(http.MethodGet, pic.URL, nil, http.Header{"If-None-Match": {`"` + pic.Key + `"`}})
		assert.Equal(t, http.StatusNotModified, again.StatusCode)

		files := e.storedFiles(t)
		require.Len(t, files, 1)
		stored, err := os.ReadFile(files[0])
		require.NoError(t, err)
		assert.Equal(t, got.Body, string(stored))
		assert.True(t, strings.HasSuffix(files[0], pic.Key))

		// Nobody else sees it, here or on another panel.
		other := e.apiMember("localhost", "other@demo.test")
		assert.Equal(t, http.StatusNotFound, other.get(pic.URL).StatusCode, "another member")
		assert.Equal(t, http.StatusNotFound, e.client("localhost").get(pic.URL).StatusCode, "a visitor")
		nw := e.apiMember("northwind.localhost", "pic@northwind.test")
		assert.Equal(t, http.StatusNotFound, nw.get(pic.URL).StatusCode, "another panel's member")
	})
}

func TestAnUploadThatIsNotAPictureIsRefusedAndWritesNothing(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("localhost", "refused@demo.test")
		photo := imagetest.JPEG(imagetest.Quadrants(64, 64))
		oversized := append(append([]byte{}, photo...), bytes.Repeat([]byte{0}, 3<<20)...)
		tests := []struct {
			name, filename, contentType string
			data                        []byte
			status                      int
			code                        string
		}{
			{"an oversized file", "big.jpg", "image/jpeg", oversized, http.StatusRequestEntityTooLarge, "picture_too_large"},
			{"a text file called a JPEG", "cat.jpg", "image/jpeg", []byte("just some text, honestly a cat"), http.StatusUnsupportedMediaType, "picture_type"},
			{"an HTML page called a PNG", "cat.png", "image/png", []byte("<html><body onload=alert(1)>cat</body></html>"), http.StatusUnsupportedMediaType, "picture_type"},
			{"an SVG with a script", "cat.svg", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), http.StatusUnsupportedMediaType, "picture_type"},
			{"a JPEG with a script", "cat.jpg", "image/jpeg", imagetest.WithComment(photo, "<script>fetch('/ah/api/v1/close-account')</script>"), http.StatusBadRequest, "picture_script"},
			{"a JPEG and ZIP in one", "cat.jpg", "image/jpeg", append(append([]byte{}, photo...), []byte("PK\x03\x04\x14\x00payload.php")...), http.StatusBadRequest, "picture_polyglot"},
		}
		for _, tt := range tests {
			body := decodeJSON[apiErrorJSON](t, c.postFile("/ah/api/v1/user/profile/pic", tt.filename, tt.contentType, tt.data, nil), tt.status)
			require.NotEmpty(t, body.Details, tt.name)
			assert.Equal(t, tt.code, body.Details[0].Code, tt.name)
			assert.Equal(t, "file", body.Details[0].Field, tt.name)
		}
		noFile := c.postJSON("/ah/api/v1/user/profile/pic", `{"file":"aGVsbG8="}`)
		assert.Equal(t, http.StatusBadRequest, noFile.StatusCode, "no multipart file: %s", noFile.Body)

		p := decodeJSON[profileJSON](t, c.get("/ah/api/v1/user/profile"), http.StatusOK)
		assert.Empty(t, p.ProfilePics)
		assert.Empty(t, e.storedFiles(t), "nothing reached the disk")
	})
}

func TestAMemberChoosesWhichPictureShowsAndDeletesThem(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.apiMember("localhost", "album@demo.test")
		first := decodeJSON[profileJSON](t, c.postFile("/ah/api/v1/user/profile/pic", "a.jpg", "image/jpeg", imagetest.JPEG(imagetest.Quadrants(40, 40)), nil), http.StatusCreated).ProfilePics[0]
		p := decodeJSON[profileJSON](t, c.postFile("/ah/api/v1/user/profile/pic", "b.png", "image/png", imagetest.PNG(imagetest.Quadrants(30, 30)), nil), http.StatusCreated)
		require.Len(t, p.ProfilePics, 2)
		second := p.ProfilePics[0]
		assert.NotEqual(t, first.Key, second.Key, "the newest upload shows first")

		p = decodeJSON[profileJSON](t, c.postJSON("/ah/api/v1/user/profile/pic/"+first.Key, ``), http.StatusOK)
		assert.Equal(t, first.Key, p.ProfilePics[0].Key, "chosen to show")

		// Another member can neither choose nor delete it (404, nothing changes).
		other := e.apiMember("localhost", "thief@demo.test")
		assert.Equal(t, http.StatusNotFound, other.postJSON("/ah/api/v1/user/profile/pic/"+second.Key, ``).StatusCode)
		assert.Equal(t, http.StatusNotFound, other.do(http.MethodDelete, "/ah/api/v1/user/profile/pic/"+second.Key, nil, nil).StatusCode)
		assert.Equal(t, http.StatusNotFound, c.do(http.MethodDelete, "/ah/api/v1/user/profile/pic/not-a-key", nil, nil).StatusCode)

		del := c.do(http.MethodDelete, "/ah/api/v1/user/profile/pic/"+first.Key, nil, nil)
		p = decodeJSON[profileJSON](t, del, http.StatusOK)
		require.Len(t, p.ProfilePics, 1)
		assert.Equal(t, second.Key, p.ProfilePics[0].Key, "the one left shows")
		assert.Equal(t, http.StatusNotFound, c.get(first.URL).StatusCode)
		assert.Len(t, e.storedFiles(t), 1, "the deleted picture's file went with it")

		for i := 0; i < 4; i++ {
			c.postFile("/ah/api/v1/user/profile/pic", "x.png", "image/png", imagetest.PNG(imagetest.Quadrants(10+i, 10)), nil)
		}
		full := decodeJSON[apiErrorJSON](t, c.postFile("/ah/api/v1/user/profile/pic", "x.png", "image/png", imagetest.PNG(imagetest.Quadrants(20, 10)), nil), http.StatusConflict)
		assert.Equal(t, "picture_too_many", full.Details[0].Code)
		assert.Len(t, e.storedFiles(t), 5, "the refused sixth is not kept")
	})
}

func TestTheSettingsPageUploadsAPictureTheTopBarShows(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, e *env) {
		c := e.member()
		c.get("/settings")
		csrf := url.Values{"_csrf": {c.cookie("XSRF-TOKEN")}}

		bad := c.postFile("/settings/pictures", "notes.jpg", "image/jpeg", []byte("plain text"), csrf)
		require.Equal(t, http.StatusUnsupportedMediaType, bad.StatusCode)
		assert.Contains(t, bad.Body, `id="e-file"`)
		assert.Contains(t, bad.Body, "This file is not a JPEG or PNG picture.")

		ok := c.postFile("/settings/pictures", "me.jpg", "image/jpeg", imagetest.JPEG(imagetest.Quadrants(50, 50)), csrf)
		require.Equal(t, http.StatusSeeOther, ok.StatusCode, ok.Body)
		page := c.get("/settings")
		assert.Contains(t, page.Body, `class="topbar-pic"`)
		assert.Contains(t, page.Body, `<img src="/media/profile-pics/`)
		assert.Contains(t, page.Body, "Your picture has been uploaded.")
		feed := c.get("/feed")
		assert.Contains(t, feed.Body, `class="topbar-pic"`, "every private page shows it")

		var key string
		for _, f := range e.storedFiles(t) {
			key = filepath.Base(f)
		}
		del := c.postForm("/settings/pictures/"+key+"/delete", url.Values{})
		require.Equal(t, http.StatusSeeOther, del.StatusCode, del.Body)
		assert.NotContains(t, c.get("/settings").Body, `class="topbar-pic"`)
	})
}

// A 130 KB PNG of 4096×4096 16-bit pixels, uploaded 24 times at once, once took the server from
// 548 MB to 6.78 GB. Now each is refused from its header (413) or, past the member's uploads
// of the minute, at once (429): the process's heap stays within a stated bound meanwhile. It
// runs alone (app/parallel_test.go) so that the heap it watches is its own.
func TestTwentyFourSmallPicturesOfHugeImagesAtOnceKeepTheServersMemoryBounded(t *testing.T) {
	eachDialectWith(t, withoutJobWorkers(), func(t *testing.T, e *env) {
		upload := imagetest.BlankPNG16(4096, 4096)
		require.Less(t, len(upload), 200<<10)
		c := e.member().api()
		runtime.GC()
		base := heapBytes()
		var peak atomic.Uint64
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			for {
				if h := heapBytes(); h > peak.Load() {
					peak.Store(h)
				}
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Millisecond):
				}
			}
		}()
		rs := atOnce(24, func(int) *response {
			return c.postFile("/ah/api/v1/user/profile/pic", "tiny.png", "image/png", upload, nil)
		})
		close(stop)
		<-sampled
		got := tally(rs)
		assert.Equal(t, 24, got[http.StatusRequestEntityTooLarge]+got[http.StatusTooManyRequests], "each refused, in the spec's error shape: %v", got)
		for _, r := range rs {
			if r != nil {
				_, msg, _ := apiError(t, r)
				assert.NotEmpty(t, msg)
			}
		}
		const bound = 256 << 20
		grew := int64(peak.Load()) - int64(base)
		t.Logf("heap: %d MiB before, %d MiB at most during the uploads", base>>20, peak.Load()>>20)
		assert.Less(t, grew, int64(bound), "the uploads grew the heap by %d MiB; the bound is %d MiB", grew>>20, bound>>20)
	})
}

// heapBytes is the memory the Go heap's live and not-yet-swept objects take now.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
