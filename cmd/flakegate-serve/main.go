// Command flakegate-serve is the local server: flakegate's JSON API under
// /v1/ and the calculator's static site (dist/site, written by `make site`)
// for every other path, on one loopback port.
//
//	flakegate-serve [-addr 127.0.0.1:8080] [-site dist/site] [-max-body bytes]
//
// It prints the URL it serves once it listens, and stops on an interrupt.
// The site is served by package static as Workers serves it in production:
// /decide is decide.html, a path that names no file gets index.html, and
// the site's headers (static.Headers, its CSP among them; the same rules
// the generator writes to _headers for Workers) are applied. A page whose
// URL holds a link's query (/decide?v=2&baseline=…) is sent with that
// link's answer, figures and preview tags in it (package render). Files
// are read on every request, so `make site` needs no restart.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/internal/render"
	"github.com/flakegate/flakegate/internal/static"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "flakegate-serve:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("flakegate-serve", flag.ContinueOnError)
	fl.SetOutput(stderr)
	addr := fl.String("addr", "127.0.0.1:8080", "`host:port` to listen on; port 0 picks a free one")
	site := fl.String("site", "dist/site", "`folder` of the static site served outside /v1/")
	maxBody := fl.Int64("max-body", api.DefaultMaxBodyBytes, "largest request body the API reads, in `bytes`")
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	if *maxBody <= 0 {
		return fmt.Errorf("-max-body must be a positive number of bytes, got %d", *maxBody)
	}
	opt := api.LocalOptions()
	opt.MaxBodyBytes = *maxBody
	mux, err := newMux(opt, os.DirFS(*site))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := newServer(mux)
	fmt.Fprintf(stdout, "flakegate: serving http://%s/ (API under /v1/, site from %s)\n", ln.Addr(), *site)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}

// newServer is the local server's http.Server for h. Header reading has a
// timeout; a body's pace is pacedBodies' to check.
func newServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
}

// newMux serves the API under /v1/ and the site everywhere else, reading
// request bodies at a pace (pacedBodies).
func newMux(opt api.Options, site fs.FS) (http.Handler, error) {
	files, err := static.New(site, static.Options{Headers: static.Headers, Placeholder: placeholder})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(api.Prefix, api.New(opt))
	mux.Handle("/", links(site, files))
	return pacedBodies(nosniff(mux)), nil
}

// links answers a calculator page whose URL holds a link's query with the
// page as pre-rendered, showing that link's answer (package render), and
// leaves every other request to files. Go's server refuses a request line
// and headers past http.DefaultMaxHeaderBytes (1 MiB) with 431, far above
// render.MaxQuery, past which the page is served as pre-rendered.
func links(site fs.FS, files http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery != "" {
			if tpl, ok := template(site, r.URL.Path); ok {
				// The local server speaks plain HTTP only.
				if body, ok := render.Page(r, tpl, "http://"+r.Host); ok {
					static.Headers.Apply(w.Header(), r.URL.Path)
					w.Header().Set("Vary", "Accept-Encoding")
					if static.Negotiate(r.Header.Values("Accept-Encoding"), []string{"gzip"}) == "gzip" {
						body = api.GzipBytes(body) // brotli at its best would cost more than rendering
						w.Header().Set("Content-Encoding", "gzip")
					}
					render.Send(w, r, body)
					return
				}
			}
		}
		files.ServeHTTP(w, r)
	})
}

// template is the pre-rendered page of a calculator path, if the site has
// it and it is no larger than render.MaxTemplate.
func template(site fs.FS, path string) ([]byte, bool) {
	if _, ok := render.Titles[path]; !ok {
		return nil, false
	}
	name := strings.TrimPrefix(path, "/") + ".html"
	if path == "/" {
		name = "index.html"
	}
	f, err := site.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, render.MaxTemplate+1))
	if err != nil || len(b) > render.MaxTemplate {
		return nil, false
	}
	return b, true
}

// nosniff marks every answer, the mux's own redirects too, as meaning
// what its Content-Type says.
func nosniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// placeholder is served (status 404) when the site has not been built.
const placeholder = `<!doctype html>
<meta charset="utf-8">
<title>flakegate</title>
<h1>flakegate</h1>
<p>The calculator is not built here yet (<code>make site</code>). The API is live: try
<a href="/v1/budget?target=0.95&amp;cost=8&amp;cap=3&amp;observe=1/120&amp;rates=0.05,0.02">/v1/budget</a>
or read <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
`
