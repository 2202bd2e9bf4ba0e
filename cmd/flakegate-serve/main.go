// Command flakegate-serve is the local server: flakegate's JSON API under
// /v1/ and the calculator's static site (dist/site, written by `make site`)
// for every other path, on one loopback port.
//
//	flakegate-serve [-addr 127.0.0.1:8080] [-site dist/site] [-max-body bytes]
//
// It prints the URL it serves once it listens, and stops on an interrupt.
// Like Workers' single-page-application mode, a path that names no file is
// answered with the site's index.html.
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
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/flakegate/flakegate/functions/api"
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
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           newMux(api.Options{MaxBodyBytes: *maxBody}, os.DirFS(*site)),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
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

// newMux serves the API under /v1/ and the site everywhere else.
func newMux(opt api.Options, site fs.FS) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(api.Prefix, api.New(opt))
	mux.Handle("/", siteHandler(site))
	return mux
}

// placeholder is served when the site has not been built.
const placeholder = `<!doctype html>
<meta charset="utf-8">
<title>flakegate</title>
<h1>flakegate</h1>
<p>The calculator is not built here yet (<code>make site</code>). The API is live: try
<a href="/v1/budget?target=0.95&amp;cost=8&amp;cap=3&amp;observe=1/120&amp;rates=0.05,0.02">/v1/budget</a>
or read <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
`

// siteHandler serves files from site; a path that names no file gets
// index.html, as Workers' single-page-application mode does.
func siteHandler(site fs.FS) http.Handler {
	files := http.FileServerFS(site)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "the site answers GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" {
			name = "."
		}
		if st, err := fs.Stat(site, name); err == nil && (!st.IsDir() || exists(site, path.Join(name, "index.html"))) {
			files.ServeHTTP(w, r)
			return
		}
		if exists(site, "index.html") {
			http.ServeFileFS(w, r, site, "index.html")
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, placeholder)
	})
}

func exists(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && !st.IsDir()
}
