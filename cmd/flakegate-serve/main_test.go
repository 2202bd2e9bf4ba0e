package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/internal/static"
	"github.com/flakegate/flakegate/internal/testfile"
)

const corpusDir = "../../functions/api/testdata"

// binary is the real flakegate-serve, built once per test run.
func binary(t *testing.T) string {
	t.Helper()
	return rendertest.Build(t, "../..", "./cmd/flakegate-serve")
}

// handler is the local server's handler (newMux) with opt over the site
// in the folder site; one that cannot be made fails t.
func handler(t testing.TB, opt api.Options, site string) http.Handler {
	t.Helper()
	h, err := newMux(opt, os.DirFS(site))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestMain(m *testing.M) {
	code := m.Run()
	rendertest.RemoveAll()
	os.Exit(code)
}

// startServer builds the real binary and runs it on a free loopback port
// with site as its static folder; it returns the base URL. The server is
// stopped with SIGINT when the test ends, and must exit cleanly.
func startServer(t *testing.T, site string) string {
	t.Helper()
	base, _ := startServerPID(t, site)
	return base
}

// startServerPID is startServer that also returns the server's process id.
func startServerPID(t *testing.T, site string) (string, int) {
	t.Helper()
	cmd := exec.Command(binary(t), "-addr", "127.0.0.1:0", "-site", site)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urlc := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		urlc <- line
		io.Copy(io.Discard, stdout)
	}()
	var base string
	select {
	case line := <-urlc:
		m := regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
		if m == nil {
			cmd.Process.Kill()
			t.Fatalf("first line %q does not give the URL; stderr %s", line, stderr.String())
		}
		base = m[1]
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("no URL printed in 30s; stderr %s", stderr.String())
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server exit: %v; stderr %s", err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("server did not stop on SIGINT")
		}
	})
	return base, cmd.Process.Pid
}

// TestServesCorpus sends the API corpus to the running local server and
// compares every answer with the in-process one, byte for byte.
func TestServesCorpus(t *testing.T) {
	base := startServer(t, t.TempDir())
	cases, err := apitest.Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(api.Options{})
	client := &http.Client{Timeout: 60 * time.Second}
	for _, c := range cases {
		want, err := apitest.InProcessAt(h, c, corpusDir, api.DefaultMaxBodyBytes, base)
		if err != nil {
			t.Fatal(err)
		}
		req, err := c.NewRequest(corpusDir, base, api.DefaultMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		resp, body := rendertest.Do(t, client, req)
		got := apitest.Response{Status: resp.StatusCode, Header: apitest.Pick(resp.Header), Body: body}
		if d := apitest.Diff(want, got); d != "" {
			t.Errorf("%s: %s", c.Name, d)
		}
	}
}

// decoyHeaders is a _headers file unlike static.Headers: the server must
// apply static.Headers, never read the site's file (Workers reads that
// one, and the generator writes it from the same value).
const decoyHeaders = "/*\n  Content-Security-Policy: default-src *\n  X-Decoy: 1\n"

// writeSite writes a small built site: the three pages, app.wasm and a
// _headers file.
func writeSite(t *testing.T, headers string) string {
	t.Helper()
	site := t.TempDir()
	testfile.Write(t, site, map[string]string{
		"index.html":   "<!doctype html><title>calc</title>",
		"decide.html":  "<!doctype html><title>decide</title>",
		"aa.html":      "<!doctype html><title>aa</title>",
		"web/app.wasm": "\x00asm\x01\x00\x00\x00",
		"_headers":     headers,
	})
	return site
}

// TestServesSite: outside /v1/ the running server answers as Workers does
// (wrangler.toml): /decide is decide.html's bytes, a path that names no
// file gets index.html, and every answer carries static.Headers.
func TestServesSite(t *testing.T) {
	site := writeSite(t, decoyHeaders)
	base := startServer(t, site)
	client := &http.Client{
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	const (
		html  = "text/html; charset=utf-8"
		index = "<!doctype html><title>calc</title>"
	)
	for _, tc := range []struct {
		method, path, ctype, body, location, cache string
		status                                     int
	}{
		{"GET", "/", html, index, "", "no-cache", 200},
		{"GET", "/decide", html, "<!doctype html><title>decide</title>", "", "no-cache", 200},
		{"GET", "/decide?baseline=10/20&candidate=17/20", html, "<!doctype html><title>decide</title>", "", "no-cache", 200},
		{"GET", "/aa", html, "<!doctype html><title>aa</title>", "", "no-cache", 200},
		{"HEAD", "/aa", html, "", "", "no-cache", 200},
		{"GET", "/decide.html?x=1", "", "", "/decide?x=1", "no-cache", 307},
		{"GET", "/no/such/page", html, index, "", "no-cache", 200},
		{"GET", "/_headers", html, index, "", "no-cache", 200},
		{"GET", "/web/app.wasm", "application/wasm", "\x00asm\x01\x00\x00\x00", "", "no-cache", 200},
	} {
		req, _ := http.NewRequest(tc.method, base+tc.path, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.ctype || string(body) != tc.body ||
			resp.Header.Get("Location") != tc.location {
			t.Errorf("%s %s: %d %q %q Location %q, want %d %q %q %q", tc.method, tc.path, resp.StatusCode,
				resp.Header.Get("Content-Type"), body, resp.Header.Get("Location"), tc.status, tc.ctype, tc.body, tc.location)
		}
		if got := resp.Header.Get("Content-Security-Policy"); got != static.CSP {
			t.Errorf("%s %s: CSP %q, want static.CSP", tc.method, tc.path, got)
		}
		if got := resp.Header.Get("X-Decoy"); got != "" {
			t.Errorf("%s %s: the site's own _headers was applied", tc.method, tc.path)
		}
		if got := resp.Header.Get("Cache-Control"); got != tc.cache {
			t.Errorf("%s %s: Cache-Control %q, want %q", tc.method, tc.path, got, tc.cache)
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s: X-Content-Type-Options %q", tc.method, tc.path, got)
		}
	}
	// Other methods: 405 outside the API; the API still answers under /v1/.
	resp, err := client.Post(base+"/decide", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /decide: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	resp, err = client.Get(base + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := "{\n  \"status\": \"ok\",\n  \"api\": \"v1\",\n  \"max_body_bytes\": 33554432,\n  \"limits\": {\n    \"max_body_bytes\": 33554432,"
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || !strings.HasPrefix(string(body), want) {
		t.Errorf("GET /v1/health: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

// TestPlaceholder: with no site built, every page explains how to build it
// and links the API, with status 404.
func TestPlaceholder(t *testing.T) {
	h := handler(t, api.Options{}, t.TempDir())
	for _, p := range []string{"/", "/decide"} {
		r, _ := http.NewRequest("GET", p, nil)
		w := &recorder{header: http.Header{}}
		h.ServeHTTP(w, r)
		if w.code != 404 || !strings.Contains(w.body.String(), "make site") || !strings.Contains(w.body.String(), "/v1/openapi.json") {
			t.Errorf("placeholder %s: %d %q", p, w.code, w.body.String())
		}
	}
}

type recorder struct {
	header http.Header
	body   bytes.Buffer
	code   int
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }
func (r *recorder) WriteHeader(c int)           { r.code = c }

// TestRunFlags: bad flags are errors, not a server.
func TestRunFlags(t *testing.T) {
	ctx := context.Background()
	for _, args := range [][]string{{"-max-body", "0"}, {"extra"}, {"-addr", "not an address"}, {"-nope"}} {
		var out, errs bytes.Buffer
		if err := run(ctx, args, &out, &errs); err == nil {
			t.Errorf("run %v: no error", args)
		}
	}
}
