//go:build js && wasm

package bridge

import (
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"syscall/js"
	"testing"
)

// These tests run under Node (`make wasmtest`), whose Headers, Request and
// Response follow the Fetch standard as workerd's do.

// newHeaders returns a JavaScript Headers object with the fields appended
// in order, as a runtime builds one from the lines of a request.
func newHeaders(fields ...[2]string) js.Value {
	h := js.Global().Get("Headers").New()
	for _, f := range fields {
		h.Call("append", f[0], f[1])
	}
	return h
}

// TestHeader: each value is what the Headers object holds, whole. The Fetch
// standard's "combine" joins the lines of a repeated field with ", " and
// keeps each Set-Cookie apart; what a net/http server's Header.Get returns
// for a field sent on one line is the whole line.
func TestHeader(t *testing.T) {
	cases := []struct {
		name   string
		fields [][2]string
		want   http.Header
	}{
		{"requested headers of a preflight",
			[][2]string{{"access-control-request-headers", "content-type,x-requested-with"}},
			http.Header{"Access-Control-Request-Headers": {"content-type,x-requested-with"}}},
		{"quoted multipart boundary with a comma",
			[][2]string{{"Content-Type", `multipart/form-data; boundary="flake,gate"`}},
			http.Header{"Content-Type": {`multipart/form-data; boundary="flake,gate"`}}},
		{"a date",
			[][2]string{{"If-Modified-Since", "Tue, 15 Nov 1994 08:12:31 GMT"}},
			http.Header{"If-Modified-Since": {"Tue, 15 Nov 1994 08:12:31 GMT"}}},
		{"a field on two lines is combined",
			[][2]string{{"Accept", "text/csv"}, {"accept", "application/json;q=0.5"}},
			http.Header{"Accept": {"text/csv, application/json;q=0.5"}}},
		{"each cookie set apart",
			[][2]string{{"Set-Cookie", "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT"}, {"Set-Cookie", "b=2"}},
			http.Header{"Set-Cookie": {"a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "b=2"}}},
		{"names in canonical form",
			[][2]string{{"x-flakegate-thing", "1"}, {"CONTENT-LENGTH", "3"}},
			http.Header{"X-Flakegate-Thing": {"1"}, "Content-Length": {"3"}}},
		{"an empty value",
			[][2]string{{"X-Empty", ""}},
			http.Header{"X-Empty": {""}}},
		{"no fields", nil, http.Header{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Header(newHeaders(c.fields...))
			if !equalHeader(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func equalHeader(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// newRequest builds a JavaScript Request; body "" means none.
func newRequest(method, url, body string, fields ...[2]string) js.Value {
	init := js.Global().Get("Object").New()
	init.Set("method", method)
	init.Set("headers", newHeaders(fields...))
	if body != "" {
		init.Set("body", body)
	}
	return js.Global().Get("Request").New(url, init)
}

// TestRequest: the fields a net/http server sets for the same request line
// and header (net/http's readRequest is the reference).
func TestRequest(t *testing.T) {
	req := newRequest("POST", "https://flakegate.example/v1/aa?k=1,3&drops=0.1", "a,b\n",
		[2]string{"Content-Type", "text/csv"}, [2]string{"Content-Length", "4"}, [2]string{"Cf-Connecting-Ip", "203.0.113.7"})
	r, err := Request(req, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, got, want string }{
		{"Method", r.Method, "POST"},
		{"URL", r.URL.String(), "/v1/aa?k=1,3&drops=0.1"},
		{"URL.Path", r.URL.Path, "/v1/aa"},
		{"URL.RawQuery", r.URL.RawQuery, "k=1,3&drops=0.1"},
		{"RequestURI", r.RequestURI, "/v1/aa?k=1,3&drops=0.1"},
		{"Host", r.Host, "flakegate.example"},
		{"Proto", r.Proto, "HTTP/1.1"},
		{"RemoteAddr", r.RemoteAddr, "203.0.113.7"},
		{"Content-Type", r.Header.Get("Content-Type"), "text/csv"},
	} {
		if c.got != c.want {
			t.Errorf("%s %q, want %q", c.what, c.got, c.want)
		}
	}
	if r.ContentLength != 4 {
		t.Errorf("ContentLength %d, want 4", r.ContentLength)
	}

	get, err := Request(newRequest("GET", "http://127.0.0.1:8787/v1/budget?rates=%zz", ""), false)
	if err != nil {
		t.Fatal(err)
	}
	if get.ContentLength != 0 || get.URL.RawQuery != "rates=%zz" || get.Host != "127.0.0.1:8787" {
		t.Errorf("GET: ContentLength %d, RawQuery %q, Host %q; want 0, rates=%%zz, 127.0.0.1:8787", get.ContentLength, get.URL.RawQuery, get.Host)
	}
	if _, ok := get.Header["Host"]; ok {
		t.Errorf("Host stayed in the header; net/http moves it to Request.Host")
	}

	chunked, err := Request(newRequest("POST", "http://x/v1/aa", "a"), true)
	if err != nil {
		t.Fatal(err)
	}
	if chunked.ContentLength != -1 {
		t.Errorf("a body without a declared length: ContentLength %d, want -1", chunked.ContentLength)
	}
}

// fakeSource is a source as the shim's: pull(deliver) hands over the next
// chunk later (in a microtask), then null at the end, or fail as an error
// string after the chunks when fail is set.
var fakeSource = js.Global().Get("Function").New("chunks", "fail", `
	return {
		pulls: 0,
		pull(deliver) {
			this.pulls++;
			const c = chunks.shift();
			Promise.resolve().then(() => deliver(c !== undefined ? new TextEncoder().encode(c) : (fail || null)));
		},
	};`)

func chunks(cs ...string) js.Value {
	a := js.Global().Get("Array").New()
	for _, c := range cs {
		a.Call("push", c)
	}
	return a
}

// TestBody reads a body chunk by chunk, with reads smaller and larger than
// the chunks.
func TestBody(t *testing.T) {
	for _, size := range []int{1, 3, 512} {
		src := fakeSource.Invoke(chunks("scenario,run,passed\n", "s1,r1,1\n", "", "s1,r2,0\n"), js.Null())
		b := newBody(src)
		var got strings.Builder
		buf := make([]byte, size)
		for {
			n, err := b.Read(buf)
			got.Write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if want := "scenario,run,passed\ns1,r1,1\ns1,r2,0\n"; got.String() != want {
			t.Errorf("reads of %d: %q, want %q", size, got.String(), want)
		}
		if n, err := b.Read(buf); n != 0 || err != io.EOF {
			t.Errorf("a read after the end: %d, %v; want 0, EOF", n, err)
		}
		if pulls := src.Get("pulls").Int(); pulls != 5 {
			t.Errorf("%d pulls for 4 chunks and the end, want 5: nothing is asked twice", pulls)
		}
		b.Close()
		if _, err := b.Read(buf); !errors.Is(err, errClosed) {
			t.Errorf("a read after Close: %v, want %v", err, errClosed)
		}
		b.release()
	}

	b := newBody(fakeSource.Invoke(chunks("abc"), js.ValueOf("TypeError: Network connection lost.")))
	got, err := io.ReadAll(b)
	if string(got) != "abc" || err == nil || !strings.Contains(err.Error(), "Network connection lost") {
		t.Errorf("a source that fails after abc: %q, %v; want abc and its error", got, err)
	}
	b.release()
}

// TestServe registers a handler as the shim would see it and serves
// requests through goSide.serve: bodies read, answers handed over, two
// requests at once, and a panic that escapes the handler answered with no
// arguments (the shim's 500) and the instance retired.
func TestServe(t *testing.T) {
	registered := make(chan js.Value, 1)
	retired := make(chan string, 4)
	js.Global().Set(registerName, js.FuncOf(func(_ js.Value, args []js.Value) any {
		registered <- args[0]
		shimSide := js.Global().Get("Object").New()
		shimSide.Set("retire", js.FuncOf(func(_ js.Value, args []js.Value) any {
			retired <- args[0].String()
			return nil
		}))
		shimSide.Set("stats", js.FuncOf(func(js.Value, []js.Value) any { return `{"instance":1}` }))
		return shimSide
	}))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panic" {
			panic("a handler's own panic")
		}
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("X-Got", r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("Accept"))
		w.Write(b)
	})
	var logged strings.Builder
	failure := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, "failed\n")
	}
	go Serve(h, Options{DiscardBytes: 1 << 20, RetireBytes: 3 << 20, Failure: failure, Log: &logged})
	goSide := <-registered
	if got := goSide.Get("discardBytes").Int(); got != 1<<20 {
		t.Errorf("discardBytes %d, want %d", got, 1<<20)
	}
	if got := goSide.Get("retireBytes").Int(); got != 3<<20 {
		t.Errorf("retireBytes %d, want %d", got, 3<<20)
	}
	f := goSide.Get("failure")
	fb := make([]byte, f.Get("body").Get("byteLength").Int())
	js.CopyBytesToGo(fb, f.Get("body"))
	if f.Get("status").Int() != 500 || f.Get("fields").String() != "Content-Type\ntext/plain\n" || string(fb) != "failed\n" {
		t.Errorf("failure: %d %q %q, want what Options.Failure writes", f.Get("status").Int(), f.Get("fields").String(), fb)
	}
	type answer struct {
		failed bool
		status int
		header http.Header
		body   string
	}
	serve := func(req, src js.Value) <-chan answer {
		out := make(chan answer, 1)
		var respond js.Func
		respond = js.FuncOf(func(_ js.Value, args []js.Value) any {
			defer respond.Release()
			if len(args) == 0 {
				out <- answer{failed: true}
				return nil
			}
			a := answer{status: args[0].Int(), header: parseFields(t, args[1].String())}
			if !args[2].IsNull() {
				b := make([]byte, args[2].Get("byteLength").Int())
				js.CopyBytesToGo(b, args[2])
				a.body = string(b)
			}
			out <- a
			return nil
		})
		goSide.Call("serve", req, src, respond)
		return out
	}

	a := serve(newRequest("POST", "http://x/echo?q=1", "", [2]string{"Accept", "text/csv, application/json"}),
		fakeSource.Invoke(chunks("first ", "request"), js.Null()))
	b := serve(newRequest("PUT", "http://x/echo", "", [2]string{"Accept", "*/*"}),
		fakeSource.Invoke(chunks("second ", "one ", "here"), js.Null()))
	for _, c := range []struct {
		got       <-chan answer
		body, hdr string
	}{
		{a, "first request", "POST /echo?q=1 text/csv, application/json"},
		{b, "second one here", "PUT /echo */*"},
	} {
		got := <-c.got
		if got.failed || got.status != 200 || got.body != c.body || got.header.Get("X-Got") != c.hdr || got.header.Get("Content-Type") != "text/plain" {
			t.Errorf("got %+v, want 200, body %q, X-Got %q", got, c.body, c.hdr)
		}
	}

	get := <-serve(newRequest("GET", "http://x/echo", ""), js.Null())
	if get.status != 200 || get.body != "" {
		t.Errorf("a GET without a body: %+v", get)
	}

	failed := <-serve(newRequest("GET", "http://x/panic", ""), js.Null())
	if !failed.failed {
		t.Errorf("a panic out of the handler was answered %+v; want respond() with no arguments", failed)
	}
	select {
	case reason := <-retired:
		if !strings.Contains(reason, "panic") {
			t.Errorf("retired for %q", reason)
		}
	default:
		t.Errorf("a panic out of the handler did not retire the instance")
	}
	if !strings.Contains(logged.String(), "panic serving GET /panic: a handler's own panic") {
		t.Errorf("the panic was not logged; the log holds %q", logged.String())
	}
	if got := ShimStats(); got != `{"instance":1}` {
		t.Errorf("ShimStats %q, want the shim's stats() as it returned them", got)
	}
}
