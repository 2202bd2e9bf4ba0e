package main

import (
	"errors"
	"io"
	"net/http"
	"time"
)

// bodyGrace is how long a body may take before its pace counts (a
// variable for the tests).
var bodyGrace = 10 * time.Second

// Request bodies on the local server: read at a pace, and read to the end
// after an early answer.
const (
	// minBodyRate is the slowest pace a body may keep after bodyGrace, in
	// bytes per second: a 32 MiB upload then has about 9 minutes, and a
	// body trickling 1 byte a second is cut off after 10 s.
	minBodyRate = 64 << 10
	// maxDrain is the most of a body read and thrown away after the API
	// answered early (a 413 for a declared length over the limit, a 400 at
	// line 1): clients that send the whole body before reading the answer,
	// as Python's urllib and requests do, then read the answer instead of
	// a connection reset. A longer body is not drained; the connection is
	// closed.
	maxDrain = 256 << 20
)

// pacedBodies gives every request body a read deadline that moves with
// the bytes read: bodyGrace plus one second per minBodyRate bytes since
// the request came in. A body that falls behind fails its read with an
// error the API answers 408. After the handler, a body it left unread is
// read to its end, within the same pace and maxDrain, so that the answer
// reaches a client still sending.
func pacedBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		pb := &pacedBody{rc: http.NewResponseController(w), src: r.Body, start: time.Now()}
		r.Body = pb
		next.ServeHTTP(w, r)
		if pb.eof || pb.err != nil {
			return
		}
		if r.ContentLength > maxDrain || (r.ContentLength >= 0 && r.ContentLength-pb.n > maxDrain) {
			return // not worth reading: the server closes the connection
		}
		// Send the answer now, then take the rest of the body.
		if err := pb.rc.Flush(); err != nil {
			return
		}
		io.Copy(io.Discard, io.LimitReader(pb, maxDrain))
	})
}

// pacedBody is a request body under a moving read deadline.
type pacedBody struct {
	rc    *http.ResponseController
	src   io.ReadCloser
	start time.Time
	n     int64 // bytes read
	eof   bool
	err   error // the first error other than io.EOF
}

func (p *pacedBody) Read(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	deadline := p.start.Add(bodyGrace + time.Duration(float64(p.n)/minBodyRate*float64(time.Second)))
	if err := p.rc.SetReadDeadline(deadline); err != nil && !errors.Is(err, http.ErrNotSupported) {
		p.err = err
		return 0, err
	}
	n, err := p.src.Read(b)
	p.n += int64(n)
	switch {
	case err == io.EOF:
		p.eof = true
	case err != nil:
		p.err = err
	}
	return n, err
}

func (p *pacedBody) Close() error { return p.src.Close() }
