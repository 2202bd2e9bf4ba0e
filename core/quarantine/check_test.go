package quarantine

import (
	"math"
	"math/big"
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

// seedWilson is the Wilson interval (docs/STATISTICS.md, Wilson intervals)
// as the original decision script listed it, with its z = 1.959963985: written out here, apart from the code under test.
func seedWilson(k, n float64) (float64, float64) {
	const z = 1.959963985
	p := k / n
	denom := 1 + z*z/n
	centre := (p + z*z/(2*n)) / denom
	half := (z / denom) * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// exactDriftEvidence is the staleness rule's evidence against the rate
// theta after k passes in m trials, exactly: the Jeffreys mixture
// (½)_k (½)_(m−k) / m! over θ^k (1−θ)^(m−k), for theta a float64 taken
// exactly as a rational. (½)_k is 1·3·5⋯(2k−1)/2^k; the whole ratio is
// built in integers and normalised once.
func exactDriftEvidence(k, m int64, theta float64) *big.Rat {
	odd := func(n int64) *big.Int { // 1·3·5⋯(2n−1)
		r := big.NewInt(1)
		for i := int64(1); i <= n; i++ {
			r.Mul(r, big.NewInt(2*i-1))
		}
		return r
	}
	th := new(big.Rat).SetFloat64(theta)
	one := new(big.Rat).Sub(big.NewRat(1, 1), th)
	pow := func(x *big.Int, e int64) *big.Int { return new(big.Int).Exp(x, big.NewInt(e), nil) }
	num := new(big.Int).Mul(odd(k), odd(m-k))
	num.Mul(num, pow(th.Denom(), k))
	num.Mul(num, pow(one.Denom(), m-k))
	den := new(big.Int).Lsh(new(big.Int).MulRange(1, m), uint(m))
	den.Mul(den, pow(th.Num(), k))
	den.Mul(den, pow(one.Num(), m-k))
	return new(big.Rat).SetFrac(num, den)
}

// TestStaleRule holds the stale state to its definition: a claim (57/60,
// interval [lo, hi] at 95%) is stale when the Jeffreys mixture's evidence
// against every rate of [lo, hi] reaches 1/(1 − 0.95) — decided at the
// point of [lo, hi] nearest the rate since the claim, where the evidence
// is least (its log is convex with its minimum at that rate). The evidence
// is computed here in exact rational arithmetic, apart from the code under
// test. The trials since the claim are those the registry holds and those
// of the new report. Every since-count k/m with m up to 80 is tried. A
// claim that went stale because the test got better (above hi) does not
// block and says it is improving; one that got worse (below lo) blocks.
func TestStaleRule(t *testing.T) {
	const claimPassed, claimTrials = 57, 60
	lo, hi := seedWilson(claimPassed, claimTrials)
	threshold := new(big.Rat).Inv(new(big.Rat).SetFloat64(1 - 0.95))
	for m := int64(1); m <= 80; m++ {
		for k := int64(0); k <= m; k++ {
			rate := float64(k) / float64(m)
			theta := min(max(rate, lo), hi)
			ev := exactDriftEvidence(k, m, theta)
			if f, _ := new(big.Rat).Quo(ev, threshold).Float64(); math.Abs(f-1) < 1e-9 {
				t.Fatalf("%d/%d lies on the boundary; the definition cannot tell it", k, m)
			}
			wantStale := ev.Cmp(threshold) >= 0
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
	// Where the rule draws the line, for the record: 0 of 3 is stale
	// already; 20 of 30 (67%) is not yet, 20 of 40 is.
	for _, c := range []struct {
		k, m  int64
		stale bool
	}{{0, 3, true}, {20, 30, false}, {20, 40, true}, {60, 60, false}} {
		if got := ClaimDrift(claimOf(claimPassed, claimTrials, 0.95, "2026-11-01"), c.k, c.m) != DriftNone; got != c.stale {
			t.Errorf("%d/%d: stale %v, want %v", c.k, c.m, got, c.stale)
		}
	}
}

// clean is n runs of one passing trial each.
func clean(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "1/1"
	}
	return out
}

// TestStates: one state per test, by precedence (released, missing,
// expired, stale, still flaky), with the evidence each needs. Below 10% at
// 95% takes 35 clean runs from the start (TestCleanRunsChecked checks it in
// exact arithmetic). The unit of evidence is the run: a run of 14
// executions that all passed is one clean run (go test -count=14 in one
// process), not 14.
func TestStates(t *testing.T) {
	failedOnce := append(append(clean(20), "0/1"), clean(14)...)
	cases := []struct {
		name      string
		e         Entry
		reports   []string // runs of the test; nil: not in the reports
		state     string
		clean     int64
		improving bool
	}{
		{"clean runs prove the release", entry("t", 57, 60, 0.1, "2027-01-31"), clean(35), StateReleased, 35, false},
		{"one short", entry("t", 57, 60, 0.1, "2027-01-31"), clean(34), StateStillFlaky, 34, false},
		{"a run of 14 executions is one run", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"14/14"}, StateStillFlaky, 1, false},
		{"35 executions in one run are one run", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"35/35"}, StateStillFlaky, 1, false},
		{"a failed run stays in the evidence", entry("t", 57, 60, 0.1, "2027-01-31"), failedOnce, StateStillFlaky, 14, false},
		{"released even past expiry", entry("t", 57, 60, 0.1, "2026-11-30"), clean(35), StateReleased, 35, false},
		{"released though stale", entry("t", 17, 20, 0.1, "2027-01-31"), clean(120), StateReleased, 120, false},
		{"missing", entry("t", 57, 60, 0.1, "2027-01-31"), nil, StateMissing, 0, false},
		{"missing beats expired", entry("t", 57, 60, 0.1, "2026-11-30"), nil, StateMissing, 0, false},
		{"expired the day after its last day", entry("t", 57, 60, 0.1, "2026-12-01"), []string{"5/6"}, StateExpired, 0, false},
		{"not expired on its last day", entry("t", 57, 60, 0.1, today), []string{"5/6"}, StateStillFlaky, 0, false},
		{"expired beats stale", entry("t", 57, 60, 0.1, "2026-12-01"), []string{"10/30"}, StateExpired, 0, false},
		{"stale", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"10/30"}, StateStale, 0, false},
		// 400/400 since 57/60 rules out the claim's interval [0.863,
		// 0.983] from above: stale because the test got better; it does
		// not block. (35/35 does not yet: the anytime evidence is 0.17.)
		{"stale and improving", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"400/400"}, StateStale, 1, true},
		{"too little evidence to judge", entry("t", 57, 60, 0.1, "2027-01-31"), []string{"5/6"}, StateStillFlaky, 0, false},
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
			if got.Release.Needed != 35 || got.Release.Runs != int64(len(c.reports)) || got.Release.Proven != (got.Release.Remaining == 0) {
				t.Errorf("release %+v", got.Release)
			}
			switch c.name {
			case "one short":
				if got.Release.Remaining != 1 {
					t.Errorf("one short: %d clean runs remaining", got.Release.Remaining)
				}
			case "a failed run stays in the evidence":
				// 35 runs with a failure need more than the 21 clean runs
				// that would complete a fresh count of 35.
				if got.Release.Failed != 1 || got.Release.Remaining <= 21 {
					t.Errorf("after a failure: %+v", got.Release)
				}
			}
		})
	}
}

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
		"a/released": clean(35),
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
// and the release evidence stay. A stale state on little evidence that was
// noise clears itself.
func TestStaleReplaced(t *testing.T) {
	e := entry("t", 57, 60, 0.01, "2027-01-31")
	e.Since = Since{Passed: 5, Trials: 30, Runs: 5, Clean: 5, Checked: "2026-11-30"}
	e.Release.Runs, e.Release.Failed = 30, 25
	res, next := check(t, registry(e), runs(t, map[string][]string{"t": {"20/20", "10/10"}}), nil)
	if got := res.Tests[0]; got.State != StateStale || got.Since.Passed != 35 || got.Since.Trials != 60 {
		t.Fatalf("%+v", got)
	}
	// The clean runs in a row: the 5 held and the 2 new runs; the release
	// count goes on, never restarted by the new claim.
	if k := next.Tests[0]; k.Claim != claimOf(35, 60, 0.95, today) || k.Since != (Since{Clean: 7, Checked: today}) ||
		k.Release.Runs != 32 || k.Release.Failed != 25 {
		t.Errorf("kept %+v", k)
	}
	// 3/10 since 57/60 is stale; 50 more passes bring it to 53/60
	// (0.883), inside the claim's interval again: not stale.
	e.Since = Since{Passed: 3, Trials: 10, Checked: "2026-11-30"}
	res, _ = check(t, registry(e), nil, nil)
	if got := res.Tests[0]; got.State != StateStale {
		t.Errorf("3/10 since 57/60: %s", got.State)
	}
	res, _ = check(t, registry(e), runs(t, map[string][]string{"t": {"50/50"}}), nil)
	if got := res.Tests[0]; got.State != StateStillFlaky {
		t.Errorf("53/60 since 57/60: %s", got.State)
	}
}

// TestNoReports: without reports nothing is missing and nothing counted.
func TestNoReports(t *testing.T) {
	e := entry("t", 57, 60, 0.1, "2027-01-31")
	e.Since = Since{Passed: 35, Trials: 35, Runs: 35, Clean: 35, Checked: "2026-11-30"}
	e.Release.Runs = 35
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
