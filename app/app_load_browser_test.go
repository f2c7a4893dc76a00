package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/canvass/canvass/modules/events"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInChromiumTheAppLoadAndThePanelsPixelLoadOnceAsTheVisitEntersAndNotOnMovesInside(t *testing.T) {
	t.Parallel()
	b := newBrowserEnv(t)
	ctx := context.Background()
	panel, err := b.app.Tenancy.PanelByKey(ctx, "demo")
	require.NoError(t, err)

	// The panel's tracking pixel, on this machine over plain http: the page's CSP must let it in.
	var pixelHits atomic.Int32
	pixel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pixelHits.Add(1)
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write([]byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"))
	}))
	t.Cleanup(pixel.Close)
	setTrackingPixel(t, b.env, pixel.URL+"/match.gif")

	loads := func() []events.Event {
		list, err := b.app.Events.Recent(ctx, panel.ID, events.AppLoad, 20)
		require.NoError(t, err)
		return list
	}
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		require.Eventually(t, cond, 15*time.Second, 50*time.Millisecond, what)
	}

	// A visitor enters at the login page: the app's load is recorded, without a member.
	p := b.page(t, b.url("localhost", "/login"))
	waitFor("the login page records the app's load", func() bool { return len(loads()) == 1 })
	assert.Nil(t, loads()[0].ParticipantID)
	assert.JSONEq(t, `{"referrer":""}`, loads()[0].Data)

	// Signing in is a move inside the app: nothing again.
	fill(p, map[string]string{"#f-email": DemoEmail, "#f-password": DemoPassword})
	idle := p.MustWaitRequestIdle()
	submit(p, "button[type=submit]")
	idle()
	assert.Equal(t, "/feed", path(p))
	assert.Len(t, loads(), 1)
	assert.Zero(t, pixelHits.Load(), "the pixel is for the page a member enters by")

	// The member comes back by a typed address: the load, with the member, and the pixel.
	p.MustNavigate(b.url("localhost", "/transactions")).MustWaitLoad()
	waitFor("the member's entry records the app's load", func() bool { return len(loads()) == 2 })
	assert.NotNil(t, loads()[0].ParticipantID)
	waitFor("the panel's pixel is loaded", func() bool { return pixelHits.Load() == 1 })
	assert.True(t, p.MustHas(`img.tracking[alt=""][aria-hidden="true"]`))

	// A link inside the app loads neither again.
	idle = p.MustWaitRequestIdle()
	wait := p.MustWaitNavigation()
	p.MustElement(`nav.nav a[href="/feed"]`).MustClick()
	wait()
	idle()
	assert.Equal(t, "/feed", path(p))
	assert.Len(t, loads(), 2)
	assert.Equal(t, int32(1), pixelHits.Load())
}
