// Command flakegate gates merges on flaky tests and noisy evals.
//
//	flakegate budget -target 0.95 -cost 8 -cap 3 -observe 1/120 0.05 0.02
//	flakegate decide -baseline 10/20 -patched 17/20
//	flakegate size 0.50 0.85
//	flakegate ledger flake.jsonl
//	flakegate aa baseline.csv candidate.csv
//	flakegate compare a.eval b.eval
//	flakegate compare gpt-x.eval claude-y.eval llama-z.eval
//	flakegate freeze -claim 57/60 -date 2026-11-30 -newer 41/60
//	flakegate history -manifest runs.csv artifacts/*.zip
//	flakegate triage -history 'artifacts/*.zip' test-results/
//
// Output is an aligned text report, or with -json the JSON contract that the
// API serves. The exit status is 0 when the gate passes or the command only
// informs, 1 when the gate blocks, and 2 for usage or input errors.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/flakegate/flakegate/core/param"
)

// Exit statuses.
const (
	exitOK    = 0
	exitBlock = 1
	exitUsage = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what a subcommand may touch.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string // the environment: FLAKEGATE_SITE
	// runFile is the file each run was read from, keyed by arm, NUL and
	// run: the report an annotation names.
	runFile map[string]string
}

type command struct {
	name    string
	summary string
	run     func(e *env, args []string) (blocks bool, err error)
}

var commands = []command{
	calcCommand("budget", "reruns needed to catch a flake, their cost and the gate lane", "[flags] [rate ...]", param.Budget, runBudget),
	calcCommand("decide", "two-arm verdict from baseline and patched pass counts", "-baseline passed/trials -patched passed/trials [flags]", param.Decide, runDecide),
	calcCommand("size", "trials per arm at which two pass rates separate", "[flags] baseline-rate patched-rate", param.Size, runSize),
	calcCommand("ledger", "per-test verdicts from a trial ledger", "[flags] [report ...]", param.Ledger, runLedger),
	calcCommand("aa", "A/A noise of an eval suite, and a candidate's regression check", "[flags] baseline.csv [candidate.csv] | run-report... [-candidate run-report]...", param.AA, runAA),
	calcCommand("compare", "is model B better than model A on the same eval questions? paired by question; with three or more models, a leaderboard", "[flags] A B | -a log... -b log... | A B C... | -side NAME=FILE...", param.Compare, runCompare),
	calcCommand("freeze", "record a frozen rate claim, or check it against a newer count", "(-claim passed/trials | -record file.json) [-date YYYY-MM-DD] [-newer passed/trials] [flags]", param.Freeze, runFreeze),
	{"run", "run a test command N times per arm, interleaved and resumable, then gate", runRun},
	calcCommand("history", "find the flaky tests in many CI runs' reports; outages kept out", "[flags] report-file|folder|glob|archive.zip ...", param.History, runHistory),
	{"record", "append a CI run's reports to a history store (docs/STORE.md); merge stores", runRecord},
	{"quarantine", "a registry of quarantined tests: add, check, list, renew, remove, rename, runs", runQuarantine},
	calcCommand("triage", "this run's failures against the past runs: known flake, new, broken since a commit, quarantined or an outage", "[flags] -history past-reports... this-run-reports...", param.Triage, runTriage),
}

// usageError is a mistake in the command line; it points at the help of
// the command, or of help ("quarantine check") when set.
type usageError struct{ msg, help string }

func (u *usageError) Error() string { return u.msg }

func usagef(format string, args ...any) error { return &usageError{msg: fmt.Sprintf(format, args...)} }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		printUsage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		blocks, err := c.run(e, args[1:])
		var ue *usageError
		var se *statusError
		switch {
		case errors.Is(err, flag.ErrHelp):
			return exitOK
		case errors.As(err, &se):
			return se.code
		case errors.As(err, &ue):
			help := c.name
			if ue.help != "" {
				help = ue.help
			}
			fmt.Fprintf(stderr, "flakegate %s: %v\nrun 'flakegate %s -h' for usage\n", c.name, err, help)
			return exitUsage
		case err != nil:
			fmt.Fprintf(stderr, "flakegate %s: %v\n", c.name, err)
			return exitUsage
		case blocks:
			return exitBlock
		}
		return exitOK
	}
	fmt.Fprintf(stderr, "flakegate: unknown command %q\n", args[0])
	printUsage(stderr)
	return exitUsage
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: flakegate <command> [flags] [args]\n\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nexit status: 0 the gate passes, 1 the gate blocks, 2 usage or input error, 3 run's budget stop")
	fmt.Fprintln(w, "run 'flakegate <command> -h' for a command's flags")
}

// newFlags returns a flag set that reports errors instead of exiting.
func newFlags(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: flakegate %s %s\n\nflags:\n", name, synopsis)
		fs.SetOutput(e.stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parse parses flags that may come before, between or after positional
// arguments, as people type them, and returns the positional ones. "--"
// ends flag parsing.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	// The flag package prints the usage on -h and on every mistake; parse
	// prints it once, on -h only (a mistake gets its message and a hint).
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, err
			}
			return nil, usagef("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// open opens a named input; "-" is standard input.
func (e *env) open(name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(e.stdin), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, unwrapPathError(err))
	}
	return f, nil
}

// readFile opens the named input ("-" is standard input), reads it with
// read and closes it.
func readFile[T any](e *env, name string, read func(io.Reader) (T, error)) (T, error) {
	f, err := e.open(name)
	if err != nil {
		var none T
		return none, err
	}
	defer f.Close()
	return read(f)
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// displayName is how an input is named in messages.
func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}
