//go:build js && wasm

package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"syscall/js"
)

// registerName is the global the shim sets before it runs the instance.
const registerName = "__flakegateRegister"

// Options configure Serve.
type Options struct {
	// DiscardBytes bounds what the shim reads of a request body in all, the
	// handler's reads and its own together, in bytes, > 0. When a handler
	// answers before it has read the whole of a body it began to read, the
	// shim reads and discards the rest up to this bound before it sends the
	// answer (workerd breaks the connection instead, under wrangler dev at
	// least, when a half-read body is cancelled); past the bound it cancels.
	DiscardBytes int64
	// RetireBytes bounds the instance's memory, in bytes; 0 means no
	// bound. A wasm memory only grows, so after one large request the
	// instance would keep its peak for the isolate's life; when an answer
	// finds the memory past this bound, the shim retires the instance, and
	// the old memory goes once its requests are answered.
	RetireBytes int64
	// Failure writes the answer to a request the instance cannot answer
	// (a panic escaped the handler, or the Go program died). Serve renders
	// it once and hands the shim a copy; nil leaves the shim's own bare 500.
	Failure func(http.ResponseWriter)
	// Log receives a line and a stack for each panic that escapes the
	// handler; nil means standard error (the Worker's console).
	Log io.Writer
	// Pages, when not nil, is registered as goSide.render: the handler of
	// the requests the shim makes itself to render a page (a calculator
	// link: the request's URL, headers and, as its body, the page as
	// pre-rendered). Only the shim calls it; no client reaches it.
	Pages http.Handler
}

// shim is the shim's side of this instance, from registration.
var shim js.Value

// Serve registers h with the shim and serves every request it is handed,
// each on its own goroutine, until the instance is dropped. It returns only
// when there is no shim to register with.
func Serve(h http.Handler, opt Options) error {
	register := js.Global().Get(registerName)
	if register.Type() != js.TypeFunction {
		return errors.New("no Worker shim to register with: run app.wasm through functions/workers/shim/worker.mjs")
	}
	goSide := js.Global().Get("Object").New()
	logw := opt.Log
	if logw == nil {
		logw = os.Stderr
	}
	goSide.Set("serve", js.FuncOf(func(_ js.Value, args []js.Value) any {
		serve(h, logw, args[0], args[1], args[2])
		return nil
	}))
	if opt.Pages != nil {
		goSide.Set("render", js.FuncOf(func(_ js.Value, args []js.Value) any {
			serve(opt.Pages, logw, args[0], args[1], args[2])
			return nil
		}))
	}
	goSide.Set("discardBytes", float64(opt.DiscardBytes))
	goSide.Set("retireBytes", float64(opt.RetireBytes))
	if opt.Failure != nil {
		w := newWriter(http.MethodGet)
		opt.Failure(w)
		status, fields, data := w.finish()
		failure := js.Global().Get("Object").New()
		failure.Set("status", status)
		failure.Set("fields", fields)
		failure.Set("body", toJS(data))
		goSide.Set("failure", failure)
	}
	shim = register.Invoke(goSide)
	select {}
}

// Retire tells the shim to start a fresh instance for the next request and
// drop this one once its requests are answered: its state may be corrupt.
// reason goes to the log.
func Retire(reason string) {
	if shim.Truthy() {
		shim.Call("retire", reason)
	}
}

// ShimStats returns the shim's figures for this instance as JSON (see
// worker.mjs), or "null" without a shim.
func ShimStats() string {
	if !shim.Truthy() {
		return "null"
	}
	return shim.Call("stats").String()
}

// serve reads the request now, in the caller's (the request's own)
// context, and answers it on a goroutine of its own.
func serve(h http.Handler, logw io.Writer, req, src, respond js.Value) {
	r, err := Request(req, !src.IsNull())
	if err != nil {
		fmt.Fprintf(logw, "flakegate worker: %v\n", err)
		respond.Invoke()
		return
	}
	var b *body
	if src.IsNull() {
		r.Body = http.NoBody
	} else {
		b = newBody(src)
		r.Body = b
	}
	go func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		w := newWriter(r.Method)
		ok := call(h, logw, w, r.WithContext(ctx))
		if ok {
			status, fields, data := w.finish()
			respond.Invoke(status, fields, toJS(data))
		} else {
			Retire("a panic escaped the handler")
			respond.Invoke()
		}
		if b != nil {
			b.release()
		}
	}()
}

// call runs the handler and reports whether it returned normally. A panic
// that escapes it is logged, as net/http's server does.
func call(h http.Handler, logw io.Writer, w http.ResponseWriter, r *http.Request) (ok bool) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(logw, "flakegate worker: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
		}
	}()
	h.ServeHTTP(w, r)
	return true
}

var uint8Array = js.Global().Get("Uint8Array")

// toJS copies b into a new Uint8Array, or returns null for no bytes.
func toJS(b []byte) js.Value {
	if len(b) == 0 {
		return js.Null()
	}
	u := uint8Array.New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}
