//go:build js && wasm

package bridge

import (
	"errors"
	"io"
	"syscall/js"
)

// body is a request body read through the shim's source: each Read that
// finds nothing buffered asks for one chunk and waits for it. At most one
// chunk is asked for at a time, so deliver never blocks.
type body struct {
	src     js.Value // the shim's source: pull(deliver)
	deliver js.Func
	arrived chan error // nil: a chunk is in buf; io.EOF; or the source's error
	buf     []byte     // the chunk being read, reused
	rest    []byte     // what of buf is unread
	err     error      // sticky: io.EOF, the source's error, or errClosed
}

// errClosed is what Read returns after Close, as net/http's server does.
var errClosed = errors.New("http: invalid Read on closed Body")

func newBody(src js.Value) *body {
	b := &body{src: src, arrived: make(chan error, 1)}
	b.deliver = js.FuncOf(func(_ js.Value, args []js.Value) any {
		v := js.Null()
		if len(args) > 0 {
			v = args[0]
		}
		switch v.Type() {
		case js.TypeObject:
			n := v.Get("byteLength").Int()
			if cap(b.buf) < n {
				b.buf = make([]byte, n)
			}
			b.buf = b.buf[:n]
			js.CopyBytesToGo(b.buf, v)
			b.arrived <- nil
		case js.TypeString:
			b.arrived <- errors.New("reading the request body: " + v.String())
		default:
			b.arrived <- io.EOF
		}
		return nil
	})
	return b
}

func (b *body) Read(p []byte) (int, error) {
	for len(b.rest) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		b.src.Call("pull", b.deliver)
		if err := <-b.arrived; err != nil {
			b.err = err
			continue
		}
		b.rest = b.buf
	}
	n := copy(p, b.rest)
	b.rest = b.rest[n:]
	return n, nil
}

// Close stops further reads; what is left of the body is the shim's to
// read or discard.
func (b *body) Close() error {
	if b.err == nil || b.err == io.EOF {
		b.err = errClosed
	}
	return nil
}

// release frees the deliver callback once the answer is handed over: the
// shim calls deliver for no chunk asked for after that.
func (b *body) release() { b.deliver.Release() }
