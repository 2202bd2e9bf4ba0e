package runner

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
)

// Plan is what a start will do: the runs still missing from the ledger, in
// order, what they cost, and whether N runs per arm can answer the
// question (size the run before you start it: docs/STATISTICS.md,
// Trials per arm to separate two rates).
type Plan struct {
	Ledger     string    `json:"ledger"`
	Arms       []PlanArm `json:"arms"`
	RunsPerArm int       `json:"runs_per_arm"`
	Order      string    `json:"order"` // interleave or random
	Seed       uint64    `json:"seed"`
	// Sequence is the ids of the runs to go, in the order they run.
	Sequence          []Slot   `json:"-"`
	SequenceIDs       []string `json:"sequence"`
	MaxTrials         int64    `json:"max_trials"`          // 0: no cap
	MaxSeconds        float64  `json:"max_seconds"`         // 0: no cap
	RunTimeoutSeconds float64  `json:"run_timeout_seconds"` // 0: no limit
	// CostSeconds is the wall time of one run: given, the mean of the
	// ledger's runs, or measured; null when not known.
	CostSeconds *float64 `json:"cost_seconds"`
	CostSource  string   `json:"cost_source"` // "given", "ledger", "measured" or "" (not known)
	// Seconds is the time the runs to go take at CostSeconds; null when
	// the cost is not known.
	Seconds *float64 `json:"seconds"`
	// TrialsPerRun is the mean number of trials (tests) of a run in the
	// ledger, or of the measured runs; null before any.
	TrialsPerRun *float64 `json:"trials_per_run"`
	// Trials is the trials the runs to go add at TrialsPerRun; null when
	// not known.
	Trials *float64 `json:"trials"`
	Sizing *Sizing  `json:"sizing"`
	// Sequential is the cost of stopping once every answer is known, for
	// the first pair of rates the sizing tells apart: the expected runs per
	// arm at those rates and at equal arms, and the worst case, N; null
	// with -fixed (every planned run is made).
	Sequential *gate.SeqPlan `json:"sequential"`
	Warnings   []string      `json:"warnings"`
}

// PlanArm is one arm of a plan.
type PlanArm struct {
	Name    string `json:"name"`    // baseline or patched
	Command string `json:"command"` // as run: a shell command line, or argv quoted for a shell
	Dir     string `json:"dir"`     // the working directory as given ("" is the current one)
	Ref     string `json:"ref,omitempty"`
	Commit  string `json:"commit,omitempty"` // the commit Ref names now
	Done    int    `json:"done"`             // runs with trials already in the ledger, >= 0
	ToRun   int    `json:"to_run"`           // runs this start adds, >= 0
}

// SizingOptions say what the plan sizes N against.
type SizingOptions struct {
	// Pairs are pass rates the user wants told apart, baseline and patched,
	// each in [0,1].
	Pairs [][2]float64
	// Rates are per-run failure rates of a flake, each in (0,1], that N
	// runs should catch.
	Rates      []float64
	Target     float64 // detection power wanted, in (0,1)
	MinTrials  int64   // the verdict's fewest trials per arm, >= 0 (0: no minimum, as for the A/A check)
	Confidence float64 // of the Wilson intervals, in (0,1)
}

// DefaultSizing has the sizing pairs (0.50 against 0.85, 0.90
// against 0.95), the budget's flake rates (5%, 2%, 1%), 95% power, 20 trials
// per arm and 95% intervals.
var DefaultSizing = SizingOptions{
	Pairs:      [][2]float64{{0.50, 0.85}, {0.90, 0.95}},
	Rates:      []float64{0.05, 0.02, 0.01},
	Target:     0.95,
	MinTrials:  20,
	Confidence: core.DefaultConfidence,
}

func (o SizingOptions) check() error {
	for _, p := range o.Pairs {
		for _, v := range p {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("pass rates to separate must be in [0,1], got %v", v)
			}
		}
	}
	for _, p := range o.Rates {
		if !(p > 0 && p <= 1) {
			return fmt.Errorf("flake rates must be in (0,1], got %v", p)
		}
	}
	if !(o.Target > 0 && o.Target < 1) {
		return fmt.Errorf("the target detection power must be in (0,1), got %v", o.Target)
	}
	if o.MinTrials < 0 {
		return fmt.Errorf("the fewest trials per arm must not be negative, got %d", o.MinTrials)
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return fmt.Errorf("the confidence must be in (0,1), got %v", o.Confidence)
	}
	return nil
}

// Sizing says whether N runs per arm (N trials of each test per arm) can
// answer the questions the user cares about.
type Sizing struct {
	TrialsPerArm int64        `json:"trials_per_arm"` // N: each run is one trial of each test
	MinTrials    int64        `json:"min_trials"`     // the verdict's fewest trials per arm
	Confidence   float64      `json:"confidence"`
	Separations  []Separation `json:"separations"`
	Target       float64      `json:"target"` // detection power wanted
	Detection    []Detection  `json:"detection"`
	// SmallestRate is the smallest per-run failure rate that N runs of an
	// arm catch (show at least once) with the target power: 1-(1-target)^(1/N).
	SmallestRate float64 `json:"smallest_rate"`
}

// Separation is whether N trials per arm separate two exact pass rates.
type Separation struct {
	Baseline float64 `json:"baseline"` // pass rate in [0,1]
	Patched  float64 `json:"patched"`  // pass rate in [0,1]
	// Needed is the trials per arm at which the Wilson intervals of the two
	// rates, observed exactly, stop overlapping (core.Size); null when not
	// within gate.SizeLimit.
	Needed    *int64 `json:"needed"`
	Separates bool   `json:"separates"` // Needed <= N
}

// Detection is how often N runs catch a flake of a given rate.
type Detection struct {
	Rate  float64 `json:"rate"`  // per-run failure rate in (0,1]
	Power float64 `json:"power"` // of N runs: 1-(1-rate)^N
	// Needed is the runs that reach the target power (core.RerunsFor).
	Needed int64 `json:"needed"`
}

// size computes the Sizing of n runs per arm.
func size(n int, o SizingOptions) (*Sizing, error) {
	s := &Sizing{TrialsPerArm: int64(n), MinTrials: o.MinTrials, Confidence: o.Confidence, Target: o.Target,
		Separations: []Separation{}, Detection: []Detection{}}
	for _, p := range o.Pairs {
		res, err := gate.Size(gate.SizeInput{Baseline: p[0], Patched: p[1], Confidence: o.Confidence})
		if err != nil {
			return nil, err
		}
		sep := Separation{Baseline: p[0], Patched: p[1], Needed: res.TrialsPerArm}
		sep.Separates = sep.Needed != nil && *sep.Needed <= int64(n)
		s.Separations = append(s.Separations, sep)
	}
	for _, p := range o.Rates {
		s.Detection = append(s.Detection, Detection{Rate: p, Power: gate.Power(p, float64(n)),
			Needed: int64(gate.RerunsFor(p, o.Target))})
	}
	s.SmallestRate = -math.Expm1(math.Log1p(-o.Target) / float64(n))
	return s, nil
}

// plan makes the plan of a start from the settings and the ledger.
func (r *runner) plan(st *State) (*Plan, error) {
	cfg := r.cfg
	names := make([]string, len(cfg.Arms))
	for i, a := range cfg.Arms {
		names[i] = a.Name
	}
	order, err := Order(names, cfg.RunsPerArm, cfg.Order, cfg.Seed)
	if err != nil {
		return nil, err
	}
	done := st.done()
	p := &Plan{Ledger: cfg.Ledger, RunsPerArm: cfg.RunsPerArm, Order: cfg.Order, Seed: cfg.Seed,
		Sequence: []Slot{}, SequenceIDs: []string{}, MaxTrials: cfg.MaxTrials, MaxSeconds: cfg.MaxTime.Seconds(),
		RunTimeoutSeconds: cfg.RunTimeout.Seconds(), Warnings: []string{}}
	for _, s := range order {
		if !done[s.Arm][s.ID()] {
			p.Sequence = append(p.Sequence, s)
			p.SequenceIDs = append(p.SequenceIDs, s.ID())
		}
	}
	last := map[string]Record{}
	var seconds float64
	var runs, trials int64
	for _, rec := range st.Records {
		last[rec.Arm] = rec
		if rec.Outcome == OutcomeDone {
			seconds += rec.Seconds
			trials += rec.Trials
			runs++
		}
	}
	for _, a := range cfg.Arms {
		ar := r.arms[a.Name]
		pa := PlanArm{Name: a.Name, Command: ar.command, Dir: a.Dir, Ref: a.Ref, Commit: ar.commit, Done: len(done[a.Name])}
		for _, s := range p.Sequence {
			if s.Arm == a.Name {
				pa.ToRun++
			}
		}
		p.Arms = append(p.Arms, pa)
		if prev, ok := last[a.Name]; ok {
			if prev.Command != pa.Command {
				p.Warnings = append(p.Warnings, fmt.Sprintf("the ledger's last %s run ran %q and this start runs %q: the arm's trials mix two commands",
					a.Name, prev.Command, pa.Command))
			}
			if prev.Commit != "" && pa.Commit != "" && prev.Commit != pa.Commit {
				p.Warnings = append(p.Warnings, fmt.Sprintf("the ledger's last %s run ran at commit %.12s and %s is now %.12s: the arm's trials mix two commits",
					a.Name, prev.Commit, a.Ref, pa.Commit))
			}
		}
	}
	p.Warnings = append(p.Warnings, goTestWarnings(p.Arms, cfg.Report)...)
	if len(cfg.Arms) == 1 && len(st.Records) > 0 {
		for _, rec := range st.Records {
			if rec.Arm == ledger.ArmPatched {
				p.Warnings = append(p.Warnings, "the ledger has patched runs, and this start runs the baseline alone")
				break
			}
		}
	}
	switch {
	case cfg.CostSeconds != nil:
		p.CostSeconds, p.CostSource = cfg.CostSeconds, "given"
	case runs > 0:
		c := seconds / float64(runs)
		p.CostSeconds, p.CostSource = &c, "ledger"
	}
	if runs > 0 {
		t := float64(trials) / float64(runs)
		p.TrialsPerRun = &t
	}
	p.fill()
	if p.Sizing, err = size(cfg.RunsPerArm, cfg.Sizing); err != nil {
		return nil, err
	}
	if cfg.Sequential && len(cfg.Arms) == 2 {
		if p.Sequential, err = seqPlan(cfg.RunsPerArm, cfg.Sizing); err != nil {
			return nil, err
		}
	}
	if int64(cfg.RunsPerArm) < cfg.Sizing.MinTrials {
		give := "give"
		if cfg.RunsPerArm == 1 {
			give = "gives"
		}
		p.Warnings = append(p.Warnings, fmt.Sprintf("%s per arm %s each test %s per arm, fewer than the verdict's minimum of %d: every test will be underpowered",
			core.Nouns(cfg.RunsPerArm, "run"), give, core.Nouns(cfg.RunsPerArm, "trial"), cfg.Sizing.MinTrials))
	}
	return p, nil
}

// fill derives the plan's time and trials from its cost and trials per run.
func (p *Plan) fill() {
	n := float64(len(p.Sequence))
	p.Seconds, p.Trials = nil, nil
	if p.CostSeconds != nil {
		s := *p.CostSeconds * n
		p.Seconds = &s
	}
	if p.TrialsPerRun != nil {
		t := *p.TrialsPerRun * n
		p.Trials = &t
	}
}

// DryRun returns the plan of a start without running it or touching the
// ledger. With measure, it first times one run of each arm (not recorded:
// their ids are b0 and p0) and plans with their mean cost.
func DryRun(ctx context.Context, cfg Config, measure bool) (*Plan, []Record, error) {
	if err := cfg.check(); err != nil {
		return nil, nil, err
	}
	st, err := ReadState(cfg.Ledger)
	if err != nil {
		return nil, nil, err
	}
	r := &runner{cfg: cfg, obs: nopObserver{}}
	if err := r.prepare(ctx, measure); err != nil {
		r.cleanup()
		return nil, nil, err
	}
	defer r.cleanup()
	p, err := r.plan(st)
	if err != nil {
		return nil, nil, err
	}
	if !measure {
		return p, nil, nil
	}
	r.cfg.Keep = ""
	var recs []Record
	var seconds float64
	var trials int64
	done := 0
	for _, a := range cfg.Arms {
		rec, _, err := r.runOne(ctx, r.arms[a.Name], Slot{Arm: a.Name}, 0)
		if errors.Is(err, errStopped) {
			return nil, nil, errors.New("interrupted while measuring")
		}
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, *rec)
		seconds += rec.Seconds
		if rec.Outcome == OutcomeDone {
			trials += rec.Trials
			done++
		} else {
			p.Warnings = append(p.Warnings, fmt.Sprintf("the measuring run of the %s arm failed: %s", a.Name, rec.Error))
		}
	}
	c := seconds / float64(len(recs))
	p.CostSeconds, p.CostSource = &c, "measured"
	if done > 0 {
		t := float64(trials) / float64(done)
		p.TrialsPerRun = &t
	}
	p.fill()
	return p, recs, nil
}
