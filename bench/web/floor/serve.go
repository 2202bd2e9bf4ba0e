//go:build !wasm

package floor

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/flakegate/flakegate/internal/static"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Build compiles the browser side, the main package pkg ("./bench/web/floor/app"
// or "./bench/web/floor/linked"), into dir/web/app.wasm with the flags the
// calculator's app.wasm is built with, and returns its size in bytes.
func Build(root, dir, pkg string) (int64, error) {
	out := filepath.Join(dir, "web", "app.wasm")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return 0, err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-tags", "calculator", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building %s: %v\n%s", pkg, err, b)
	}
	st, err := os.Stat(out)
	if err != nil {
		return 0, err
	}
	// The brotli and gzip copies the calculator's app.wasm has too.
	if _, err := static.Precompress(dir); err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// Handler serves the page, pre-rendered by go-app's own handler, and
// /web/ (app.wasm and its compressed copies) from dir through package
// static, as the calculator's site is served, so both pages' app.wasm
// travel in the same coding.
func Handler(dir string) (http.Handler, error) {
	Register()
	files, err := static.New(os.DirFS(dir), static.Options{})
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/web/", files)
	mux.Handle("/", &app.Handler{Name: "floor", Version: "1"})
	return mux, nil
}
