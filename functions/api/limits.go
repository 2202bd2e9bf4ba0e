package api

import (
	"fmt"
	"io"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/ledger"
)

// What one request may ask, on every platform. Each bounds an answer or the
// memory of a request, so that the worst request accepted answers in under
// 5 MiB (Lambda refuses answers over 6 MiB) and well under 64 MB of memory
// (the Worker has 128 MB for all its requests). The CLI has none of them.
const (
	// MaxRates is the most rates one budget request plans: about 420 bytes
	// of answer each.
	MaxRates = 1000
	// MaxTests is the most tests one answer lists: every test of a ledger
	// (about 900 bytes each), the flaky tests of flakes (about 1,400).
	MaxTests = 3000
	// MaxCells is the most (run, test) pairs the reports of one request may
	// hold, over both arms: what a ledger keeps in memory, a few hundred
	// bytes each.
	MaxCells = 50_000
	// MaxScenarios and MaxRuns cap one A/A file: the answer lists every run
	// and every scenario that went both ways (about 140 bytes each), and
	// the exact independent drop rate costs scenarios² steps.
	MaxScenarios = 10_000
	MaxRuns      = 5_000
	// MaxAnswerBytes is the largest answer written, in bytes, whatever the
	// limits above let through (very long test names, say): past it the
	// answer is a 413 that says what to ask for instead.
	MaxAnswerBytes = 5 << 20
)

// Work budgets: the steps (about a nanosecond of one core each natively;
// see aa.Work) one A/A check may take. Sized so that the worst check
// accepted answers within a few seconds: the local server has cores to
// spare, Lambda has one core and 30 s, and the Worker runs WebAssembly
// (two to three times slower) under a CPU-time limit.
const (
	DefaultWorkSteps = 4e9
	LambdaWorkSteps  = 2e9
	WorkerWorkSteps  = 1e9
)

// Limits are a deployment's limits, as /v1/health reports them.
type Limits struct {
	MaxBodyBytes   int64   `json:"max_body_bytes"`   // largest request body, bytes
	MaxAnswerBytes int64   `json:"max_answer_bytes"` // largest answer, bytes
	Rates          int     `json:"rates"`            // rates per budget request
	Tests          int     `json:"tests"`            // tests listed per answer
	Cells          int     `json:"cells"`            // (run, test) pairs read per request
	Scenarios      int     `json:"scenarios"`        // scenarios per A/A file
	Runs           int     `json:"runs"`             // runs per A/A file
	WorkSteps      float64 `json:"work_steps"`       // steps per A/A check, about a nanosecond each natively
	UnzippedBytes  int64   `json:"unzipped_bytes"`   // what a history request's zip archives may unpack to, bytes
	// Plan is the Cloudflare Workers plan the Worker's limits are sized
	// for (free or paid); omitted elsewhere.
	Plan string `json:"plan,omitempty"`
}

func (h *handler) limits() Limits {
	return Limits{MaxBodyBytes: h.opt.maxBody(), MaxAnswerBytes: MaxAnswerBytes, Rates: h.opt.maxRates(), Tests: MaxTests,
		Cells: MaxCells, Scenarios: MaxScenarios, Runs: MaxRuns, WorkSteps: h.opt.workSteps(),
		UnzippedBytes: h.opt.maxUnzipped(), Plan: h.opt.Plan}
}

// tooMany is the 413 of a request that asks for more than a limit allows.
func tooMany(field string, have, limit int, what, instead string) error {
	return &core.Error{Kind: core.TooLarge, Field: field, Msg: fmt.Sprintf(
		"%s %s; this server answers at most %s per request: %s", count(have), what, count(limit), instead)}
}

// count writes n with thousands separators: 12,000.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// checkRates refuses more rates than this deployment plans per request
// (MaxRates, or fewer on the Workers Free plan).
func (h *handler) checkRates(rates []float64) error {
	if limit := h.opt.maxRates(); len(rates) > limit {
		return &core.Error{Kind: core.TooLarge, Field: "rates", Msg: fmt.Sprintf(
			"%s rates; this server answers at most %s per request%s: split the list, or run the CLI (flakegate budget -rates ...), which has no such limit",
			count(len(rates)), count(limit), h.opt.note())}
	}
	return nil
}

// checkLedger refuses reports that held more cells than the ledger kept,
// and, with listed, more tests than one answer lists.
func checkLedger(l *ledger.Ledger, listed bool, cli string) error {
	if err := l.Overflow(); err != nil {
		return &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf(
			"the reports hold more than %s (run, test) pairs; this server reads at most that many per request: send fewer reports or runs, or run the CLI, which has no such limit",
			count(MaxCells))}
	}
	if !listed {
		return nil
	}
	tests := map[string]bool{}
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		for _, t := range l.Tests(arm) {
			tests[t] = true
		}
	}
	if len(tests) > MaxTests {
		return tooMany("", len(tests), MaxTests, "tests", "send fewer reports or tests, or run the CLI ("+cli+"), which has no such limit")
	}
	return nil
}

// checkAA refuses an A/A check whose work, from the sides' sizes, is over
// this deployment's budget, and sides larger than MaxScenarios or MaxRuns
// (reports read as runs are capped here; a CSV is capped as it is read).
func (h *handler) checkAA(base, cand *aa.Side, opt aa.Options) error {
	for _, s := range []struct {
		name string
		side *aa.Side
	}{{"baseline", base}, {"candidate", cand}} {
		if s.side == nil {
			continue
		}
		if n := len(s.side.Scenarios); n > MaxScenarios {
			return tooMany(s.name, n, MaxScenarios, "scenarios", "run the CLI (flakegate aa), which has no such limit")
		}
		if n := len(s.side.Runs); n > MaxRuns {
			return tooMany(s.name, n, MaxRuns, "runs", "run the CLI (flakegate aa), which has no such limit")
		}
	}
	var cn, cr int
	if cand != nil {
		cn, cr = len(cand.Scenarios), len(cand.Runs)
	}
	budget := h.opt.workSteps()
	if w := aa.Work(base, cn, cr, opt); w > budget {
		field := ""
		if opt.Simulate != nil {
			field = "sets"
		}
		return &core.Error{Kind: core.TooLarge, Field: field, Msg: fmt.Sprintf(
			"this A/A check would take about %.3g steps (%s), over this server's budget of %.3g%s; "+
				"ask for fewer sets or runs per side, or run the CLI (flakegate aa), which has no such limit",
			w, aa.WorkText(base, opt), budget, h.opt.workNote())}
	}
	return nil
}

// csvLimits are the caps ReadCSVWithin applies to one A/A file.
var csvLimits = aa.Limits{Scenarios: MaxScenarios, Runs: MaxRuns}

// readCounts reads a counts CSV (aa.ReadCounts) of at most one row per
// scenario and per run under the caps, so that its memory is bounded too:
// a longer file is refused at the first line past them.
func readCounts(r io.Reader) (*aa.Side, error) {
	lc := &lineCap{r: r, left: MaxScenarios + MaxRuns + 1} // and the header
	side, err := aa.ReadCounts(lc)
	if lc.hit {
		return nil, &core.Error{Kind: core.TooLarge, Line: MaxScenarios + MaxRuns + 2, Column: 1, Msg: fmt.Sprintf(
			"a counts CSV has a row per scenario and per run: this server reads at most %s and %s; run the CLI (flakegate aa), which has no such limit",
			core.Nouns(MaxScenarios, "scenario"), core.Nouns(MaxRuns, "run"))}
	}
	return side, err
}

// lineCap passes on at most left lines of r.
type lineCap struct {
	r    io.Reader
	left int
	hit  bool
}

func (l *lineCap) Read(p []byte) (int, error) {
	if l.hit {
		return 0, io.ErrUnexpectedEOF
	}
	n, err := l.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			if l.left--; l.left < 0 {
				l.hit = true
				return i, io.ErrUnexpectedEOF
			}
		}
	}
	return n, err
}
