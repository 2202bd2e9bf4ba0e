// Command site is flakegate's static-site generator: it pre-renders every
// page of the calculator (wasm/page) with go-app's app.Handler and writes the
// folder Workers serves as assets, and the local server serves beside the
// API. The browser program itself is ./wasm, built first:
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o app.wasm ./wasm
//	go run ./site -out dist/site -wasm app.wasm -version "$(git rev-parse --short HEAD)"
//
// Build both with the same Go: the generator copies wasm_exec.js from its
// own toolchain.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "site:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("site", flag.ContinueOnError)
	out := fs.String("out", "dist/site", "folder to write the static site into")
	wasmPath := fs.String("wasm", "", "the built app.wasm to copy into <out>/web (required)")
	version := fs.String("version", "", "build version (git commit) for Handler.Version (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *wasmPath == "" || *version == "" {
		return fmt.Errorf("-wasm and -version are required")
	}
	return Generate(Options{Out: *out, Wasm: *wasmPath, Version: *version})
}
