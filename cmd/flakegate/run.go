package main

import (
	"flag"
	"fmt"
	"io"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/runner"
)

// Exit statuses of flakegate run beside the gate's.
const (
	exitBudget    = 3   // a trial or time budget stopped the runs
	exitInterrupt = 130 // Ctrl-C or SIGTERM stopped the runs
)

// statusError ends a command with an exit status of its own; what it had
// to say is already printed.
type statusError struct{ code int }

func (s *statusError) Error() string { return "exit status " + strconv.Itoa(s.code) }

const runSynopsis = `[flags] [-- command [args ...]]

Runs a test or eval command N times per arm, each run a fresh process with
its own temporary directory, the arms interleaved, every run appended to a
ledger file as it ends; then gates on the ledger as "flakegate ledger" (or
"flakegate aa") does. Started again with the same ledger, it runs only what
is missing.

  flakegate run -n 30 -baseline-ref main -- go test -json -count=1 ./...
  flakegate run -n 30 -baseline 'cd ../base && go test -json -count=1 ./...' -patched 'go test -json -count=1 ./...'
  flakegate run -n 10 -report '$FLAKEGATE_TMPDIR/junit.xml' -baseline 'pytest --junitxml=$FLAKEGATE_TMPDIR/junit.xml' -patched '...'
  flakegate run -dry-run -cost 40s -n 60 -baseline-ref main -- go test -json -count=1 ./...

Each run sees FLAKEGATE_ARM (baseline or patched), FLAKEGATE_RUN (b1, p1,
...), FLAKEGATE_TMPDIR and TMPDIR (its own directory), and the names a pytest
plugin of the JSONL ledger format reads: FLAKE_ARM, FLAKE_RUN and FLAKE_LEDGER.

exit status: 0 the gate passes, 1 it blocks, 2 usage or input error (an arm's
command cannot start, or every run of an arm failed), 3 a trial or time
budget stopped the runs, 130 interrupted`

func runRun(e *env, args []string) (bool, error) {
	cfg := runner.DefaultConfig
	fs := newFlags(e, "run", runSynopsis)
	baseline := onceFlag(fs, "baseline", "the baseline arm's command `line`, run with sh -c")
	patched := onceFlag(fs, "patched", "the patched arm's command `line`, run with sh -c")
	candidate := onceFlag(fs, "candidate", "an eval candidate's command `line`: as -patched, gated by the A/A check (-aa)")
	baseDir := onceFlag(fs, "baseline-dir", "the baseline arm's working `directory` (default: the current one)")
	patchDir := onceFlag(fs, "patched-dir", "the patched arm's working `directory` (default: the current one)")
	baseRef := onceFlag(fs, "baseline-ref", "run the baseline in a fresh git worktree of this `ref` (main, a tag, a commit)")
	patchRef := onceFlag(fs, "patched-ref", "run the patched arm in a fresh git worktree of this `ref` (default: the directory as it is)")
	fs.IntVar(&cfg.RunsPerArm, "n", cfg.RunsPerArm, "runs of each arm the ledger is to hold, each a fresh process")
	fs.StringVar(&cfg.Order, "order", cfg.Order, "order of the runs: interleave (b1 p1 b2 p2 ...) or random (each pair in a seeded random order)")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of -order random")
	fs.StringVar(&cfg.Ledger, "ledger", cfg.Ledger, "the ledger `file`: appended to run by run; an existing one is resumed")
	fs.StringVar(&cfg.Report, "report", "", "each run's report as a file path `pattern` (relative to the arm's directory; $FLAKEGATE_TMPDIR is the run's own) instead of its standard output")
	fs.StringVar(&cfg.Format, "format", "", formatUsage)
	timeout := durationFlag(fs, "timeout", "kill a run that takes longer than this `duration` (90s, 10m) and record it as an error")
	maxTrials := int64(0)
	int64Flag(fs, &maxTrials, "max-trials", "stop before the ledger holds more than this `number` of trials (default $FLAKE_BUDGET, else no cap)")
	maxTime := durationFlag(fs, "max-time", "stop this start after this `duration` (2h, 45m) of wall time")
	fs.StringVar(&cfg.Keep, "keep", "", "keep each run's output and reports in this `directory` (DIR/b1/, ...)")
	progressMode := fs.String("progress", "auto", "progress on standard error: auto (a bar on a terminal, else lines), bar, lines or off")
	dryRun := fs.Bool("dry-run", false, "print the plan and its sizing, run nothing")
	fixed := fs.Bool("fixed", false, "make every planned run (-n per arm) instead of stopping once every test's answer is known")
	measure := fs.Bool("measure", false, "with -dry-run: time one run of each arm (not recorded) for the plan")
	cost := durationFlag(fs, "cost", "the wall time of one run, for the plan and the time estimate")
	separate := &pairList{}
	fs.Var(separate, "separate", "pass rates the run should tell apart, `baseline,patched` (repeatable; default 0.5,0.85 and 0.9,0.95)")
	flakeRates := fs.String("flake-rates", "", "per-run failure `rates` of a flake the plan checks N runs catch (default 0.05,0.02,0.01)")
	opt := runner.GateOptions{Gate: runner.GateLedger, Ledger: ledger.DefaultOptions, AA: aa.DefaultOptions}
	int64Flag(fs, &opt.Ledger.MinTrials, "min-trials", "fewest trials an arm needs for a verdict, a whole `number`")
	fs.Float64Var(&opt.Ledger.Confidence, "confidence", opt.Ledger.Confidence, "confidence of the Wilson intervals")
	fs.StringVar(&opt.Ledger.Property, "property", opt.Ledger.Property, "property check result: passed, failed or unknown")
	aaGate := fs.Bool("aa", false, "gate with the A/A check of an eval suite (each test a scenario, each run a run) instead of per-test verdicts")
	out := outputFlags(fs)
	pos, site, err := begin(e, fs, out, args)
	if err != nil {
		return false, err
	}
	if maxTrials, err = trialBudget(e, maxTrials, flagSet(fs, "max-trials")); err != nil {
		return false, err
	}
	if (out.markdown || out.markdownOut != "") && *dryRun {
		return false, usagef("-markdown summarises the runs' verdict: a -dry-run has none (give -json or neither)")
	}
	if *candidate != "" {
		if *patched != "" {
			return false, usagef("give -patched or -candidate, not both")
		}
		*patched, *aaGate = *candidate, true
	}
	if *aaGate {
		opt.Gate = runner.GateAA
	}
	if cfg.Arms, err = runArms(pos, *baseline, *patched, *baseDir, *patchDir, *baseRef, *patchRef, *aaGate); err != nil {
		return false, err
	}
	cfg.RunTimeout, cfg.MaxTime, cfg.MaxTrials = timeout.d, maxTime.d, maxTrials
	if cost.set {
		c := cost.d.Seconds()
		cfg.CostSeconds = &c
	}
	if cfg.RunsPerArm < 1 {
		return false, usagef("-n: runs per arm must be at least 1, got %d", cfg.RunsPerArm)
	}
	if *measure && !*dryRun {
		return false, usagef("-measure times runs for the plan of a -dry-run")
	}
	if len(separate.pairs) > 0 {
		cfg.Sizing.Pairs = separate.pairs
	}
	if *flakeRates != "" {
		if cfg.Sizing.Rates, err = core.ParseRates("flake-rates", *flakeRates); err != nil {
			return false, err
		}
	}
	cfg.Sizing.MinTrials, cfg.Sizing.Confidence = opt.Ledger.MinTrials, opt.Ledger.Confidence
	if *aaGate {
		cfg.Sizing.MinTrials = 0 // the A/A check has no minimum of trials per arm
	}
	// The sequential stop answers the per-test two-arm question; the A/A
	// check of an eval sizes its own runs.
	cfg.Sequential = !*fixed && !*aaGate && len(cfg.Arms) == 2
	if _, err := gate.Decide(gate.DecideInput{MinTrials: opt.Ledger.MinTrials, Confidence: opt.Ledger.Confidence, Property: opt.Ledger.Property}); err != nil {
		return false, err
	}
	mode, err := progressFor(*progressMode, e)
	if err != nil {
		return false, err
	}
	if *dryRun {
		plan, measured, err := runner.DryRun(e.ctx, cfg, *measure)
		if err != nil {
			return false, err
		}
		return false, writePlan(e, out, plan, measured, *aaGate)
	}
	ctx, stop := signal.NotifyContext(e.ctx, syscall.SIGTERM)
	defer stop()
	prog := newProgress(e.stderr, mode)
	cfg.Observer = prog
	ran, err := runner.Run(ctx, cfg)
	prog.close()
	if err != nil {
		return false, err
	}
	res, ferr := runner.Finish(ran, opt)
	link, err := runLink(res, opt, site)
	if err != nil {
		return false, err
	}
	// The verdict carries its link, as flakegate ledger's (or aa's) does.
	switch {
	case res.Verdict != nil:
		res.Verdict.Link, res.Verdict.LinkNote = link.URL, link.Note
	case res.AA != nil:
		res.AA.Link, res.AA.LinkNote = link.URL, link.Note
	}
	if err := out.print(e, printed{res: res, link: link,
		markdown: func() string { return runMarkdown(res, link) },
		notes:    func() []annotation { return runNotes(res) },
		text:     func(io.Writer) error { return writeRunResult(e, res) }}); err != nil {
		return false, err
	}
	switch {
	case res.Stop == runner.StopInterrupt:
		return false, &statusError{exitInterrupt}
	case res.Stop == runner.StopCannotStart:
		return false, &statusError{exitUsage} // input to fix, not a budget

	case res.Stop != "":
		return false, &statusError{exitBudget}
	case ferr != nil:
		return false, ferr
	}
	for _, a := range ran.Plan.Arms {
		if n := armRuns(res.Runs, a.Name); n == 0 {
			return false, fmt.Errorf("no run of the %s arm has trials: every one failed before it produced a report the gate can use", a.Name)
		}
	}
	return res.Blocks, nil
}

func armRuns(r runner.ArmRuns, arm string) int {
	if arm == ledger.ArmBaseline {
		return r.Baseline
	}
	return r.Patched
}

// runArms makes the arms from the command line: one command (after --) run
// in two places, or a command line per arm.
func runArms(argv []string, baseline, patched, baseDir, patchDir, baseRef, patchRef string, aa bool) ([]runner.Arm, error) {
	if baseDir != "" && baseRef != "" || patchDir != "" && patchRef != "" {
		return nil, usagef("give an arm a directory or a ref, not both")
	}
	base := runner.Arm{Name: ledger.ArmBaseline, Dir: baseDir, Ref: baseRef}
	patch := runner.Arm{Name: ledger.ArmPatched, Dir: patchDir, Ref: patchRef}
	switch {
	case len(argv) > 0 && (baseline != "" || patched != ""):
		return nil, usagef("give one command after the flags, or -baseline and -patched command lines, not both")
	case len(argv) > 0:
		base.Argv, patch.Argv = argv, argv
		if baseDir == "" && baseRef == "" && patchDir == "" && patchRef == "" {
			if aa {
				return []runner.Arm{base}, nil // the A/A check of the suite alone
			}
			return nil, usagef("one command needs two places to run: -baseline-ref main, or -baseline-dir and -patched-dir " +
				"(or -baseline and -patched command lines; -aa alone runs the baseline's A/A check)")
		}
	case baseline == "":
		return nil, usagef("give the command to run: after the flags and --, or as -baseline and -patched command lines")
	case patched == "":
		base.Shell = baseline
		if !aa {
			return nil, usagef("give the patched arm's command line with -patched (or run the baseline's A/A check with -aa)")
		}
		if patchDir != "" || patchRef != "" {
			return nil, usagef("-patched-dir and -patched-ref need a patched arm")
		}
		return []runner.Arm{base}, nil
	default:
		base.Shell, patch.Shell = baseline, patched
	}
	return []runner.Arm{base, patch}, nil
}

// trialBudget is the trial budget: -max-trials when given, else the
// FLAKE_BUDGET environment variable when set, each a whole number of
// trials in decimal, >= 0 (0 for no cap); anything else is refused, never ignored.
func trialBudget(e *env, flagValue int64, given bool) (int64, error) {
	if given {
		if flagValue < 0 {
			return 0, usagef("-max-trials: want a whole number of trials >= 0 (0 for no cap), got %d", flagValue)
		}
		return flagValue, nil
	}
	s := e.getenv("FLAKE_BUDGET")
	if s == "" {
		return 0, nil
	}
	v, err := core.ParseInt(s)
	if err != nil || v < 0 {
		return 0, usagef("FLAKE_BUDGET: want a whole number of trials >= 0 in decimal (0 for no cap), got %q; unset it or give -max-trials", s)
	}
	return v, nil
}

// onceString is a flag that may be given once: a second -baseline would
// silently replace the first.
type onceString struct {
	name, v string
	set     bool
}

func (o *onceString) String() string {
	if o == nil {
		return ""
	}
	return o.v
}

func (o *onceString) Set(s string) error {
	if o.set {
		return fmt.Errorf("given twice (%q and %q): give -%s once", o.v, s, o.name)
	}
	o.v, o.set = s, true
	return nil
}

// onceFlag defines a string flag that may be given once and returns its
// value's address.
func onceFlag(fs *flag.FlagSet, name, usage string) *string {
	o := &onceString{name: name}
	fs.Var(o, name, usage)
	return &o.v
}

// durationValue is a flag holding a wall time: a Go duration (90s, 1h30m) or a
// plain number of seconds.
type durationValue struct {
	d   time.Duration
	set bool
}

func (d *durationValue) String() string {
	if d == nil || !d.set {
		return ""
	}
	return d.d.String()
}

func (d *durationValue) Set(s string) error {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if !(v >= 0 && v <= 1e9) {
			return fmt.Errorf("%q is not a number of seconds >= 0", s)
		}
		d.d, d.set = time.Duration(v*float64(time.Second)), true
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("%q is not a duration such as 90s, 45m or 2h", s)
	}
	d.d, d.set = v, true
	return nil
}

func durationFlag(fs *flag.FlagSet, name, usage string) *durationValue {
	d := &durationValue{}
	fs.Var(d, name, usage)
	return d
}

// pairList is a repeatable flag of two pass rates, "0.5,0.85".
type pairList struct{ pairs [][2]float64 }

func (p *pairList) String() string { return "" }

func (p *pairList) Set(s string) error {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return fmt.Errorf("want two pass rates, baseline,patched, such as 0.5,0.85; got %q", s)
	}
	var pair [2]float64
	for i, v := range []string{a, b} {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(x >= 0 && x <= 1) {
			return fmt.Errorf("pass rates are fractions in [0,1], got %q", v)
		}
		pair[i] = x
	}
	p.pairs = append(p.pairs, pair)
	return nil
}
