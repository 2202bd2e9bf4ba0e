package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

const corpusDir = "../../functions/api/testdata"

// startServer builds the real binary and runs it on a free loopback port
// with site as its static folder; it returns the base URL. The server is
// stopped with SIGINT when the test ends, and must exit cleanly.
func startServer(t *testing.T, site string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "flakegate-serve")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-site", site)
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
	return base
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
		want, err := apitest.InProcess(h, c, corpusDir, api.DefaultMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		req, err := c.NewRequest(corpusDir, base, api.DefaultMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Errorf("%s: reading: %v", c.Name, err)
			continue
		}
		got := apitest.Response{Status: resp.StatusCode, Header: apitest.Pick(resp.Header), Body: body}
		if d := apitest.Diff(want, got); d != "" {
			t.Errorf("%s: %s", c.Name, d)
		}
	}
}

// TestServesSite: outside /v1/ the static folder is served, and a path that
// names no file gets index.html, as on Workers.
func TestServesSite(t *testing.T) {
	site := t.TempDir()
	os.MkdirAll(filepath.Join(site, "web"), 0o755)
	os.WriteFile(filepath.Join(site, "index.html"), []byte("<!doctype html><title>calc</title>"), 0o644)
	os.WriteFile(filepath.Join(site, "web", "app.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644)
	base := startServer(t, site)
	for _, tc := range []struct {
		path, ctype, body string
		status            int
	}{
		{"/", "text/html; charset=utf-8", "<!doctype html><title>calc</title>", 200},
		{"/decide?baseline=10/20", "text/html; charset=utf-8", "<!doctype html><title>calc</title>", 200},
		{"/web/app.wasm", "application/wasm", "\x00asm\x01\x00\x00\x00", 200},
		{"/v1/health", "application/json", "{\n  \"status\": \"ok\",\n  \"api\": \"v1\",\n  \"max_body_bytes\": 33554432\n}\n", 200},
	} {
		resp, err := http.Get(base + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.ctype || string(body) != tc.body {
			t.Errorf("GET %s: %d %q %q, want %d %q %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), body,
				tc.status, tc.ctype, tc.body)
		}
	}
}

// TestPlaceholder: with no site built, the root explains how to build it
// and links the API.
func TestPlaceholder(t *testing.T) {
	h := newMux(api.Options{}, os.DirFS(t.TempDir()))
	r, _ := http.NewRequest("GET", "/", nil)
	w := &recorder{header: http.Header{}}
	h.ServeHTTP(w, r)
	if !strings.Contains(w.body.String(), "make site") || !strings.Contains(w.body.String(), "/v1/openapi.json") {
		t.Errorf("placeholder: %q", w.body.String())
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
