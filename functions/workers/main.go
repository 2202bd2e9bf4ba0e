//go:build js && wasm

// Command workers serves flakegate's JSON API on Cloudflare Workers through
// github.com/syumai/workers. It is built with GOOS=js GOARCH=wasm into
// dist/worker/app.wasm, beside the JavaScript shim of workers-assets-gen
// (`make worker`); wrangler.toml at the repository root routes /v1/* here
// and serves everything else from the static site.
//
// Every request starts a fresh Go instance, so main does nothing but hand
// the handler over: no globals, no caches, no start-up work.
package main

import (
	"github.com/syumai/workers"

	"github.com/flakegate/flakegate/functions/api"
)

func main() {
	workers.Serve(api.New(api.Options{}))
}
