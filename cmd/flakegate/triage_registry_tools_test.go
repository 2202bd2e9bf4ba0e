//go:build integration

package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/triage"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestTriageRegistryDiffApplies applies the golden registry diff
// (testdata/triage/registry.diff.golden) to the registry it was made
// from with the real tools, GNU patch (patch -p1) and git apply, and each
// gives the bytes triage -write writes; a diff that creates the registry
// (none existed) applies with both as well. The tools are needed: the
// integration tag runs this where they are installed.
func TestTriageRegistryDiffApplies(t *testing.T) {
	diff := testfile.Read(t, "testdata/triage/registry.diff.golden")
	before := testfile.Read(t, "testdata/triage/quarantine.json")
	_, want := writeKept(t, before, exitOK)
	applyWith(t, "testdata/triage/quarantine.json", before, diff, want)

	// No registry yet: the diff creates it (and the run blocks, its new
	// failure quarantined by no registry).
	missing := "testdata/triage/no-registry-here.json"
	code, created, errs := cli(t, "", registryArgs(missing, "-diff")...)
	if code != exitBlock || !bytes.Contains([]byte(created), []byte("--- /dev/null\n")) {
		t.Fatalf("a new registry: exit %d; %s\n%s", code, errs, created)
	}
	_, want = writeKept(t, nil, exitBlock)
	applyWith(t, missing, nil, []byte(created), want)
}

// applyWith applies diff to the file path holding before (nil: no file)
// with patch -p1 and with git apply, each in a fresh folder, and checks
// the file is then want.
func applyWith(t *testing.T, path string, before, diff, want []byte) {
	t.Helper()
	for _, tool := range [][]string{{"patch", "-p1", "--forward", "--batch"}, {"git", "apply", "--whitespace=error-all"}} {
		dir := t.TempDir()
		if tool[0] == "git" {
			runTool(t, dir, nil, "git", "init", "--quiet")
		}
		file := filepath.Join(dir, filepath.FromSlash(path))
		if before != nil {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, before, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		runTool(t, dir, diff, tool...)
		got, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v", tool[0], err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s applied the diff to %s and got:\n%s\nwant:\n%s", tool[0], path, got, want)
		}
	}
}

// runTool runs a command in dir with stdin and fails the test on an error.
func runTool(t *testing.T, dir string, stdin []byte, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v in %s: %v\n%s", args, dir, err, out)
	}
}

// TestUnifiedDiffAppliesWithTools: 60 seeded random edits of files of
// many equal lines (some without their last newline), each diff by
// triage.UnifiedDiff applied with patch -p1 and git apply, give the file
// after.
func TestUnifiedDiffAppliesWithTools(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 60 {
		var a, b strings.Builder
		for range rng.IntN(80) {
			l := "x" + strconv.Itoa(rng.IntN(5)) + "\n"
			a.WriteString(l)
			switch rng.IntN(6) {
			case 0:
			case 1:
				b.WriteString("y\n")
			case 2:
				b.WriteString(l + "z\n")
			default:
				b.WriteString(l)
			}
		}
		before, after := a.String(), b.String()+"end\n"
		if i%3 == 0 {
			after = strings.TrimSuffix(after, "\n")
		}
		if i%4 == 0 && before != "" {
			before = strings.TrimSuffix(before, "\n")
		}
		diff := triage.UnifiedDiff("dir/f.json", []byte(before), []byte(after), true)
		applyWith(t, "dir/f.json", []byte(before), []byte(diff), []byte(after))
	}
}
