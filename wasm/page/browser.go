package page

import (
	"errors"
	"io"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Browser glue. Natively (tests, pre-rendering) go-app's JS values are inert
// stubs, so each function checks app.IsClient before waiting on JS.

// copyText writes text to the clipboard and reports the outcome on the UI
// goroutine.
func copyText(ctx app.Context, text string, done func(ok bool)) {
	if !app.IsClient {
		done(false)
		return
	}
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		done(false)
		return
	}
	ctx.Async(func() {
		_, err := await(clip.Call("writeText", text))
		ctx.Dispatch(func(ctx app.Context) { done(err == nil) })
	})
}

// afterPaint runs fn on the UI goroutine once the browser has painted what
// is on the page now: a timer task queued from the next animation frame.
// (A Go timer cannot promise this: one that is already due when the
// current update ends runs before Go hands the thread back to the
// browser.) A hidden tab runs no animation frames, so there fn waits until
// the tab is shown. Natively fn runs at once.
func afterPaint(ctx app.Context, fn func(app.Context)) {
	if !app.IsClient {
		ctx.Dispatch(fn)
		return
	}
	afterPaintJS(func() { ctx.Dispatch(fn) })
}

// afterPaintJS calls fn from a timer task queued from the next animation
// frame, in the browser only: fn runs in a JavaScript callback, outside
// go-app's loop, so it must not touch components.
func afterPaintJS(fn func()) {
	var frame, task app.Func
	task = app.FuncOf(func(this app.Value, args []app.Value) any {
		task.Release()
		fn()
		return nil
	})
	frame = app.FuncOf(func(this app.Value, args []app.Value) any {
		frame.Release()
		app.Window().Call("setTimeout", task, 0)
		return nil
	})
	app.Window().Call("requestAnimationFrame", frame)
}

// await blocks the calling goroutine (never the UI one) until a JS promise
// settles.
func await(p app.Value) (app.Value, error) {
	if !app.IsClient {
		return nil, errors.New("no browser")
	}
	type result struct {
		v   app.Value
		err error
	}
	ch := make(chan result, 1)
	var then, catch app.Func
	then = app.FuncOf(func(this app.Value, args []app.Value) any {
		var v app.Value
		if len(args) > 0 {
			v = args[0]
		}
		ch <- result{v: v}
		return nil
	})
	catch = app.FuncOf(func(this app.Value, args []app.Value) any {
		msg := "promise rejected"
		if len(args) > 0 && args[0].Truthy() {
			msg = args[0].Call("toString").String()
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	p.Call("then", then).Call("catch", catch)
	r := <-ch
	then.Release()
	catch.Release()
	return r.v, r.err
}

// fileReader streams a browser File (or Blob) to Go in chunks; each chunk
// is an awaited promise, so the page keeps painting between chunks.
type fileReader struct {
	blob   app.Value
	size   int64
	off    int64
	buf    []byte
	chunk  int64
	onRead func(done, total int64)
}

// fileChunk is small enough that parsing one chunk stays near a frame or
// two, large enough that the awaits between chunks cost little.
const fileChunk = 1 << 20

func newFileReader(blob app.Value, onRead func(done, total int64)) *fileReader {
	return &fileReader{blob: blob, size: int64(blob.Get("size").Int()), chunk: fileChunk, onRead: onRead}
}

func (r *fileReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		if r.off >= r.size {
			return 0, errEOF
		}
		end := min(r.off+r.chunk, r.size)
		ab, err := await(r.blob.Call("slice", r.off, end).Call("arrayBuffer"))
		if err != nil {
			return 0, err
		}
		u8 := app.Window().Get("Uint8Array").New(ab)
		b := make([]byte, end-r.off)
		app.CopyBytesToGo(b, u8)
		r.buf, r.off = b, end
		if r.onRead != nil {
			r.onRead(r.off, r.size)
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

var errEOF = io.EOF

// textReader hands a pasted text to a parser in chunks, reporting progress
// and letting the browser paint between chunks.
type textReader struct {
	s      string
	off    int
	chunk  int
	onRead func(done, total int64)
}

const textChunk = 1 << 20

func newTextReader(s string, onRead func(done, total int64)) *textReader {
	return &textReader{s: s, chunk: textChunk, onRead: onRead}
}

func (r *textReader) Read(p []byte) (int, error) {
	if r.off >= len(r.s) {
		return 0, io.EOF
	}
	start := r.off
	lim := min(len(r.s), (r.off/r.chunk+1)*r.chunk)
	n := copy(p, r.s[r.off:lim])
	r.off += n
	if r.off%r.chunk == 0 || r.off == len(r.s) {
		if r.onRead != nil {
			r.onRead(int64(r.off), int64(len(r.s)))
		}
		if app.IsClient && r.off-start > 0 && r.off < len(r.s) {
			time.Sleep(time.Millisecond) // yield to the event loop
		}
	}
	return n, nil
}

// yield lets the browser run its event loop (paint, input) before more
// work on this goroutine; natively it does nothing.
func yield() {
	if app.IsClient {
		time.Sleep(time.Millisecond)
	}
}

// pauser returns an aa.Options.Pause for work on a goroutine other than
// the UI one: it yields to the browser's event loop once 8 ms have passed
// since it last did, so a long computation drops no more than a frame or
// so at a time. Natively it returns nil.
func pauser() func() {
	if !app.IsClient {
		return nil
	}
	last := time.Now()
	return func() {
		if time.Since(last) >= 8*time.Millisecond {
			yield()
			last = time.Now()
		}
	}
}

// perfMark records a performance mark once per name, for the load-time
// benchmark (bench/web reads them); natively it does nothing.
func perfMark(name string) {
	if !app.IsClient || marked[name] {
		return
	}
	marked[name] = true
	app.Window().Get("performance").Call("mark", name)
}

var marked = map[string]bool{}
