//go:build js && wasm

// Command workers serves flakegate's JSON API on Cloudflare Workers, and
// renders calculator links into their pages. It is built with GOOS=js
// GOARCH=wasm into dist/worker/app.wasm, beside the JavaScript shim in
// shim/ (`make worker`); wrangler.toml at the repository root routes /v1/*
// and the calculator's pages here and serves everything else from the
// static site. The shim answers a page without a query from the assets
// itself; for a page with one (a link) it fetches the page as pre-rendered
// from the assets and hands both to pages (package render).
//
// The Worker's limits are those of the Workers plan that FLAKEGATE_PLAN
// (wrangler.toml's [vars]) names, "free" or "paid" (api.WorkerPlanOptions).
//
// One instance of this program serves every request of its isolate, several
// at a time (package bridge). The API keeps no state between requests, so
// nothing here does either; a panic, which the API answers with a 500, also
// retires the instance (so does a panic that escapes it), and the shim starts a fresh one for the next
// request.
package main

import (
	"io"
	"log"
	"net/http"
	"os"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/workers/bridge"
	"github.com/flakegate/flakegate/internal/render"
)

func main() {
	opt, err := api.WorkerPlanOptions(plan())
	if err != nil {
		log.Fatal(err) // the shim answers every request 500, and the log says why
	}
	opt.Log = log.New(retiringLog{}, "", 0)
	h := api.New(opt)
	err = bridge.Serve(hooks(h), bridge.Options{
		DiscardBytes: discardBytes(opt),
		// An isolate may hold 128 MB; an instance that has served only
		// small requests holds about 11 MiB.
		RetireBytes: 64 << 20,
		Failure:     api.WriteFailure,
		Pages:       http.HandlerFunc(pages),
	})
	log.Fatal(err)
}

// freeDiscardBytes is what the shim reads of a body in all on the Free
// plan: reading and discarding the rest of an upload the API refused
// costs CPU time too (about 5 ns a byte under workerd), so past 1 MiB the
// upload is cancelled rather than read, and a client that sends its whole
// body before it reads the answer may see the connection closed instead of
// the 413.
const freeDiscardBytes = 1 << 20

// discardBytes bounds what the shim reads of a request body (twice the
// body limit; on the Free plan, freeDiscardBytes).
func discardBytes(opt api.Options) int64 {
	if opt.Plan == api.WorkerPlanFree {
		return freeDiscardBytes
	}
	return 2 * api.DefaultMaxBodyBytes
}

// plan is the Workers plan the Worker is deployed on, as wrangler.toml's
// [vars] FLAKEGATE_PLAN names it (the shim hands the FLAKEGATE_ variables
// to Go as its environment); unset, the Free plan, whose limits keep every
// request within its CPU time.
func plan() string {
	if p, ok := os.LookupEnv("FLAKEGATE_PLAN"); ok {
		return p
	}
	return api.WorkerPlanFree
}

// pages answers the shim's request to render a link: its URL and headers
// are the client's, its body the page as pre-rendered. A link that is not
// rendered (render.Respond) is answered 204, and the shim sends the page as
// it is.
func pages(w http.ResponseWriter, r *http.Request) {
	tpl, err := io.ReadAll(io.LimitReader(r.Body, render.MaxTemplate+1))
	if err == nil && len(tpl) <= render.MaxTemplate {
		get := r.Clone(r.Context())
		get.Method = http.MethodGet
		// The bridge sets X-Forwarded-Proto from the request's own URL.
		origin := ""
		if p := r.Header.Get("X-Forwarded-Proto"); (p == "http" || p == "https") && r.Host != "" {
			origin = p + "://" + r.Host
		}
		if render.Respond(w, get, tpl, origin) {
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// retiringLog receives the API's log, which it writes only when the server
// is at fault: a panic it recovered, an error it did not expect (both
// answered 500), an answer it could not encode or write (the bridge's
// buffered writer never fails). After any of them this instance's state is
// not to be trusted, so it is retired.
type retiringLog struct{}

func (retiringLog) Write(p []byte) (int, error) {
	n, err := os.Stderr.Write(p)
	bridge.Retire("the API logged a fault of its own (the line above)")
	return n, err
}
