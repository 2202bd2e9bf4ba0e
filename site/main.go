// Command site is flakegate's calculator entry point, built twice from the
// same source:
//
//   - GOOS=js GOARCH=wasm: web/app.wasm, the go-app client that renders the
//     calculators of package page in the browser;
//
//   - natively: the static-site generator, which pre-renders every page with
//     go-app's app.Handler and writes the folder Workers serves as assets
//     (and the local server serves beside the API):
//
//     go run ./site -out dist/site -wasm app.wasm -version "$(git rev-parse --short HEAD)"
//
// The server side (app.Handler, GenerateStaticWebsite) lives in gen.go behind
// a !wasm build tag, so none of net/http's server is linked into app.wasm.
package main

import (
	"runtime/debug"

	"github.com/flakegate/flakegate/page"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	if app.IsClient {
		// For the load-time benchmark: when Go's main starts, after the
		// module is fetched, compiled and its package inits have run.
		app.Window().Get("performance").Call("mark", "go-main")
		// Collect less often: a collection stops the page's only thread,
		// and the calculator's live heap is a few MB. In interleaved runs
		// of 40 keystrokes (bench/web -only keys) the slowest took 28–44 ms
		// instead of 49–72 ms. The limit keeps a huge pasted CSV from
		// growing the tab's memory five times over.
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(256 << 20)
	}
	page.Register()
	app.RunWhenOnBrowser() // in the browser this serves the app and never returns
	generate()
}
