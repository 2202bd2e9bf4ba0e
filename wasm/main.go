// Command wasm is flakegate's calculator in the browser: built with
// GOOS=js GOARCH=wasm into web/app.wasm, the go-app client that renders the
// calculators of package page (wasm/page).
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -tags calculator -o app.wasm ./wasm
//
// The tag calculator leaves out code the page never runs (see mk/web.mk).
//
// The pages it serves are pre-rendered by the static-site generator
// (./site), which links go-app's server side; none of net/http's server is
// linked into app.wasm. Built natively, the program only says what it is.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/flakegate/flakegate/wasm/page"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	if !app.IsClient {
		fmt.Fprintln(os.Stderr, "wasm: this is the calculator's browser program: build it with GOOS=js GOARCH=wasm (make site)")
		os.Exit(2)
	}
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
	page.Register()
	app.RunWhenOnBrowser() // serves the app and never returns
}
