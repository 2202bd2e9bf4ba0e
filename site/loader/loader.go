// Package loader is how flakegate's pages load app.wasm: the changes the
// static-site generator makes to go-app's app.js, and the preload every
// page's head carries. The benchmark's go-app pages (bench/web/floor) load
// the same way, so their times compare with the calculator's.
//
// go-app's loader wraps the app.wasm response in a new Response to count
// bytes for its progress label. A synthetic Response has no URL, so Chrome
// could never reuse compiled code for it, and counting on a clone of the
// body instead costs a JavaScript callback and a label repaint for every
// chunk on the main thread while V8 compiles. Patch hands fetch's own
// response to WebAssembly.instantiateStreaming; the label says "Loading"
// without a percentage, and Preload in every page's head has the download
// under way before app.js runs.
//
// The service worker is registered once the page is up (or app.wasm failed)
// rather than first thing: installing it fetches and stores app.wasm a
// second time, which competed with the page's own download and compile.
package loader

import (
	"errors"
	"strings"
)

// Preload starts fetching app.wasm while the page is parsed; app.js's
// fetch (a same-origin CORS request, hence crossorigin) is served from it.
// It goes into go-app's Handler.RawHeaders.
const Preload = `<link rel="preload" href="/web/app.wasm" as="fetch" type="application/wasm" crossorigin>`

const (
	fetchWithProgressStart = "async function fetchWithProgress(url, progess) {\n"
	progressWrapEnd        = "  return res;\n}"
	plainFetch             = "async function fetchWithProgress(url, progess) {\n  return fetch(url);\n}"
	goRun                  = "    go.run(wasm.instance);\n"
	registerWorker         = "goappInitServiceWorker();\n"
	wasmLoaderEnd          = "    console.error(\"loading wasm failed: \", err);\n  }\n"
)

// errChanged says go-app's app.js no longer has the shape Patch expects.
var errChanged = errors.New("go-app's app.js changed; review site/loader.Patch")

// Patch returns go-app's app.js with the changes above and a
// performance mark, "wasm-ready", when the module is compiled and
// instantiated, just before Go's runtime starts (for the load-time
// benchmark). It fails rather than guess when app.js has changed shape.
func Patch(appJS string) (string, error) {
	s := appJS
	i := strings.Index(s, fetchWithProgressStart)
	j := strings.Index(s, progressWrapEnd)
	if i < 0 || j < i {
		return "", errChanged
	}
	s = s[:i] + plainFetch + s[j+len(progressWrapEnd):]
	if !strings.Contains(s, goRun) {
		return "", errChanged
	}
	s = strings.Replace(s, goRun, "    performance.mark(\"wasm-ready\");\n"+goRun, 1)
	if strings.Count(s, registerWorker) != 1 || strings.Count(s, wasmLoaderEnd) != 1 {
		return "", errChanged
	}
	s = strings.Replace(s, registerWorker, "", 1)
	s = strings.Replace(s, wasmLoaderEnd, wasmLoaderEnd+"  "+registerWorker, 1)
	return s, nil
}
