package history

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// Limits on what a History holds; a run or a test past them is a
// core.TooLarge error.
const (
	MaxRuns  = 1_000_000 // runs in one history
	MaxTests = 1_000_000 // distinct test names in one history
)

// RunMeta is what is known of one run besides its results. Every field may
// be empty.
type RunMeta struct {
	Name   string    // the run's id: the manifest's run, or its file's name
	File   string    // the report file the run was read from
	Commit string    // the commit the run tested
	Branch string    // the branch it ran on
	Job    string    // the CI job
	Time   time.Time // when the run started; the zero time when not known
}

// TestResult is one test's attempts in one run.
type TestResult struct {
	Test   string
	Passed int64 // passing attempts, in [0, Trials]
	Trials int64 // attempts, >= 1
}

// runRec is one run as the History keeps it.
type runRec struct {
	meta    RunMeta
	commit  int32 // index in History.commits, -1 when unknown
	tests   int32 // tests that ran in it
	failing int32 // tests with a failed attempt in it
}

// testAcc is one test's outcomes: bit 2i is set when it failed in run
// first+i, bit 2i+1 when it passed in it (both: a retry flipped).
type testAcc struct {
	name  string
	first int32
	bits  []uint64
	// seconds and timed sum the run times of its attempts the reports gave
	// (report.Options.Durations) and count them.
	seconds float64
	timed   int64
}

func (t *testAcc) set(run int32, failed, passed bool) {
	i := int(run - t.first)
	w := i / 32
	for len(t.bits) <= w {
		t.bits = append(t.bits, 0)
	}
	sh := uint(i%32) * 2
	if failed {
		t.bits[w] |= 1 << sh
	}
	if passed {
		t.bits[w] |= 2 << sh
	}
}

// outcome is the two bits of run (bit 0 failed, bit 1 passed); 0 when the
// test did not run in it.
func (t *testAcc) outcome(run int32) uint64 {
	i := int(run - t.first)
	if i < 0 || i/32 >= len(t.bits) {
		return 0
	}
	return t.bits[i/32] >> (uint(i%32) * 2) & 3
}

// History accumulates runs; Result reads it. It is not safe for concurrent
// use.
type History struct {
	runs    []runRec
	tests   []*testAcc
	byName  map[string]int32
	commits map[string]int32
	results int64
	notes   []string
	noted   map[string]bool
	seen    []int32 // per test, the last run that set it, +1 (a test twice in one run)
	seq     []bool  // Result's buffer of one test's outcomes in time order
	// maxTests and maxRunCells bound a history read for a request: 0 is
	// MaxTests and no bound on the (run, test) pairs of one report.
	maxTests, maxRunCells int
}

// SetLimits bounds what h accepts: at most tests distinct test names (0:
// MaxTests) and at most runCells (run, test) pairs in one report file (0:
// no bound). Past either, ReadRun and AddRun fail with core.TooLarge, so
// that memory is bounded before the input is read.
func (h *History) SetLimits(tests, runCells int) {
	h.maxTests, h.maxRunCells = tests, runCells
}

// New returns an empty history.
func New() *History {
	return &History{byName: map[string]int32{}, commits: map[string]int32{}, noted: map[string]bool{}}
}

func (h *History) warn(msg string) {
	if !h.noted[msg] {
		h.noted[msg] = true
		h.notes = append(h.notes, msg)
	}
}

// Runs is the number of runs added.
func (h *History) Runs() int { return len(h.runs) }

// Results is the number of test results added (a test in a run).
func (h *History) Results() int64 { return h.results }

// AddRun adds one run's results. A test named twice in one run has its
// attempts merged. A run without results is a core.Unusable error and is
// not added.
func (h *History) AddRun(meta RunMeta, results []TestResult) error {
	rec, err := h.beginRun(meta, len(results))
	if err != nil {
		return err
	}
	r := int32(len(h.runs))
	for _, tr := range results {
		if err := checkResult(meta, tr.Test, tr.Passed, tr.Trials); err != nil {
			return err
		}
		i, ok := h.byName[tr.Test]
		if !ok {
			if i, err = h.newTest(meta, tr.Test, r); err != nil {
				return err
			}
		}
		h.count(&rec, r, i, tr.Passed, tr.Trials)
	}
	h.runs = append(h.runs, rec)
	return nil
}

// beginRun checks that a run of n results can be added and returns its
// record, to be appended once its results are counted.
func (h *History) beginRun(meta RunMeta, n int) (runRec, error) {
	if n == 0 {
		return runRec{}, &core.Error{Kind: core.Unusable, File: meta.File, Msg: "the run has no test results to count"}
	}
	if len(h.runs) >= MaxRuns {
		return runRec{}, &core.Error{Kind: core.TooLarge, File: meta.File, Msg: "more than " + words(MaxRuns) + " runs in one history"}
	}
	rec := runRec{meta: meta, commit: -1}
	if meta.Commit != "" {
		c, ok := h.commits[meta.Commit]
		if !ok {
			c = int32(len(h.commits))
			h.commits[meta.Commit] = c
		}
		rec.commit = c
	}
	return rec, nil
}

// checkResult says what is wrong with a result of test, or nil.
func checkResult(meta RunMeta, test string, passed, trials int64) error {
	if trials < 1 || passed < 0 || passed > trials {
		return &core.Error{Kind: core.Invalid, File: meta.File, Msg: test + ": passed must be in [0, trials] and trials at least 1"}
	}
	return nil
}

// newTest adds a test first seen in run r and returns its index.
func (h *History) newTest(meta RunMeta, name string, r int32) (int32, error) {
	limit := MaxTests
	if h.maxTests > 0 {
		limit = min(limit, h.maxTests)
	}
	if len(h.tests) >= limit {
		return 0, &core.Error{Kind: core.TooLarge, File: meta.File, Msg: "more than " + words(int64(limit)) + " distinct tests in one history"}
	}
	i := int32(len(h.tests))
	h.byName[name] = i
	h.tests = append(h.tests, &testAcc{name: name, first: r})
	h.seen = append(h.seen, 0)
	return i, nil
}

// count adds a result of test i to run r, whose record is rec.
func (h *History) count(rec *runRec, r, i int32, passed, trials int64) {
	t := h.tests[i]
	failed, ok := passed < trials, passed > 0
	if h.seen[i] == r+1 {
		before := t.outcome(r)
		if before&1 == 0 && failed {
			rec.failing++
		}
	} else {
		h.seen[i] = r + 1
		rec.tests++
		if failed {
			rec.failing++
		}
	}
	t.set(r, failed, ok)
	h.results++
}

// ReadRun reads one report file (any format package report reads; opt says
// which, or detects it) and adds each of its runs: one for every report but
// a seed ledger, which names its runs itself (each is added as meta.Name,
// "#", and its own name). Meta fields left empty are filled from what the
// report carries (ReportMeta). Errors carry meta.File.
func (h *History) ReadRun(meta RunMeta, r io.Reader, opt report.Options) error {
	p, err := ParseRun(meta, r, opt, h.maxRunCells)
	if err != nil {
		return err
	}
	return h.AddParsed(p)
}

// Parsed is one report file read, not yet added: its runs in order and the
// reader's caveats. ParseRun makes it without a History, so that files can
// be read side by side and added in order.
type Parsed struct {
	file  string
	metas []RunMeta
	runs  [][]TestResult
	notes []string
	// durs sums, per test, the seconds of its attempts the report gave, in
	// the order it gave them, and counts them.
	durs map[string]duration
	// timed are the run times of a Parsed made by NewParsed.
	timed []Seconds
}

type duration struct {
	seconds float64
	n       int64
}

// time returns the report.Options.Durations that records into p, calling
// next too when it is not nil.
func (p *Parsed) time(next func(string, float64)) func(string, float64) {
	return func(test string, s float64) {
		if next != nil {
			next(test, s)
		}
		if p.durs == nil {
			p.durs = map[string]duration{}
		}
		d := p.durs[test]
		p.durs[test] = duration{d.seconds + s, d.n + 1}
	}
}

// ParseRun reads one report file as ReadRun does, keeping at most runCells
// (run, test) pairs (0: no bound; past it, a core.TooLarge error).
func ParseRun(meta RunMeta, r io.Reader, opt report.Options, runCells int) (*Parsed, error) {
	p, _, err := ParseRunLedger(meta, r, opt, runCells)
	return p, err
}

// ParseRunLedger is ParseRun that also returns the ledger the report was
// read into: its baseline runs are the Parsed's first runs, its patched
// runs the rest, each run's results in the order of the ledger's Cells.
func ParseRunLedger(meta RunMeta, r io.Reader, opt report.Options, runCells int) (*Parsed, *ledger.Ledger, error) {
	br := bufio.NewReaderSize(r, metaBytes)
	head, err := br.Peek(metaBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, nil, core.WithFile(err, meta.File)
	}
	meta = fillMeta(meta, ReportMeta(head))
	l := ledger.New()
	l.SetCellLimit(runCells)
	p := &Parsed{file: meta.File}
	opt.Durations = p.time(opt.Durations)
	if err := report.Read(br, opt, l); err != nil {
		return nil, nil, core.WithFile(err, meta.File)
	}
	if err := l.Overflow(); err != nil {
		return nil, nil, core.WithFile(err, meta.File)
	}
	p.notes = l.Notes()
	runs := 0
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		runs += len(l.Runs(arm))
	}
	if runs == 0 {
		return nil, nil, &core.Error{Kind: core.Unusable, File: meta.File, Msg: "the report has no test results to count"}
	}
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		names, tests := l.Runs(arm), l.Tests(arm)
		byRun := make([][]TestResult, len(names))
		for _, c := range l.Cells(arm) {
			byRun[c.Run] = append(byRun[c.Run], TestResult{Test: tests[c.Test], Passed: c.Passed, Trials: c.Trials})
		}
		for i, res := range byRun {
			m := meta
			if runs > 1 {
				m.Name = meta.Name + "#" + names[i]
			}
			p.metas = append(p.metas, m)
			p.runs = append(p.runs, res)
		}
	}
	return p, l, nil
}

// AddParsed adds the runs of a file ParseRun read.
func (h *History) AddParsed(p *Parsed) error {
	for _, n := range p.notes {
		h.warn(p.file + ": " + n)
	}
	for i, m := range p.metas {
		if err := h.AddRun(m, p.runs[i]); err != nil {
			return err
		}
	}
	// Each test gets one sum per file, so the map's order does not change
	// its total.
	for test, d := range p.durs {
		if i, ok := h.byName[test]; ok {
			t := h.tests[i]
			t.seconds += d.seconds
			t.timed += d.n
		}
	}
	h.addTimed(p)
	return nil
}

// fillMeta fills the empty fields of m from r.
func fillMeta(m, r RunMeta) RunMeta {
	if m.Commit == "" {
		m.Commit = r.Commit
	}
	if m.Branch == "" {
		m.Branch = r.Branch
	}
	if m.Job == "" {
		m.Job = r.Job
	}
	if m.Time.IsZero() {
		m.Time = r.Time
	}
	return m
}

// words writes n >= 0 with thousands separators: 1,000,000.
func words(n int64) string {
	d := strconv.FormatInt(n, 10)
	var s []byte
	for i := range len(d) {
		if i > 0 && (len(d)-i)%3 == 0 {
			s = append(s, ',')
		}
		s = append(s, d[i])
	}
	return string(s)
}

// Meta is the run a parsed file was read as (for a ledger of several
// runs, its first), with what its report carries.
func (p *Parsed) Meta() RunMeta {
	if len(p.metas) == 0 {
		return RunMeta{File: p.file}
	}
	return p.metas[0]
}

// Results are every test result of a parsed file, its runs one after
// another: a report read as one run's results (a test named in two of its
// runs is named twice).
func (p *Parsed) Results() []TestResult {
	var out []TestResult
	for _, r := range p.runs {
		out = append(out, r...)
	}
	return out
}
