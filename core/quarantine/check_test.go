package quarantine

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// entry is a test's registry entry opened on 2026-11-01 with a claim of
// passed/trials at 95% and the given release rule and expiry.
func entry(test string, passed, trials int64, below float64, expires string) Entry {
	return NewEntry(test, "@team", "flaky in CI", "2026-11-01", expires, core.Count{Passed: passed, Trials: trials}, 0.95,
		Release{Below: below, Confidence: 0.95})
}

func registry(es ...Entry) *Registry { return &Registry{Version: Version, Tests: es} }

// runs is a Reports of one test's runs, each "passed/trials".
func runs(t *testing.T, byTest map[string][]string) *Reports {
	t.Helper()
	rep := &Reports{Tests: map[string][]core.Count{}}
	for id, rs := range byTest {
		for _, r := range rs {
			c, err := core.ParseCount("run", r)
			if err != nil {
				t.Fatal(err)
			}
			rep.Tests[id] = append(rep.Tests[id], c)
		}
		rep.Runs = max(rep.Runs, len(rs))
	}
	return rep
}

func check(t *testing.T, reg *Registry, rep *Reports, mod func(*Options)) (*Result, *Registry) {
	t.Helper()
	opt := DefaultOptions
	opt.Today = today
	if mod != nil {
		mod(&opt)
	}
	res, next, err := Check(reg, rep, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res, next
}

// seedWilson is seed 000's wilson(k, n) as listed (analyze.py), with its
// z = 1.959963985: written out here, apart from the code under test.
func seedWilson(k, n float64) (float64, float64) {
	const z = 1.959963985
	p := k / n
	denom := 1 + z*z/n
	centre := (p + z*z/(2*n)) / denom
	half := (z / denom) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// TestStaleRule holds the stale state to seed 000's definition: a claim
// (rate p over n trials, interval [lo, hi]) is stale when a later run
// produces a rate outside [lo, hi] at a comparable n, here at least half
// the claim's trials. The later run is every trial since the claim: those
// the registry holds and those of the new report. Every since-count
// k/m with m up to 80 is tried against the claim 57/60. A claim that went
// stale because the test got better (rate above hi) does not block and says
// it is improving; one that got worse (rate below lo) blocks.
func TestStaleRule(t *testing.T) {
	const claimPassed, claimTrials = 57, 60
	lo, hi := seedWilson(claimPassed, claimTrials)
	for m := int64(1); m <= 80; m++ {
		for k := int64(0); k <= m; k++ {
			rate := float64(k) / float64(m)
			if math.Abs(rate-lo) < 1e-9 || math.Abs(rate-hi) < 1e-9 {
				t.Fatalf("%d/%d lies on the interval's edge; the definition cannot tell it", k, m)
			}
			wantStale := 2*m >= claimTrials && (rate < lo || rate > hi)
			// Half the since-count is in the registry, the rest in the new
			// report: k/2 <= m/2 and k-k/2 <= m-m/2 when k <= m.
			e := entry("t", claimPassed, claimTrials, 0.001, "2027-06-30")
			e.Since = Since{Passed: k / 2, Trials: m / 2}
			rep := &Reports{Runs: 1, Tests: map[string][]core.Count{"t": {{Passed: k - k/2, Trials: m - m/2}}}}
			res, _ := check(t, registry(e), rep, nil)
			got := res.Tests[0]
			if got.Since.Passed != k || got.Since.Trials != m {
				t.Fatalf("%d/%d: since counted as %d/%d", k, m, got.Since.Passed, got.Since.Trials)
			}
			wantBlocks, wantImproving := wantStale && rate < lo, wantStale && rate > hi
			if (got.State == StateStale) != wantStale || got.Blocks != wantBlocks || got.Improving != wantImproving {
				t.Errorf("since %d/%d (rate %.4f, claim [%.4f, %.4f]): state %s, blocks %v, improving %v; want stale %v, blocks %v, improving %v",
					k, m, rate, lo, hi, got.State, got.Blocks, got.Improving, wantStale, wantBlocks, wantImproving)
			}
			if !wantStale && got.State != StateStillFlaky {
				t.Errorf("since %d/%d: state %s, want %s", k, m, got.State, StateStillFlaky)
			}
		}
	}
}

// TestStates: one state per test, by precedence (released, missing,
// expired, stale, still flaky), with the evidence each needs. The unit of
// evidence is the run: a run of 14 executions that all passed is one clean
// run (go test -count=14 in one process), not 14.
func TestStates(t *testing.T) {
	// Below 10% at 95% takes 29 clean runs: (0.9)^29 = 0.047 <= 0.05 < 0.9^28.
	clean := func(n int, run string) []string { return slices.Repeat([]string{run}, n) }
	cases := []struct {
		name      string
		e         Entry
		reports   []string // runs of the test; nil: not in the reports
		state     string
		clean     int64
		improving bool
	}{
		{"clean runs prove the release", entry("t", 57, 60, 0.1, "2027-01-31"), clean(29, "1/1"), StateReleased, 29, false},
		{"one short", entry("t", 57, 60, 0.1, "2027-01-31"), clean(28, "1/1"), StateStillFlaky, 28, false},
		{"a run of 14 executions is one run", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"14/14"}, StateStillFlaky, 1, false},
		{"29 executions in one run are one run", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"29/29"}, StateStillFlaky, 1, false},
		{"a failed run restarts the count", entry("t", 57, 60, 0.1, "2027-01-31"), append(clean(20, "1/1"), "9/10"), StateStillFlaky, 0, false},
		{"released even past expiry", entry("t", 57, 60, 0.1, "2026-11-30"), clean(29, "1/1"), StateReleased, 29, false},
		{"released though stale", entry("t", 17, 20, 0.1, "2027-01-31"), clean(29, "1/1"), StateReleased, 29, false},
		{"missing", entry("t", 57, 60, 0.1, "2027-01-31"), nil, StateMissing, 0, false},
		{"missing beats expired", entry("t", 57, 60, 0.1, "2026-11-30"), nil, StateMissing, 0, false},
		{"expired the day after its last day", entry("t", 57, 60, 0.1, "2026-12-01"), []string{"5/6"}, StateExpired, 0, false},
		{"not expired on its last day", entry("t", 57, 60, 0.1, today), []string{"5/6"}, StateStillFlaky, 0, false},
		{"expired beats stale", entry("t", 57, 60, 0.1, "2026-12-01"), []string{"10/30"}, StateExpired, 0, false},
		{"stale", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"10/30"}, StateStale, 0, false},
		// 35/35 since 57/60: 1.0 is above the claim's interval [0.863,
		// 0.983]: stale because the test got better; it does not block.
		{"stale and improving", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"35/35"}, StateStale, 1, true},
		{"too few trials to judge", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"10/29"}, StateStillFlaky, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := runs(t, map[string][]string{"other": {"1/1"}})
			if c.reports != nil {
				rep = runs(t, map[string][]string{"t": c.reports})
			}
			res, _ := check(t, registry(c.e), rep, nil)
			got := res.Tests[0]
			if got.State != c.state || got.Release.Clean != c.clean {
				t.Errorf("state %s with %d clean runs, want %s with %d", got.State, got.Release.Clean, c.state, c.clean)
			}
			blocks := c.state == StateStale && !c.improving || c.state == StateExpired || c.state == StateMissing
			if got.Improving != c.improving {
				t.Errorf("improving %v, want %v", got.Improving, c.improving)
			}
			if got.Blocks != blocks || res.Blocks != blocks {
				t.Errorf("blocks %v (result %v), want %v", got.Blocks, res.Blocks, blocks)
			}
			if res.States.Of(c.state) != 1 {
				t.Errorf("state counts %+v", res.States)
			}
			if got.Release.Needed != 29 || got.Release.Remaining != max(0, 29-c.clean) {
				t.Errorf("release %+v", got.Release)
			}
		})
	}
}

// clean29 is 29 clean runs of one trial each: below 10% at 95%.
func clean29() []string { return slices.Repeat([]string{"1/1"}, 29) }

// TestWrite: what a writing check keeps of each state.
func TestWrite(t *testing.T) {
	released := entry("a/released", 57, 60, 0.1, "2027-01-31")
	stale := entry("b/stale", 57, 60, 0.1, "2027-01-31")
	stale.Since = Since{Passed: 4, Trials: 10, Runs: 3, Clean: 3, Checked: "2026-11-30"}
	flaky := entry("c/flaky", 57, 60, 0.1, "2027-01-31")
	flaky.Since = Since{Passed: 9, Trials: 10, Runs: 7, Clean: 6, Checked: "2026-11-30"}
	missing := entry("d/missing", 57, 60, 0.1, "2027-01-31")
	missing.Since = Since{Passed: 9, Trials: 10, Runs: 7, Clean: 6, Checked: "2026-11-30"}
	renamed := entry("e/old", 57, 60, 0.1, "2027-01-31")
	expired := entry("f/expired", 57, 60, 0.1, "2026-12-01")
	rep := runs(t, map[string][]string{
		"a/released": clean29(),
		"b/stale":    {"6/20"},
		"c/flaky":    {"5/5", "4/4"},
		"e/new":      {"3/4"},
		"f/expired":  {"2/2"},
	})
	res, next := check(t, registry(released, stale, flaky, missing, renamed, expired), rep,
		func(o *Options) { o.Renames = map[string]string{"e/old": "e/new"} })
	states := map[string]string{}
	for _, r := range res.Tests {
		states[r.Test] = r.State
	}
	want := map[string]string{"a/released": StateReleased, "b/stale": StateStale, "c/flaky": StateStillFlaky,
		"d/missing": StateMissing, "e/new": StateStillFlaky, "f/expired": StateExpired}
	for id, s := range want {
		if states[id] != s {
			t.Errorf("%s: %s, want %s", id, states[id], s)
		}
	}
	kept := map[string]Entry{}
	for _, e := range next.Tests {
		kept[e.Test] = e
	}
	if _, ok := kept["a/released"]; ok || len(next.Tests) != 5 {
		t.Errorf("the released test is still there, or a test was lost: %d tests", len(next.Tests))
	}
	// Stale at 10/30 since the claim (4/10 held, 6/20 new): fewer trials
	// than the claim's 60, so the claim stays and they keep adding up.
	if s := kept["b/stale"]; s.Claim != stale.Claim || s.Since != (Since{Passed: 10, Trials: 30, Runs: 4, Clean: 0, Checked: today}) {
		t.Errorf("stale kept as %+v", s)
	}
	if f := kept["c/flaky"]; f.Since != (Since{Passed: 18, Trials: 19, Runs: 9, Clean: 8, Checked: today}) || f.Claim != flaky.Claim {
		t.Errorf("still flaky kept as %+v", f)
	}
	if m := kept["d/missing"]; m.Since != missing.Since || m.Claim != missing.Claim {
		t.Errorf("missing changed: %+v", m)
	}
	if r, ok := kept["e/new"]; !ok || r.Since != (Since{Passed: 3, Trials: 4, Runs: 1, Clean: 0, Checked: today}) || r.Claim != renamed.Claim {
		t.Errorf("renamed kept as %+v (found %v)", r, ok)
	}
	if x := kept["f/expired"]; x.Since != (Since{Passed: 2, Trials: 2, Runs: 1, Clean: 1, Checked: today}) || x.Expires != expired.Expires {
		t.Errorf("expired kept as %+v", x)
	}
	if err := Validate(next, today); err != nil {
		t.Errorf("the written registry is invalid: %v", err)
	}
	// Checking the written registry against no reports changes nothing but
	// the released and stale tests' places: it is a fixed point.
	_, again := check(t, next, nil, nil)
	if len(again.Tests) != len(next.Tests) {
		t.Errorf("a second check without reports changed the registry")
	}
	for i := range again.Tests {
		if again.Tests[i] != next.Tests[i] {
			t.Errorf("a second check without reports changed %s", next.Tests[i].Test)
		}
	}
}

// TestStaleReplaced: once the trials since a stale claim are as many as
// the claim's, a write makes them the claim, dated today; the clean count
// stays. A stale state at half the claim that was noise clears itself.
func TestStaleReplaced(t *testing.T) {
	e := entry("t", 57, 60, 0.01, "2027-01-31")
	e.Since = Since{Passed: 10, Trials: 30, Runs: 5, Clean: 5, Checked: "2026-11-30"}
	res, next := check(t, registry(e), runs(t, map[string][]string{"t": {"20/20", "10/10"}}), nil)
	if got := res.Tests[0]; got.State != StateStale || got.Since.Passed != 40 || got.Since.Trials != 60 {
		t.Fatalf("%+v", got)
	}
	// The clean runs in a row: the 5 held and the 2 new runs.
	if k := next.Tests[0]; k.Claim != claimOf(40, 60, 0.95, today) || k.Since != (Since{Clean: 7, Checked: today}) {
		t.Errorf("kept %+v", k)
	}
	// 20/30 since 57/60 is stale (0.667 < 0.863); 30 more passes bring
	// it to 50/60 (0.833), still outside; 55/60 (0.917) is inside again.
	e.Since = Since{Passed: 20, Trials: 30, Checked: "2026-11-30"}
	res, _ = check(t, registry(e), runs(t, map[string][]string{"t": {"30/30"}}), nil)
	if got := res.Tests[0]; got.State != StateStale {
		t.Errorf("50/60 since 57/60: %s", got.State)
	}
	e.Since = Since{Passed: 25, Trials: 30, Checked: "2026-11-30"}
	res, _ = check(t, registry(e), runs(t, map[string][]string{"t": {"30/30"}}), nil)
	if got := res.Tests[0]; got.State != StateStillFlaky {
		t.Errorf("55/60 since 57/60: %s", got.State)
	}
}

// TestNoReports: without reports nothing is missing and nothing counted.
func TestNoReports(t *testing.T) {
	e := entry("t", 57, 60, 0.1, "2027-01-31")
	e.Since = Since{Passed: 29, Trials: 29, Runs: 29, Clean: 29, Checked: "2026-11-30"}
	res, next := check(t, registry(e, entry("u", 57, 60, 0.1, "2027-01-31")), nil, nil)
	if res.Reports || res.Tests[0].State != StateReleased || res.Tests[1].State != StateStillFlaky || res.Tests[1].Reported != nil {
		t.Errorf("%+v", res)
	}
	if len(next.Tests) != 1 || next.Tests[0].Test != "u" {
		t.Errorf("kept %+v", next.Tests)
	}
}

func TestRenames(t *testing.T) {
	reg := registry(entry("a", 57, 60, 0.1, "2027-01-31"), entry("b", 57, 60, 0.1, "2027-01-31"))
	rep := runs(t, map[string][]string{"a2": {"1/1"}, "b": {"1/1"}})
	for _, c := range []struct {
		renames map[string]string
		err     string
	}{
		{map[string]string{"a": "a"}, "renames a test to itself"},
		{map[string]string{"a": "c", "b": "c"}, "c is also the new id of a"},
		{map[string]string{"a": "b"}, "b is already quarantined"},
		{map[string]string{"a": " a2"}, "the new id"},
	} {
		opt := DefaultOptions
		opt.Today, opt.Renames = today, c.renames
		if _, _, err := Check(reg, rep, opt); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: %v, want %q", c.renames, err, c.err)
		}
	}
	// A swap is fine: each new id names one entry.
	res, next := check(t, reg, rep, func(o *Options) { o.Renames = map[string]string{"a": "b", "b": "a2"} })
	if res.Tests[0].Test != "a2" || res.Tests[0].RenamedFrom != "b" || next.Tests[1].Test != "b" {
		t.Errorf("swap: %+v", res.Tests)
	}
	// A rename of a test the registry lacks is a warning.
	res, _ = check(t, reg, rep, func(o *Options) { o.Renames = map[string]string{"zz": "a2"} })
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "the registry has no test zz") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestEdits: add, renew, remove and rename keep the registry canonical and
// refuse what they should.
func TestEdits(t *testing.T) {
	reg := registry()
	reg, err := Add(reg, today, entry("b", 57, 60, 0.1, "2027-01-31"), entry("a", 17, 20, 0.01, "2027-01-31"))
	if err != nil {
		t.Fatal(err)
	}
	if reg.Tests[0].Test != "a" || reg.Tests[1].Test != "b" {
		t.Fatalf("not sorted: %+v", reg.Tests)
	}
	if _, err := Add(reg, today, entry("a", 1, 2, 0.1, "2027-01-31")); err == nil || !strings.Contains(err.Error(), "a is already quarantined (owner @team, until 2027-01-31)") {
		t.Errorf("adding a twice: %v", err)
	}
	bad := entry("c", 1, 2, 0.1, "2027-01-31")
	bad.Owner = ""
	if _, err := Add(reg, today, bad); err == nil || err.Error() != "owner: c: must not be empty: give who answers for the test" {
		t.Errorf("no owner: %v", err)
	}
	if _, err := Renew(reg, today, "a", "2026-12-01", "", ""); err == nil || !strings.Contains(err.Error(), "before today") {
		t.Errorf("renewing into the past: %v", err)
	}
	r2, err := Renew(reg, today, "a", "2027-03-31", "@other", "")
	if err != nil {
		t.Fatal(err)
	}
	if a := r2.Tests[0]; a.Expires != "2027-03-31" || a.Owner != "@other" || a.Reason != "flaky in CI" || reg.Tests[0].Expires != "2027-01-31" {
		t.Errorf("renewed %+v (the original now %+v)", a, reg.Tests[0])
	}
	if _, err := Remove(reg, today, "a", "zz"); err == nil || !strings.Contains(err.Error(), "zz is not quarantined") {
		t.Errorf("removing zz: %v", err)
	}
	r3, err := Remove(reg, today, "a")
	if err != nil || len(r3.Tests) != 1 || r3.Tests[0].Test != "b" {
		t.Errorf("removed a: %+v %v", r3, err)
	}
	r4, err := Rename(reg, today, "a", "z")
	if err != nil || r4.Tests[1].Test != "z" || r4.Tests[1].Claim != reg.Tests[0].Claim {
		t.Errorf("renamed a: %+v %v", r4, err)
	}
	if _, err := Rename(reg, today, "a", "b"); err == nil || !strings.Contains(err.Error(), "b is already quarantined") {
		t.Errorf("renaming onto b: %v", err)
	}
}
