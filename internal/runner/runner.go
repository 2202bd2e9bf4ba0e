package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// Arm says how to run one arm of the experiment.
type Arm struct {
	Name string // ledger.ArmBaseline or ledger.ArmPatched
	// Shell is a command line run with sh -c; Argv is a command and its
	// arguments, run directly. Exactly one of them is set.
	Shell string
	Argv  []string
	// Dir is the working directory; "" is the current one. With Ref it
	// names the git repository (or a directory in it).
	Dir string
	// Ref is a git ref (a branch, tag or commit): the arm then runs in a
	// fresh worktree of it, in the directory that corresponds to Dir.
	Ref string
}

// Config is one start of the trial loop. Start from DefaultConfig.
type Config struct {
	Ledger     string // the ledger file; created when missing, resumed when not
	Arms       []Arm  // the baseline, then the patched arm; the baseline alone for an A/A run
	RunsPerArm int    // runs of each arm the ledger is to hold, >= 1
	Order      string // OrderInterleave or OrderRandom
	Seed       uint64 // of OrderRandom
	// Report is where a run's report is: "" is its standard output, else a
	// file path pattern (filepath.Glob) in which $NAME takes the run's
	// environment ($FLAKEGATE_TMPDIR, $FLAKE_LEDGER); a relative pattern is
	// relative to the arm's directory.
	Report     string
	Format     string        // the reports' format (report.FormatGoTest, ...); "" detects it
	RunTimeout time.Duration // a run that takes longer is killed and recorded as an error; 0: no limit
	MaxTrials  int64         // trials the ledger may hold, earlier starts included; 0: no cap
	MaxTime    time.Duration // wall time of this start; 0: no cap
	Keep       string        // a directory to keep each run's outputs in (Keep/b1/stdout, ...); "" removes them
	TempDir    string        // where the runs' temporary directories go; "" is the system's
	Env        []string      // the runs' base environment; nil is flakegate's own
	// CostSeconds is a given wall time per run, for the plan; nil plans
	// with the mean of the ledger's runs, when it has any.
	CostSeconds *float64
	Sizing      SizingOptions // what the plan sizes N against
	// Sequential stops the start once every test's answer is known, by the
	// sequential test planned from Sizing (SizingOptions.SeqPlan), looked
	// at after every pair; false makes every planned run (fixed N).
	Sequential bool
	Observer   Observer // progress; nil reports nothing
}

// DefaultConfig is 20 runs per arm, interleaved, into flakegate.jsonl.
var DefaultConfig = Config{Ledger: "flakegate.jsonl", RunsPerArm: 20, Order: OrderInterleave, Sizing: DefaultSizing}

// Reasons a start stopped before its plan was done.
const (
	StopTrials    = "trial-budget" // the next run would take the ledger past MaxTrials
	StopTime      = "time-budget"  // MaxTime was reached, or the next run would pass it
	StopInterrupt = "interrupted"  // the context ended (Ctrl-C, SIGTERM)
	// StopCannotStart: an arm's command cannot start (not found, not
	// executable: exit 127 or 126 from the shell); every later run of it
	// would fail alike, so the start stops after the first.
	StopCannotStart = "cannot-start"
)

// Status is the progress of a start, as an Observer sees it.
type Status struct {
	Arms    []ArmStatus
	Total   int           // runs this start plans to run
	Ran     int           // runs this start has finished, done or error
	Elapsed time.Duration // since the start began
	// Left estimates the time the remaining runs take: the mean time per
	// run so far, else the plan's cost; < 0 when not known.
	Left time.Duration
}

// ArmStatus is one arm's runs and trials so far, the ledger's earlier
// starts included.
type ArmStatus struct {
	Name    string
	Runs    int   // runs with trials
	Planned int   // RunsPerArm
	Trials  int64 // trials of its runs
	Passed  int64 // of Trials
	Errors  int   // runs of this start that ended in an error
}

// Observer is told how a start goes; every call comes from the goroutine
// that called Run.
type Observer interface {
	Begin(p *Plan, s Status)
	Started(slot Slot, s Status)
	Finished(rec *Record, s Status)
	Warn(msg string)
}

// Outcome is what a start did.
type Outcome struct {
	Plan    *Plan
	Records []Record // this start's run records, in the order run
	Stop    string   // "" when the plan was done, else StopTrials, StopTime or StopInterrupt
	// StopReason says in a sentence why the start stopped early.
	StopReason string
	// Sequential is the sequential test's answer when Config.Sequential:
	// Done when the start stopped because every test's answer was known.
	Sequential *SeqResult
	Elapsed    time.Duration
	Warnings   []string
}

// armRun is an arm ready to run.
type armRun struct {
	Arm
	dir     string // absolute working directory
	command string // as shown and recorded
	commit  string // of the worktree, with Ref
}

type runner struct {
	cfg    Config
	arms   map[string]*armRun
	rows   []trialRow
	obs    Observer
	warns  []string
	remove []func()
}

func (r *runner) warn(msg string) {
	r.warns = append(r.warns, msg)
	r.obs.Warn(msg)
}

type nopObserver struct{}

func (nopObserver) Begin(*Plan, Status)      {}
func (nopObserver) Started(Slot, Status)     {}
func (nopObserver) Finished(*Record, Status) {}
func (nopObserver) Warn(string)              {}

// check reports the first setting that cannot work.
func (cfg *Config) check() error {
	switch {
	case cfg.Ledger == "":
		return errors.New("name a ledger file")
	case len(cfg.Arms) == 0 || len(cfg.Arms) > 2:
		return errors.New("give a baseline command, and a patched one unless the run is an A/A run")
	case cfg.Arms[0].Name != ledger.ArmBaseline || len(cfg.Arms) == 2 && cfg.Arms[1].Name != ledger.ArmPatched:
		return errors.New("the arms are baseline and then patched")
	case cfg.RunsPerArm < 1:
		return fmt.Errorf("runs per arm must be at least 1, got %d", cfg.RunsPerArm)
	case cfg.MaxTrials < 0 || cfg.MaxTime < 0 || cfg.RunTimeout < 0:
		return errors.New("budgets and timeouts must not be negative")
	case cfg.CostSeconds != nil && !(*cfg.CostSeconds >= 0):
		return fmt.Errorf("the cost per run must be a number of seconds >= 0, got %v", *cfg.CostSeconds)
	}
	if cfg.Order != OrderInterleave && cfg.Order != OrderRandom {
		return fmt.Errorf("order must be %s or %s, got %q", OrderInterleave, OrderRandom, cfg.Order)
	}
	if cfg.Report != "" {
		if _, err := filepath.Match(cfg.Report, ""); err != nil {
			return fmt.Errorf("report pattern %q: %w", cfg.Report, err)
		}
	}
	if cfg.Format != report.FormatAuto && cfg.Format != "auto" && !slices.Contains(report.Formats, cfg.Format) {
		return fmt.Errorf("format must be one of %s (or empty to detect), got %q", strings.Join(report.Formats, ", "), cfg.Format)
	}
	for _, a := range cfg.Arms {
		if (a.Shell == "") == (len(a.Argv) == 0) {
			return fmt.Errorf("the %s arm needs a command", a.Name)
		}
	}
	return cfg.Sizing.check()
}

// prepare resolves the arms: directories, worktrees of refs, commits. With
// worktrees false a ref's commit is looked up but no worktree is made.
func (r *runner) prepare(ctx context.Context, worktrees bool) error {
	// The runs start in other directories: their TMPDIR must not be relative.
	for _, p := range []*string{&r.cfg.Keep, &r.cfg.TempDir} {
		if *p != "" {
			abs, err := filepath.Abs(*p)
			if err != nil {
				return err
			}
			*p = abs
		}
	}
	r.arms = map[string]*armRun{}
	for _, a := range r.cfg.Arms {
		ar := &armRun{Arm: a, command: a.Shell}
		if a.Shell == "" {
			ar.command = shellJoin(a.Argv)
		}
		dir := a.Dir
		if dir == "" {
			dir = "."
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return fmt.Errorf("the %s arm's directory %s does not exist", a.Name, dir)
		}
		ar.dir = abs
		if a.Ref != "" {
			if ar.commit, err = resolveRef(ctx, abs, a.Ref); err != nil {
				return fmt.Errorf("the %s arm's ref: %w", a.Name, err)
			}
			if worktrees {
				wdir, remove, err := addWorktree(ctx, abs, ar.commit, r.cfg.TempDir, a.Name)
				if err != nil {
					return fmt.Errorf("the %s arm's worktree of %s: %w", a.Name, a.Ref, err)
				}
				r.remove = append(r.remove, remove)
				ar.dir = wdir
			}
		}
		r.arms[a.Name] = ar
	}
	return nil
}

func (r *runner) cleanup() {
	for i := len(r.remove) - 1; i >= 0; i-- {
		r.remove[i]()
	}
	r.remove = nil
}

// Run runs what the ledger is missing of the plan, appending each run as
// it ends. It returns an error only for a fault of the start itself (bad
// settings, an unreadable ledger, a failed write); the command's failures
// are error records, and a budget stop or an interrupt is the Outcome's
// Stop.
func Run(ctx context.Context, cfg Config) (*Outcome, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, obs: cfg.Observer}
	if r.obs == nil {
		r.obs = nopObserver{}
	}
	lf, st, warns, err := openLedger(cfg.Ledger)
	if err != nil {
		return nil, err
	}
	defer lf.close()
	for _, w := range warns {
		r.warn(w)
	}
	if err := r.prepare(ctx, true); err != nil {
		r.cleanup()
		return nil, err
	}
	defer r.cleanup()
	plan, err := r.plan(st)
	if err != nil {
		return nil, err
	}
	r.warns = append(r.warns, plan.Warnings...)
	out := &Outcome{Plan: plan}
	start := time.Now()
	seq := 0
	for _, rec := range st.Records {
		seq = max(seq, rec.Seq)
	}
	arms := map[string]*ArmStatus{}
	status := Status{Total: len(plan.Sequence), Left: -1}
	for _, a := range plan.Arms {
		status.Arms = append(status.Arms, ArmStatus{Name: a.Name, Runs: a.Done, Planned: cfg.RunsPerArm})
	}
	for i := range status.Arms {
		arms[status.Arms[i].Name] = &status.Arms[i]
	}
	largest := map[string]int64{} // the most trials a run of each arm had
	for _, rec := range st.Records {
		if rec.Outcome == OutcomeDone {
			arms[rec.Arm].Trials += rec.Trials
			arms[rec.Arm].Passed += rec.Passed
			largest[rec.Arm] = max(largest[rec.Arm], rec.Trials)
		}
	}
	trials := func() int64 {
		var n int64
		for _, a := range status.Arms {
			n += a.Trials
		}
		return n
	}
	update := func() {
		status.Elapsed = time.Since(start)
		status.Left = -1
		left := status.Total - status.Ran
		switch {
		case status.Ran > 0:
			status.Left = status.Elapsed / time.Duration(status.Ran) * time.Duration(left)
		case plan.CostSeconds != nil:
			status.Left = time.Duration(*plan.CostSeconds * float64(left) * float64(time.Second))
		}
	}
	var deadline time.Time
	runCtx := ctx
	if cfg.MaxTime > 0 {
		deadline = start.Add(cfg.MaxTime)
		var cancel context.CancelFunc
		runCtx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	update()
	r.obs.Begin(plan, status)
	// The plan's caveats (the commands differ from the ledger's, ...) are
	// shown before any new run, while there is time to stop.
	for _, w := range plan.Warnings {
		r.obs.Warn(w)
	}
	stopAt := func(stop, reason string) {
		out.Stop, out.StopReason = stop, reason
	}
	var track *seqTracker
	if cfg.Sequential && len(cfg.Arms) == 2 {
		tw, err := cfg.Sizing.SeqPlan()
		if err != nil {
			return nil, err
		}
		track = newSeqTracker(tw)
		if err := track.addFile(cfg.Ledger); err != nil {
			return nil, err
		}
		out.Sequential = track.result()
	}
	for _, slot := range plan.Sequence {
		if out.Sequential != nil && out.Sequential.Done {
			break
		}
		update()
		if ctx.Err() != nil {
			stopAt(StopInterrupt, "interrupted")
			break
		}
		if cfg.MaxTrials > 0 {
			next := largest[slot.Arm]
			if n := trials(); n >= cfg.MaxTrials || n+next > cfg.MaxTrials {
				stopAt(StopTrials, fmt.Sprintf("the trial budget of %d is reached: the ledger holds %s and a run of the %s arm adds up to %d",
					cfg.MaxTrials, core.Nouns(n, "trial"), slot.Arm, next))
				break
			}
		}
		if cfg.MaxTime > 0 {
			per := time.Duration(-1)
			if status.Ran > 0 {
				per = status.Elapsed / time.Duration(status.Ran)
			} else if plan.CostSeconds != nil {
				per = time.Duration(*plan.CostSeconds * float64(time.Second))
			}
			if now := time.Now(); !now.Before(deadline) || per >= 0 && now.Add(per).After(deadline) {
				stopAt(StopTime, fmt.Sprintf("the time budget of %s is reached: %s elapsed, and a run takes about %s",
					cfg.MaxTime, status.Elapsed.Round(time.Second), per.Round(100*time.Millisecond)))
				break
			}
		}
		r.obs.Started(slot, status)
		rec, rows, err := r.runOne(runCtx, r.arms[slot.Arm], slot, seq+1)
		if errors.Is(err, errStopped) {
			if ctx.Err() != nil {
				stopAt(StopInterrupt, fmt.Sprintf("interrupted during run %s, which is not recorded", slot.ID()))
			} else {
				stopAt(StopTime, fmt.Sprintf("the time budget of %s ran out during run %s, which was stopped and is not recorded",
					cfg.MaxTime, slot.ID()))
			}
			break
		}
		if err != nil {
			return nil, err
		}
		batch := bytes.NewBuffer(rows)
		if err := appendJSON(batch, rec); err != nil {
			return nil, err
		}
		if err := lf.append(batch.Bytes()); err != nil {
			return nil, err
		}
		seq++
		status.Ran++
		a := arms[slot.Arm]
		if rec.Outcome == OutcomeDone {
			a.Runs++
			a.Trials += rec.Trials
			a.Passed += rec.Passed
			largest[slot.Arm] = max(largest[slot.Arm], rec.Trials)
		} else {
			a.Errors++
		}
		out.Records = append(out.Records, *rec)
		if track != nil && rec.Outcome == OutcomeDone {
			if err := track.addRows(rows); err != nil {
				return nil, err
			}
			out.Sequential = track.result()
		}
		update()
		r.obs.Finished(rec, status)
		if rec.CannotStart {
			stopAt(StopCannotStart, fmt.Sprintf("the %s arm's command cannot start (run %s: %s); every run of it would fail alike: fix the command, then start again",
				slot.Arm, rec.Run, rec.Error))
			break
		}
	}
	out.Elapsed = time.Since(start)
	out.Warnings = r.warns
	return out, nil
}

// shellJoin shows argv as a shell would read it back.
func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
