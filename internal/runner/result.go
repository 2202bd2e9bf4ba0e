package runner

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/ledger"
)

// Gates: the verdict a start ends with.
const (
	GateLedger = "ledger" // per-test two-arm verdicts, as flakegate ledger gives them
	GateAA     = "aa"     // the A/A check of an eval suite (each test a scenario), as flakegate aa gives it
)

// GateOptions choose and set the verdict a start ends with.
type GateOptions struct {
	Gate   string         // GateLedger or GateAA
	Ledger ledger.Options // for GateLedger
	AA     aa.Options     // for GateAA
}

// ArmRuns counts the runs with trials of each arm in the ledger.
type ArmRuns struct {
	Baseline int `json:"baseline"` // >= 0
	Patched  int `json:"patched"`  // >= 0
}

// Result is a start's end: what it ran, what the ledger holds, and the
// verdict of the whole ledger.
type Result struct {
	Plan *Plan `json:"plan"`
	// Ran counts the runs this start finished (done or error); Seconds is
	// its wall time.
	Ran     int     `json:"ran"`
	Seconds float64 `json:"seconds"`
	Runs    ArmRuns `json:"runs"` // in the whole ledger
	// Errors are the runs still missing because the command failed (it
	// could not start, wrote no report, or the report could not be read):
	// no trials, not test outcomes; the next start runs them again.
	Errors []Record `json:"errors"`
	// Stop is "" when the plan was done, else why the start stopped early:
	// trial-budget, time-budget or interrupted; StopReason says it in a
	// sentence.
	Stop       string `json:"stop"`
	StopReason string `json:"stop_reason"`
	Gate       string `json:"gate"` // ledger or aa
	// Verdict is the ledger gate's result (flakegate ledger -json), AA the
	// A/A gate's (flakegate aa -json); the other is null, and both are
	// null when the ledger has no trials to judge.
	Verdict *ledger.Result `json:"verdict"`
	AA      *aa.Result     `json:"aa"`
	// Sequential is the sequential test's answer per test when the start
	// stopped as soon as the answers were known (the default of
	// flakegate run; null with -fixed): its answers are the verdicts of
	// the tests they answer, each at its error rate however many pairs were
	// looked at.
	Sequential *SeqResult `json:"sequential"`
	// Blocks is the gate's answer: a test blocks (ledger), or the candidate
	// dropped beyond the noise (aa). With Sequential, an answered test's
	// verdict is its answer (ledger.Options.Answers): a regression blocks,
	// an improvement or no change as large as planned is not underpowered;
	// a test with no answer yet keeps the fixed verdict of its trials.
	Blocks bool `json:"blocks"`
	// Warnings are the start's caveats; those of the ledger's runs (a test
	// that never reported, output mixed into a go test -json stream, runs
	// that failed) are the verdict's.
	Warnings []string `json:"warnings"`
}

// Finish reads the ledger a start left and judges it. An error is a
// ledger the verdict cannot use (no trials of any test): the Result is
// still returned, without a verdict.
func Finish(out *Outcome, g GateOptions) (*Result, error) {
	res := &Result{Plan: out.Plan, Ran: len(out.Records), Seconds: out.Elapsed.Seconds(), Stop: out.Stop,
		StopReason: out.StopReason, Gate: g.Gate, Errors: []Record{}, Warnings: append([]string{}, out.Warnings...)}
	if g.Gate == GateLedger {
		res.Sequential = out.Sequential
	}
	l, st, err := ReadLedger(out.Plan.Ledger)
	if err != nil {
		return res, err
	}
	if u := st.Unresolved(); u != nil {
		res.Errors = u
	}
	for _, r := range st.Records {
		if r.Outcome != OutcomeDone {
			continue
		}
		if r.Arm == ledger.ArmBaseline {
			res.Runs.Baseline++
		} else {
			res.Runs.Patched++
		}
	}
	if res.Runs.Baseline+res.Runs.Patched == 0 {
		return res, &core.Error{Kind: core.Unusable, File: out.Plan.Ledger, Msg: "no run of either arm has trials yet"}
	}
	switch g.Gate {
	case GateAA:
		res.AA, err = aa.CheckLedger(l, g.AA)
		if err == nil {
			res.Blocks = res.AA.Candidate != nil && res.AA.Candidate.Blocks
		}
	case GateLedger:
		opt := g.Ledger
		if res.Sequential != nil {
			opt.Answers = res.Sequential.Answers()
		}
		res.Verdict, err = l.Result(opt)
		if err == nil {
			res.Blocks = res.Verdict.Blocks
		}
	default:
		return res, fmt.Errorf("gate must be ledger or aa, got %q", g.Gate)
	}
	if err != nil {
		return res, core.WithFile(err, out.Plan.Ledger)
	}
	return res, nil
}
