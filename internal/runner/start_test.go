package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/ledger"
)

// passing is a go test -json run of one passing test, as go test writes it.
const passing = `printf '%s\n' '{"Action":"run","Package":"p","Test":"TestA"}' '{"Action":"pass","Package":"p","Test":"TestA"}'`

// TestRunCannotStart: an arm whose command cannot start fails every run
// alike, so the start stops after the first such run instead of running
// all N runs of both arms. The shell says 127 for a command it does not
// find and 126 for a file it cannot execute (POSIX, "Command Search and
// Execution"); a program that is not there does not start at all.
func TestRunCannotStart(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tests.sh"), []byte("echo hi\n"), 0o644); err != nil { // not executable
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		shell string
		argv  []string
		want  string
	}{
		{"not found", "flakegate-no-such-command -json ./...", nil, "the command was not found (the shell's exit status 127)"},
		{"not executable", "./tests.sh", nil, "the command cannot be executed (the shell's exit status 126)"},
		{"no such program", "", []string{"/nonexistent/flakegate-test-cmd"}, "the command could not start: /nonexistent/flakegate-test-cmd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig
			cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
			cfg.RunsPerArm = 5
			cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: passing, Dir: dir}, {Name: ledger.ArmPatched, Shell: tc.shell, Argv: tc.argv, Dir: dir}}
			out, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if out.Stop != StopCannotStart || len(out.Records) != 2 || !out.Records[1].CannotStart {
				t.Fatalf("stop %q after %d runs, want %q after b1 and p1", out.Stop, len(out.Records), StopCannotStart)
			}
			if !strings.Contains(out.Records[1].Error, tc.want) || !strings.Contains(out.StopReason, "the patched arm's command cannot start (run p1") {
				t.Errorf("error %q, stop reason %q; want %q", out.Records[1].Error, out.StopReason, tc.want)
			}
		})
	}
	// A command that runs and fails (status 1, no report) is not a
	// command that cannot start: every run is made.
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
	cfg.RunsPerArm = 2
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: passing}, {Name: ledger.ArmPatched, Shell: "exit 1"}}
	out, err := Run(context.Background(), cfg)
	if err != nil || out.Stop != "" || len(out.Records) != 4 {
		t.Errorf("a failing command: stop %q after %d runs (%v)", out.Stop, len(out.Records), err)
	}
}

// TestRunGoTestCause: a mistyped go test flag is reported in go test's own
// words, not as a package that failed before its tests with raw events.
// The stream is real: go test -json -count=1 -cont=1 on a module made here.
func TestRunGoTestCause(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":    "module example.com/p\n\ngo 1.26\n",
		"a_test.go": "package p\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
	cfg.RunsPerArm = 1
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: "GOWORK=off GOFLAGS= go test -json -count=1 -cont=1 .", Dir: dir}, {Name: ledger.ArmPatched, Shell: passing}}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := out.Records[0]
	want := `go test said "flag provided but not defined: -cont" (the command exited with status 1)`
	if rec.Outcome != OutcomeError || !strings.HasPrefix(rec.Error, want) || strings.Contains(rec.Error, `"Action"`) {
		t.Errorf("error %q\nwant it to start %q, without raw events", rec.Error, want)
	}
}

// events is an Observer that keeps the order of what it is told.
type events []string

func (e *events) Begin(*Plan, Status)            { *e = append(*e, "begin") }
func (e *events) Started(s Slot, _ Status)       { *e = append(*e, "start "+s.ID()) }
func (e *events) Finished(rec *Record, _ Status) { *e = append(*e, "end "+rec.Run) }
func (e *events) Warn(msg string)                { *e = append(*e, "warn "+msg) }

// TestRunWarnsBeforeRuns: resumed with another command, the warning that
// the arm's trials mix two commands comes before any new run, while there
// is time to stop.
func TestRunWarnsBeforeRuns(t *testing.T) {
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
	cfg.RunsPerArm = 1
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: passing}, {Name: ledger.ArmPatched, Shell: passing}}
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.RunsPerArm = 2
	cfg.Arms[1].Shell = passing + " # another command"
	var ev events
	cfg.Observer = &ev
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	warned, started := -1, -1
	for i, e := range ev {
		if warned < 0 && strings.HasPrefix(e, "warn ") && strings.Contains(e, "mix two commands") {
			warned = i
		}
		if started < 0 && strings.HasPrefix(e, "start ") {
			started = i
		}
	}
	if warned < 0 || started < 0 || warned > started {
		t.Errorf("events %q: want the commands' warning before the first run", ev)
	}
}
