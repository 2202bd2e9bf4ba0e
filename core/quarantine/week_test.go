package quarantine

import (
	"bytes"
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/testfile"
)

// The week: real reports of the planted suite testdata/week/shop, made by
// testdata/week/gen.sh with go test -json and gotestsum's JUnit (the
// versions are in testdata/week/nights/*-version.txt). Night 0 measured
// every test 60 times and opened the quarantine; each later night ran every
// test 20 times.
const weekDir = "testdata/week/nights/"

// Night is one night of the week: its date, its report, and what the
// owners did to the registry before that night's check.
type Night struct {
	Date, Report string
	Edit         func(reg *Registry, today string) (*Registry, error)
}

// WeekNights are the seven nights after the measurement: on 2026-11-26 the
// owner of TestInventory maps its rename to TestStock (it went missing the
// night before); on 2026-11-27 TestReport's owner renews it (expired since
// 2026-11-25); on 2026-11-28 TestCart, deleted from the suite on
// 2026-11-27, is removed.
var WeekNights = []Night{
	{Date: "2026-11-23", Report: "2026-11-23.json"},
	{Date: "2026-11-24", Report: "2026-11-24.xml"},
	{Date: "2026-11-25", Report: "2026-11-25.xml"},
	{Date: "2026-11-26", Report: "2026-11-26.json", Edit: func(reg *Registry, today string) (*Registry, error) {
		return Rename(reg, today, "example.com/shop.TestInventory", "example.com/shop.TestStock")
	}},
	{Date: "2026-11-27", Report: "2026-11-27.xml", Edit: func(reg *Registry, today string) (*Registry, error) {
		return Renew(reg, today, "example.com/shop.TestReport", "2026-12-31", "", "")
	}},
	{Date: "2026-11-28", Report: "2026-11-28.xml", Edit: func(reg *Registry, today string) (*Registry, error) {
		return Remove(reg, today, "example.com/shop.TestCart")
	}},
	{Date: "2026-11-29", Report: "2026-11-29.json"},
}

// weekEntries are the thirteen tests quarantined on 2026-11-20: owner,
// failure rate to prove each below, and expiry.
var weekEntries = []struct {
	test, owner string
	below       float64
	expires     string
	counted     int64 // clean runs counted toward the release before the week
}{
	{"TestAuth", "@identity", 0.001, "2026-12-31", 0},
	{"TestCache", "@platform", 0.01, "2026-12-31", 0},
	{"TestCart", "@payments", 0.01, "2026-12-31", 0},
	// TestCheckout was quarantined a month before the week, with 33 clean
	// nightly runs since: a week of one run a night is too short for any
	// fresh quarantine to prove a release (35 runs at 10%).
	{"TestCheckout", "@payments", 0.1, "2026-12-31", 33},
	{"TestEmail", "@growth", 0.01, "2026-12-31", 0},
	{"TestInventory", "@warehouse", 0.01, "2026-12-31", 0},
	{"TestLogin", "@identity", 0.01, "2026-12-31", 0},
	{"TestPayment", "@payments", 0.01, "2026-11-25", 0},
	{"TestQueue", "@platform", 0.1, "2026-12-31", 0},
	{"TestReport", "@data", 0.01, "2026-11-24", 0},
	{"TestSearch", "@search", 0.01, "2026-12-31", 0},
	{"TestShipping", "@warehouse", 0.05, "2026-12-31", 0},
	{"TestUpload", "@storage", 0.02, "2026-12-31", 0},
}

// readNight reads one report of the week as Check's Reports.
func readNight(t *testing.T, name string) *Reports {
	t.Helper()
	l := ledger.New()
	if err := report.Read(bytes.NewReader(testfile.Read(t, weekDir+name)), report.Options{}, l); err != nil {
		t.Fatal(core.WithFile(err, name))
	}
	return FromLedger(l)
}

// readExpect reads a night's .expect: per test, passes and trials counted
// from the plain go test -v text of the same night.
func readExpect(t *testing.T, report string) map[string]core.Count {
	out := map[string]core.Count{}
	for name, c := range testfile.Counts(t, weekDir+strings.TrimSuffix(report, filepath.Ext(report))+".expect") {
		out[name] = core.Count{Passed: c[0], Trials: c[1]}
	}
	return out
}

// weekRegistry opens the quarantine of the week from the measurement of
// 2026-11-20.
func weekRegistry(t *testing.T) *Registry {
	t.Helper()
	const opened = "2026-11-20"
	rep := readNight(t, opened+".xml")
	var es []Entry
	for _, w := range weekEntries {
		id := "example.com/shop." + w.test
		c, ok := rep.Count(id)
		if !ok {
			t.Fatalf("%s is not in the measurement", id)
		}
		es = append(es, NewEntry(id, w.owner, "flaky in the nightly run", opened, w.expires, c, 0.95,
			Release{Below: w.below, Confidence: 0.95, Runs: w.counted}))
	}
	reg, err := Add(&Registry{Version: Version}, opened, es...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// model is the reference the week is checked against: the rules of the
// registry written out plainly, fed with the .expect counts. Its Wilson
// interval is the listed formula (seedWilson), its staleness the exact
// Jeffreys evidence at the interval's point nearest the rate since the
// claim (exactDriftEvidence), and its release the exact evidence of clean
// runs (exactCleanEvidence), after the one-look count (exactCleanRunsRat),
// which the evidence can never beat, is reached.
type modelTest struct {
	claimPassed, claimTrials int64
	sincePassed, sinceTrials int64
	runs, failed             int64 // runs counted toward the release
	expires                  string
	below                    float64
}

// released says whether the model's runs prove the release.
func (m *modelTest) released(t *testing.T) bool {
	if m.runs-m.failed < exactCleanRunsRat(m.below, 0.95) {
		return false // M⁻ <= (1−p)^−(clean runs): not yet, whatever the failures
	}
	if m.failed > 0 {
		t.Fatalf("the model judges releases without failures only")
	}
	p := new(big.Rat).SetFloat64(m.below)
	return exactCleanEvidence(int64(ReleaseShape/m.below), m.runs, p).Cmp(big.NewRat(20, 1)) >= 0
}

func (m *modelTest) state(t *testing.T, today string, count core.Count, ran bool) string {
	if ran {
		m.sincePassed += count.Passed
		m.sinceTrials += count.Trials
		m.runs++ // a report is one run, clean only when every trial in it passed
		if count.Passed < count.Trials {
			m.failed++
		}
	}
	lo, hi := seedWilson(float64(m.claimPassed), float64(m.claimTrials))
	// The listing's rounding can leave 60/60's upper bound at
	// 0.9999999999999999; exactly, the interval holds the claimed rate.
	claimed := float64(m.claimPassed) / float64(m.claimTrials)
	lo, hi = min(lo, claimed), max(hi, claimed)
	rate := float64(m.sincePassed) / float64(m.sinceTrials)
	switch {
	case m.released(t):
		return StateReleased
	case !ran:
		return StateMissing
	case today > m.expires: // YYYY-MM-DD compares as text
		return StateExpired
	case exactDriftEvidence(m.sincePassed, m.sinceTrials, min(max(rate, lo), hi)).Cmp(big.NewRat(20, 1)) >= 0:
		if m.sinceTrials >= m.claimTrials { // measured again in full: a write makes it the claim
			m.claimPassed, m.claimTrials = m.sincePassed, m.sinceTrials
			m.sincePassed, m.sinceTrials = 0, 0
		}
		return StateStale
	}
	return StateStillFlaky
}

// TestWeek runs the week's nightly checks, each writing the registry the
// next night reads, and holds every test's state to the model fed with the
// .expect counts. Each night's report is one run (its 20 executions of a
// test share one go test process). Every state appears in it: released
// (TestCheckout), stale (TestSearch, worse; TestShipping and TestUpload,
// better), expired (TestReport, TestPayment), missing (TestInventory,
// TestCart) and still flaky.
func TestWeek(t *testing.T) {
	reg := weekRegistry(t)
	model := map[string]*modelTest{}
	for _, e := range reg.Tests {
		model[e.Test] = &modelTest{claimPassed: e.Claim.Passed, claimTrials: e.Claim.Trials,
			expires: e.Expires, below: e.Release.Below, runs: e.Release.Runs}
	}
	if c := readExpect(t, "2026-11-20.xml"); len(c) != len(model) {
		t.Fatalf("the measurement has %d tests, the registry %d", len(c), len(model))
	}
	seen := map[string]bool{}
	for _, n := range WeekNights {
		if n.Edit != nil {
			var err error
			if reg, err = n.Edit(reg, n.Date); err != nil {
				t.Fatal(err)
			}
			switch n.Date { // the same edits, in the model
			case "2026-11-26":
				model["example.com/shop.TestStock"] = model["example.com/shop.TestInventory"]
				delete(model, "example.com/shop.TestInventory")
			case "2026-11-27":
				model["example.com/shop.TestReport"].expires = "2026-12-31"
			case "2026-11-28":
				delete(model, "example.com/shop.TestCart")
			}
		}
		rep := readNight(t, n.Report)
		expect := readExpect(t, n.Report)
		for id, c := range expect {
			if got, _ := rep.Count(id); got != c {
				t.Errorf("%s %s: the report reads %v, go test -v counted %v", n.Date, id, got, c)
			}
		}
		opt := DefaultOptions
		opt.Today = n.Date
		res, next, err := Check(reg, rep, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tests) != len(model) {
			t.Fatalf("%s: %d tests checked, the model has %d", n.Date, len(res.Tests), len(model))
		}
		for _, r := range res.Tests {
			m := model[r.Test]
			if m == nil {
				t.Fatalf("%s: %s is not in the model", n.Date, r.Test)
			}
			c, ran := expect[r.Test]
			want := m.state(t, n.Date, c, ran)
			if r.State != want {
				t.Errorf("%s %s: %s, the model says %s", n.Date, r.Test, r.State, want)
			}
			if want == StateReleased {
				delete(model, r.Test)
			}
			seen[r.State] = true
		}
		reg = next
	}
	for _, s := range States {
		if !seen[s] {
			t.Errorf("no test was %s during the week", s)
		}
	}
}
