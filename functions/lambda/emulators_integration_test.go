//go:build integration

package main

import (
	"path/filepath"
	"testing"

	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/functions/lambda/lambdatest"
)

// TestTwoEmulatorsAtOnce runs two emulators side by side, as two
// checkouts' `make test` on one machine do, and each must answer its own
// invocations. The emulator's Runtime API listens on 127.0.0.1:9001 unless
// told otherwise; with both on that default, the second function reached
// the first emulator and every invocation of the second was refused (a
// whole Lambda package of failures, seen in a suite run beside another).
func TestTwoEmulatorsAtOnce(t *testing.T) {
	dir := t.TempDir()
	first, err := lambdatest.Start(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Stop()
	second, err := lambdatest.StartBinary(root, filepath.Join(dir, "bootstrap")) // the one Start built
	if err != nil {
		t.Fatal(err)
	}
	defer second.Stop()
	health := apitest.Case{Name: "health", Method: "GET", URL: "/v1/health"}
	for i := range 3 { // in turn, each more than once
		for name, e := range map[string]*lambdatest.Emulator{"first": first, "second": second} {
			if got := invoke(t, name, e.URL, event(t, health, false)); got.Status != 200 {
				t.Fatalf("%s emulator, invocation %d: status %d %s\nits log:\n%s", name, i+1, got.Status, got.Body, e.Logs.String())
			}
		}
	}
}
