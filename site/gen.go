//go:build !wasm

package main

import (
	"flag"
	"fmt"
	"os"
)

func generate() {
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
