// Package webtest drives the built calculator in headless Chromium for the
// end-to-end tests (site) and the web benchmarks (bench/web). It is never
// linked into app.wasm.
//
// It builds the site as `make site` does, serves it from an httptest server
// on 127.0.0.1 through package static, the local server's handler, which
// follows Workers' static-asset rules (clean URLs: /decide is decide.html;
// the site's headers, static.Headers, applied; index.html for a path that
// names no file), starts Debian's chromium with a fresh profile, and reads a
// page's figures through their data-field attributes.
package webtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/internal/static"
)

// BuildSite builds app.wasm and runs the generator into out, from the
// module at root, exactly as mk/web.mk's site target does.
func BuildSite(root, out, version string) error {
	goBin := "go"
	if g := os.Getenv("GO"); g != "" {
		goBin = g
	}
	tmp := filepath.Join(out, "app.wasm.tmp")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	build := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w", "-tags", "calculator", "-o", tmp, "./wasm")
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("building app.wasm: %v\n%s", err, b)
	}
	gen := exec.Command(goBin, "run", "-trimpath", "./site", "-out", out, "-wasm", tmp, "-version", version)
	gen.Dir = root
	if b, err := gen.CombinedOutput(); err != nil {
		return fmt.Errorf("generating the site: %v\n%s", err, b)
	}
	return os.Remove(tmp)
}

// Handler serves a static site folder through package static, the handler
// of the local server, so the browser tests see what flakegate-serve and
// Workers send: clean URLs (/decide is decide.html), the index.html
// fallback and static.Headers. It counts requests per path, so tests can
// check that a repeat visit is served by the service worker, and can play
// offline.
type Handler struct {
	Dir     string // the folder served, until Deploy replaces it
	site    *static.Handler
	mu      sync.Mutex
	hits    map[string]int
	offline bool
	held    map[string]chan struct{}
}

// Hold makes requests for path wait, counted as they arrive, until release
// is called (or their client gives up): a slow network for one file, such
// as the app.wasm a new version's service worker caches while it installs.
func (h *Handler) Hold(path string) (release func()) {
	c := make(chan struct{})
	h.mu.Lock()
	if h.held == nil {
		h.held = map[string]chan struct{}{}
	}
	h.held[path] = c
	h.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			h.mu.Lock()
			if h.held[path] == c {
				delete(h.held, path)
			}
			h.mu.Unlock()
			close(c)
		})
	}
}

// Deploy serves dir from the next request on, in one step, as a host
// switches to an uploaded version: no request sees a site half written.
// (Writing a new version over the folder being served is not a deploy:
// a browser that checks for an update while the generator is still
// compressing sees new pages beside old files.)
func (h *Handler) Deploy(dir string) error {
	site, err := static.New(os.DirFS(dir), static.Options{Headers: static.Headers})
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.Dir, h.site = dir, site
	h.mu.Unlock()
	return nil
}

// SetOffline makes every request fail with 503 (true) as if the network
// were down, or serves again (false).
func (h *Handler) SetOffline(off bool) {
	h.mu.Lock()
	h.offline = off
	h.mu.Unlock()
}

// NewHandler serves dir; files are read on every request, so a
// regenerated site is served at once.
func NewHandler(dir string) (*Handler, error) {
	h := &Handler{hits: map[string]int{}}
	if err := h.Deploy(dir); err != nil {
		return nil, err
	}
	return h, nil
}

// Hits returns how many times path was requested.
func (h *Handler) Hits(p string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hits[p]
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := path.Clean("/" + r.URL.Path)
	h.mu.Lock()
	h.hits[p]++
	off, site, held := h.offline, h.site, h.held[p]
	h.mu.Unlock()
	if held != nil {
		select {
		case <-held:
		case <-r.Context().Done():
			return
		}
	}
	if off {
		http.Error(w, "offline", http.StatusServiceUnavailable)
		return
	}
	site.ServeHTTP(w, r)
}

// Screenshot captures the whole page as PNG.
func Screenshot(ctx context.Context) ([]byte, error) {
	return chromedp.Run(ctx, chromedp.FullScreenshot(100))
}

// Serve starts an httptest server on 127.0.0.1 for dir.
func Serve(dir string) (*httptest.Server, *Handler, error) {
	h, err := NewHandler(dir)
	if err != nil {
		return nil, nil, err
	}
	return httptest.NewServer(h), h, nil
}

// Chromium is the path of Debian's chromium, or an error saying how to
// install it: a missing browser is a failure, not a skip.
func Chromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("chromium not found: run `make tools-web` (apt-get install chromium)")
}

// NewBrowser starts headless chromium with a fresh profile in userDataDir
// and returns a chromedp context for its first tab.
func NewBrowser(parent context.Context, userDataDir string) (context.Context, context.CancelFunc, error) {
	exe, err := Chromium()
	if err != nil {
		return nil, nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.UserDataDir(userDataDir),
		chromedp.WindowSize(1280, 900),
	}
	// Extra switches for experiments, e.g. FLAKEGATE_CHROMIUM_FLAGS='js-flags=--liftoff-only'.
	for _, f := range strings.Fields(os.Getenv("FLAKEGATE_CHROMIUM_FLAGS")) {
		name, val, ok := strings.Cut(f, "=")
		switch {
		case val == "false":
			opts = append(opts, chromedp.Flag(name, false))
		case ok:
			opts = append(opts, chromedp.Flag(name, val))
		default:
			opts = append(opts, chromedp.Flag(name, true))
		}
	}
	actx, acancel := chromedp.NewExecAllocator(parent, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[int]("1")); err != nil {
		bcancel()
		acancel()
		return nil, nil, fmt.Errorf("starting chromium: %w", err)
	}
	return bctx, func() { bcancel(); acancel() }, nil
}

// Console collects a tab's console messages, exceptions and browser-log
// entries (CSP violations arrive as log errors).
type Console struct {
	mu   sync.Mutex
	msgs []chromedp.ConsoleMessage
}

// Watch starts collecting the messages of ctx's tab until ctx ends.
func Watch(ctx context.Context) *Console {
	c := &Console{}
	it := chromedp.Console(ctx)
	go func() {
		for m, err := range it {
			if err != nil {
				return
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, m)
			c.mu.Unlock()
		}
	}()
	return c
}

// Errors lists the error-level messages and exceptions so far.
func (c *Console) Errors() []string {
	return c.list(func(m chromedp.ConsoleMessage) (string, bool) {
		if m.Type != chromedp.ConsoleError && !m.IsException() {
			return "", false
		}
		return fmt.Sprintf("%s (%s %s:%d)", m.String(), m.Source, m.URL, m.Line), true
	})
}

// All lists every message so far.
func (c *Console) All() []string {
	return c.list(func(m chromedp.ConsoleMessage) (string, bool) { return m.String(), true })
}

// list is the text of each message so far that show keeps.
func (c *Console) list(show func(chromedp.ConsoleMessage) (string, bool)) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, m := range c.msgs {
		if s, ok := show(m); ok {
			out = append(out, s)
		}
	}
	return out
}

// Poll evaluates a JS boolean expression until it is true.
func Poll(ctx context.Context, timeout time.Duration, expr string) error {
	deadline := time.Now().Add(timeout)
	// Each look runs on the page's main thread: 10 ms apart at first, for
	// a condition already nearly true, then further apart up to 50 ms, so
	// a long wait (a calculator loading on a busy machine) does not keep
	// the thread it waits for busy answering.
	pause := 10 * time.Millisecond
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = errors.New("still false")
			}
			return fmt.Errorf("waiting %v for %s: %w", timeout, expr, err)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// ReadyJS is true once go-app has started: the wasm loader is gone and the
// page's main element is rendered by the client, which marks it without
// data-prerendered (wasm/page's main). app.js removes the loader as soon
// as Go's main first yields, which can be before the client's render
// replaces the server's DOM: a test that looked only at the loader and a
// main#main then acted on the pre-rendered page, whose drop zones and
// buttons have no handlers yet ("dragover was not cancelled", one run in
// a suite under load).
const ReadyJS = `!document.getElementById('app-wasm-loader') && !!document.querySelector('main#main:not([data-prerendered])')`

// WaitReady waits until app.wasm runs the page.
func WaitReady(ctx context.Context, timeout time.Duration) error { return Poll(ctx, timeout, ReadyJS) }

// FieldsJS collects path → value of every data-field element, the scope of
// each being the data-scope attributes of its ancestors.
const FieldsJS = `(() => {
  const out = {};
  for (const el of document.querySelectorAll('[data-field]')) {
    const parts = [];
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (p.dataset && p.dataset.scope) parts.unshift(p.dataset.scope);
    }
    parts.push(el.dataset.field);
    out[parts.join('.')] = el.getAttribute('value');
  }
  return out;
})()`

// OpenAllJS opens every closed disclosure; the page builds long tables
// and lists only when they are opened.
const OpenAllJS = `(() => { let n = 0; for (const d of document.querySelectorAll('details:not([open])')) { d.open = true; n++; } return n; })()`

// OpenAll opens every closed disclosure and returns how many it opened.
func OpenAll(ctx context.Context) (int, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[int](OpenAllJS))
}

// Fields reads the page's figures.
func Fields(ctx context.Context) (map[string]string, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[map[string]string](FieldsJS))
}

// TypeInto replaces the text of an input by typing: focus, select all,
// then key events for each character (an empty text sends Backspace).
func TypeInto(ctx context.Context, id, text string) error {
	sel := chromedp.ID(id)
	if err := chromedp.Do(ctx,
		chromedp.Focus(sel),
		chromedp.Evaluate[chromedp.Void](`document.getElementById(`+jsString(id)+`).select()`, chromedp.EvalAsValue),
	); err != nil {
		return err
	}
	if text == "" {
		text = "\b"
	}
	return chromedp.Do(ctx, chromedp.SendKeys(sel, text))
}

// Paste puts text into a text area as a paste does: the value changes at
// once and one input event fires.
func Paste(ctx context.Context, id, text string) error {
	return onElement(ctx, id, `
  el.focus();
  el.value = `+jsString(text)+`;
  el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));`)
}

// ClipboardPaste pastes text into a text area as a browser does: a paste
// event carrying the text in its clipboardData and, unless the page cancels
// it, the text put in the text area and an input event.
func ClipboardPaste(ctx context.Context, id, text string) error {
	return ClipboardPasteJS(ctx, id, jsString(text))
}

// ClipboardPasteJS is ClipboardPaste of the string a JavaScript expression
// gives (a text built in the page, too long to send with each call).
func ClipboardPasteJS(ctx context.Context, id, expr string) error {
	return onElement(ctx, id, `
  el.focus();
  const dt = new DataTransfer();
  dt.setData('text/plain', `+expr+`);
  const ev = new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true});
  if (el.dispatchEvent(ev)) {
    el.value = dt.getData('text/plain');
    el.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));
  }`)
}

// Select chooses an option of a select element and fires change.
func Select(ctx context.Context, id, value string) error {
	return onElement(ctx, id, `
  el.value = `+jsString(value)+`;
  el.dispatchEvent(new Event('change', {bubbles: true}));`)
}

// onElement runs the JavaScript statements js in the page with el the
// element whose id is id.
func onElement(ctx context.Context, id, js string) error {
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
  const el = document.getElementById(`+jsString(id)+`);`+js+`
  return true;
})()`))
	return err
}

func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
