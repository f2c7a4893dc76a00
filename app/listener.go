package main

import (
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// silentGrace is how long a connection may stay without sending a byte before a shutdown
// counts it as holding no request: longer than a request's bytes take to follow its connect.
const silentGrace = time.Second

// drainListener knows which of its connections have never sent a byte. fasthttp's shutdown
// closes idle keep-alive connections but waits for one that has sent nothing yet (a browser's
// preconnect, a load balancer's warm pool) until its read timeout, which is longer than the
// drain: such a connection alone held `canvass serve` to the deadline and an exit of 1. At
// shutdown, closeSilent closes those; a connection that has sent any byte is left to finish.
type drainListener struct {
	net.Listener
	mu     sync.Mutex
	silent map[*drainConn]time.Time // accepted, nothing read yet: when it was accepted
}

func newDrainListener(ln net.Listener) *drainListener {
	return &drainListener{Listener: ln, silent: map[*drainConn]time.Time{}}
}

func (l *drainListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	dc := &drainConn{Conn: c, l: l}
	l.mu.Lock()
	l.silent[dc] = time.Now()
	l.mu.Unlock()
	return dc, nil
}

// closeSilent closes the connections that have sent nothing for silentGrace or more.
func (l *drainListener) closeSilent(now time.Time) int {
	l.mu.Lock()
	var idle []*drainConn
	for c, at := range l.silent {
		if now.Sub(at) >= silentGrace {
			idle = append(idle, c)
			delete(l.silent, c)
		}
	}
	l.mu.Unlock()
	for _, c := range idle {
		_ = c.Conn.Close()
	}
	return len(idle)
}

// closeSilentUntil closes silent connections every 100 ms until done is closed.
func (l *drainListener) closeSilentUntil(done <-chan struct{}) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		l.closeSilent(time.Now())
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
}

type drainConn struct {
	net.Conn
	l     *drainListener
	spoke atomic.Bool
}

func (c *drainConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && !c.spoke.Swap(true) {
		c.forget()
	}
	return n, err
}

func (c *drainConn) Close() error {
	c.forget()
	return c.Conn.Close()
}

func (c *drainConn) forget() {
	c.l.mu.Lock()
	delete(c.l.silent, c)
	c.l.mu.Unlock()
}
