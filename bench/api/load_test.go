//go:build integration

package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoad runs the load check for a short while (the 30 s run is
// `make bench-api`): zero failed requests and flat memory, both routes.
func TestLoad(t *testing.T) {
	// wrk first, before anything is built: a missing tool is a failure.
	if _, err := exec.LookPath("wrk"); err != nil {
		t.Fatal("wrk is not installed: run `make wrk` (apt package wrk)")
	}
	bin := filepath.Join(t.TempDir(), "flakegate-serve")
	build := exec.Command("go", "build", "-o", bin, "../../cmd/flakegate-serve")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-server", bin, "-duration", "3s", "-connections", "8"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(strings.TrimSpace(out.String()))
	if strings.Count(out.String(), "req/s") != 2 {
		t.Errorf("want two routes measured:\n%s", out.String())
	}
}
