package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// goTestJSON is a shell command printing a go test -json stream in which
// p.TestA passes or fails as pass says and p.TestB passes.
func goTestJSON(pass bool) string {
	action := "fail"
	if pass {
		action = "pass"
	}
	return `printf '%s\n' '{"Action":"run","Package":"p","Test":"TestA"}' '{"Action":"` + action +
		`","Package":"p","Test":"TestA"}' '{"Action":"run","Package":"p","Test":"TestB"}' '{"Action":"pass","Package":"p","Test":"TestB"}'`
}

// run stops when every test's answer is known: TestA fails in every
// baseline run and passes in every patched one (improved), TestB passes in
// both (no change as large as the planned 50% against 85%); the start ends
// long before its 200 runs per arm, says why, and the gate passes though
// the fixed verdict would call so few trials underpowered. With -fixed
// every run is made.
func TestRunSequentialStop(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "-n", "200", "-baseline", goTestJSON(false), "-patched", goTestJSON(true), "-progress", "off"}
	code, out, errs := cli(t, "", append(args, "-ledger", filepath.Join(dir, "seq.jsonl"))...)
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	containsAll(t, "the verdict", out, "stopped when the answer was known: every test's answer was known after",
		"1 test improved, 1 test no change as large as planned", "p.TestA improved at pair",
		"each answer is wrong at most 5% of the time however many pairs were looked at")
	if strings.Contains(out, "holds 200 baseline runs") {
		t.Errorf("the sequential start made every run:\n%s", out)
	}
	code, out, errs = cli(t, "", append(args, "-n", "25", "-fixed", "-ledger", filepath.Join(dir, "fixed.jsonl"))...)
	if code != exitOK || !strings.Contains(out, "holds 25 baseline runs and 25 patched runs") || strings.Contains(out, "answer was known") {
		t.Errorf("-fixed: exit %d: %s\n%s", code, errs, out)
	}
}
