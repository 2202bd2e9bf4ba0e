package aa

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
)

func mustReadAA(t *testing.T, s string) *Side {
	t.Helper()
	side, err := ReadCSV(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return side
}

// mustCheck is Check's result; an error fails t and stops there.
func mustCheck(t testing.TB, base, cand *Side, opt Options) *Result {
	t.Helper()
	res, err := Check(base, cand, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// aaCSV builds a CSV from a table of outcomes: rows[i] is scenario s<i>,
// column j is run r<j>.
func aaCSV(rows ...string) string {
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for j := range len(rows[0]) {
		for i, r := range rows {
			b.WriteString("s" + itoa(int64(i)) + ",r" + itoa(int64(j)) + "," + string(r[j]) + "\n")
		}
	}
	return b.String()
}

// Published figures of an A/A suite of 200 scenarios (its CSV is not
// published, so these check the formulas on its printed inputs;
// docs/STATISTICS.md, A/A check):
// v = 0.024 gives a formula noise of 1.55 points; s = 1.95 points gives
// thresholds of 3.2, 2.3 and 1.6 points at 1, 2 and 4 runs per side and 6
// runs per side to catch a 2-point drop. A printed checklist rounds
// 1.645+0.842 to 2.5; with 2.487, as the formula has it, the answer is also 6.
// Tolerance: the published rounding (half a unit of the last printed digit).
func TestAASeedPrintedFigures(t *testing.T) {
	if got := math.Sqrt(2 * 0.024 / 200); math.Abs(100*got-1.55) > 0.005 {
		t.Errorf("formula noise = %.4f points, seed prints 1.55", 100*got)
	}
	s := 0.0195
	for _, c := range []struct {
		k    int
		want float64
	}{{1, 3.2}, {2, 2.3}, {4, 1.6}} {
		if got := 100 * alarmThreshold(s, c.k); math.Abs(got-c.want) > 0.05 {
			t.Errorf("threshold at %d runs = %.3f points, seed prints %.1f", c.k, got, c.want)
		}
	}
	if got := runsToCatch(s, 0.02); got != 6 {
		t.Errorf("runs to catch 2 points = %d, seed prints 6", got)
	}
	// The published suite has 28 scenarios going both ways and a trend that
	// makes the one-run threshold fire 18 times of 190 with the earlier run
	// as baseline and never the other way. Our golden of that shape (gen.py:
	// 158 always pass, 14 always fail, 28 drift down) shows the same shape.
	res := mustCheck(t, readAAFile(t, "seed_shape.csv"), nil, DefaultOptions)
	if res.Mixed != 28 || res.Scenarios != 200 || res.Runs != 20 || res.Trend == nil || res.Trend.Pairs != 190 {
		t.Fatalf("seed shape: %d mixed of %d scenarios, %d runs, trend %+v", res.Mixed, res.Scenarios, res.Runs, res.Trend)
	}
	if res.Trend.FiredEarlierBaseline < 5*res.Trend.FiredLaterBaseline+5 {
		t.Errorf("seed shape: the trend should fire mostly with the earlier run as baseline: %+v", res.Trend)
	}
	if *res.Noise.Measured <= res.Noise.Formula || res.Noise.S != *res.Noise.Measured {
		t.Errorf("seed shape: a trend makes the measured noise the larger: %+v", res.Noise)
	}
}

// Properties of the thresholds and run counts, for s across its range.
func TestAAThresholdProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		s := r.Float64()
		if s == 0 {
			continue
		}
		k := 1 + r.IntN(1000)
		// falls as 1/sqrt(k): t(k)·sqrt(k) is 1.645·s, and t(4k) = t(k)/2,
		// both to a few ulps
		t1, t4 := alarmThreshold(s, k), alarmThreshold(s, 4*k)
		if d := math.Abs(t1*math.Sqrt(float64(k))-ZAlarm*s) / (ZAlarm * s); d > 4e-16 {
			t.Fatalf("threshold(%v,%d)·sqrt(k) off by %g relative", s, k, d)
		}
		if d := math.Abs(t4-t1/2) / t1; d > 4e-16 {
			t.Fatalf("threshold(%v,4·%d) is not half of threshold(k): %v vs %v", s, k, t4, t1)
		}
		if alarmThreshold(s, k+1) >= t1 {
			t.Fatalf("threshold does not fall from k=%d to k+1", k)
		}
		// runs needed: the smallest whole number at or above the formula,
		// rising with s and falling with the drop
		d := 0.005 + 0.3*r.Float64()
		n := runsToCatch(s, d)
		x := (ZAlarm + ZPower) * s / d
		if float64(n) < x*x*(1-1e-15) || float64(n-1) >= x*x*(1+1e-15) {
			t.Fatalf("runsToCatch(%v,%v) = %d, formula %v", s, d, n, x*x)
		}
		if runsToCatch(s*1.1, d) < n || runsToCatch(s, d*1.1) > n {
			t.Fatalf("runsToCatch is not monotone at s=%v d=%v", s, d)
		}
		// at the runs needed, the threshold is at most the drop less the
		// power margin: 1.645·s/sqrt(n) <= d - 0.842·s/sqrt(n)
		if ZAlarm*s/math.Sqrt(float64(n)) > d-ZPower*s/math.Sqrt(float64(n))+1e-12 {
			t.Fatalf("at %d runs the drop %v is not caught 80%% of the time (s=%v)", n, d, s)
		}
	}
}

// A/A result fields on the hand-checked case: 2 scenarios, 3 runs.
// a passes 2 of 3, b passes 2 of 3: v = 3/2·(2/3)(1/3) = 1/3, formula
// sqrt(2/3/2) = 0.57735; run rates 1/2, 1, 1/2; stdev = sqrt(1/12) so the
// measured noise is sqrt(2/12) = 0.40825 (hand computation, 1e-15).
func TestAAHandChecked(t *testing.T) {
	res := mustCheck(t, mustReadAA(t, aaCSV("110", "011")), nil, DefaultOptions)
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("v", res.V, 1.0/3)
	near("formula", res.Noise.Formula, math.Sqrt(1.0/3))
	near("measured", *res.Noise.Measured, math.Sqrt(2.0/12))
	near("s", res.Noise.S, math.Sqrt(1.0/3))
	if res.Mixed != 2 || res.Rows != 6 || len(res.RunRates) != 3 || res.RunRates[1].Rate != 1 {
		t.Errorf("counts: %+v", res)
	}
	if len(res.Thresholds) != 4 || res.Thresholds[2].RunsPerSide != 4 || len(res.RunsNeeded) != 3 {
		t.Errorf("default ks and drops not listed: %+v %+v", res.Thresholds, res.RunsNeeded)
	}
	// custom options are used as given
	res = mustCheck(t, mustReadAA(t, aaCSV("110", "011")), nil, Options{Ks: []int{3}, Drops: []float64{0.1, 1}})
	if len(res.Thresholds) != 1 || res.Thresholds[0].RunsPerSide != 3 || len(res.RunsNeeded) != 2 || res.RunsNeeded[1].Drop != 1 {
		t.Errorf("custom options: %+v %+v", res.Thresholds, res.RunsNeeded)
	}
}

func TestAAWarningsAndEmptyLists(t *testing.T) {
	// no noise: empty lists, not null, and a warning
	res := mustCheck(t, mustReadAA(t, aaCSV("1111", "0000")), nil, DefaultOptions)
	var b bytes.Buffer
	core.WriteJSON(&b, res)
	for _, want := range []string{`"thresholds": []`, `"runs_needed": []`, `"trend": null`, `"candidate": null`, `no noise`, `only 4 runs`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
	// two runs: no measured noise, no trend
	res, _ = Check(mustReadAA(t, aaCSV("10", "11", "01")), nil, DefaultOptions)
	if res.Noise.Measured != nil || res.Trend != nil || !strings.Contains(strings.Join(res.Warnings, "\n"), "cannot be measured") {
		t.Errorf("two runs: %+v %+v %q", res.Noise, res.Trend, res.Warnings)
	}
	// ten runs and nothing odd: no warnings, but a non-nil slice
	res, _ = Check(mustReadAA(t, aaCSV("1101101111", "0111011110")), nil, DefaultOptions)
	if res.Warnings == nil || len(res.Warnings) != 0 {
		t.Errorf("clean input: warnings %#v", res.Warnings)
	}
}

func TestAACandidate(t *testing.T) {
	base := mustReadAA(t, aaCSV("1101", "1111", "0110", "1111", "1111"))
	// candidate: s0 and s3 drop by the same amount (a tie, broken by id),
	// s1 drops more; s4 is missing, s9 is new
	cand := mustReadAA(t, "scenario,run,passed\ns3,c1,0\ns9,c1,1\ns2,c1,1\ns1,c1,0\ns0,c1,0\ns3,c2,1\ns1,c2,0\ns0,c2,1\ns2,c2,0\n")
	res := mustCheck(t, base, cand, DefaultOptions)
	c := res.Candidate
	// diffs: s0 1/2-3/4 = -1/4, s1 0-1 = -1, s2 1/2-1/2 = 0, s3 1/2-1 = -1/2
	want := []Drop{{"s1", -1}, {"s3", -0.5}, {"s0", -0.25}, {"s2", 0}}
	if c.Scenarios != 4 || c.Runs != 2 || len(c.LargestDrops) != 4 {
		t.Fatalf("candidate %+v", c)
	}
	for i := range want {
		if c.LargestDrops[i] != want[i] {
			t.Errorf("largest_drops[%d] = %+v, want %+v", i, c.LargestDrops[i], want[i])
		}
	}
	if c.Diff != -0.4375 { // (-1/4 - 1 + 0 - 1/2)/4, exact in binary
		t.Errorf("diff = %v, want -0.4375", c.Diff)
	}
	wantT := ZAlarm * res.Noise.S / math.Sqrt(2) * math.Sqrt(1.0/4+1.0/2)
	if math.Abs(c.Threshold-wantT) > 1e-15 {
		t.Errorf("threshold = %v, want %v", c.Threshold, wantT)
	}
	if (c.Diff < -c.Threshold) != c.Blocks || (c.Verdict == core.VerdictRegression) != c.Blocks {
		t.Errorf("verdict %q blocks %v for diff %v threshold %v", c.Verdict, c.Blocks, c.Diff, c.Threshold)
	}
	w := strings.Join(res.Warnings, "\n")
	if !strings.Contains(w, `1 scenario only in the baseline ("s4")`) || !strings.Contains(w, `1 scenario only in the candidate ("s9")`) {
		t.Errorf("one-side warnings: %q", res.Warnings)
	}

	// ties: eight equal drops and more come out in id order
	var rows []string
	for i := 0; i < 12; i++ {
		rows = append(rows, "11")
	}
	base = mustReadAA(t, aaCSV(rows...))
	var cb strings.Builder
	cb.WriteString("scenario,run,passed\n")
	for i := 11; i >= 0; i-- {
		cb.WriteString("s" + itoa(int64(i)) + ",c,0\n")
	}
	res = mustCheck(t, base, mustReadAA(t, cb.String()), DefaultOptions)
	ids := []string{}
	for _, d := range res.Candidate.LargestDrops {
		ids = append(ids, d.Scenario)
	}
	if got := strings.Join(ids, " "); got != "s0 s1 s10 s11 s2 s3 s4 s5" {
		t.Errorf("tied drops in order %q, want string order of ids", got)
	}
	if res.Candidate.Verdict != core.VerdictRegression || res.Noise.S != 0 || res.Candidate.Threshold != 0 {
		t.Errorf("no noise: any drop is a regression: %+v", res.Candidate)
	}
}

func TestAAErrors(t *testing.T) {
	good := mustReadAA(t, aaCSV("110", "011"))
	cases := []struct {
		name       string
		base, cand *Side
		opt        Options
		kind       core.Kind
		field, msg string
	}{
		{"k zero", good, nil, Options{Ks: []int{1, 0}}, core.Invalid, "ks", "1 or more"},
		{"drop zero", good, nil, Options{Drops: []float64{0}}, core.Invalid, "drops", "(0,1]"},
		{"drop above 1", good, nil, Options{Drops: []float64{1.5}}, core.Invalid, "drops", "(0,1]"},
		{"drop NaN", good, nil, Options{Drops: []float64{math.NaN()}}, core.Invalid, "drops", "(0,1]"},
		{"drop tiny", good, nil, Options{Drops: []float64{1e-9}}, core.Invalid, "drops", "too small"},
		{"no baseline", nil, nil, DefaultOptions, core.Invalid, "baseline", "no baseline"},
		{"empty baseline", mustReadAA(t, "scenario,run,passed\n"), nil, DefaultOptions, core.Unusable, "baseline", "no rows"},
		{"one row", mustReadAA(t, "scenario,run,passed\na,r1,1\na,r2,1\nlonely,r1,0\nb,r1,1\n"), nil, DefaultOptions,
			core.Unusable, "baseline", `scenario "lonely" has 1 row`},
		{"no common scenario", good, mustReadAA(t, "scenario,run,passed\nx,c,1\n"), DefaultOptions, core.Unusable, "candidate", "shares no scenario"},
		{"empty candidate", good, mustReadAA(t, "scenario,run,passed\n"), DefaultOptions, core.Unusable, "candidate", "no rows"},
		{"passed over total", &Side{Scenarios: []Tally{{"a", 3, 2}}, Runs: []Tally{{"r", 3, 2}}, Rows: 2}, nil, DefaultOptions,
			core.Invalid, "baseline", "out of range"},
		{"tallies disagree", &Side{Scenarios: []Tally{{"a", 1, 2}}, Runs: []Tally{{"r", 1, 3}}, Rows: 2}, nil, DefaultOptions,
			core.Invalid, "baseline", "disagree"},
		{"scenario twice", &Side{Scenarios: []Tally{{"a", 1, 2}, {"a", 1, 2}}, Runs: []Tally{{"r", 2, 4}}, Rows: 4}, nil, DefaultOptions,
			core.Invalid, "baseline", "listed twice"},
		{"scenario twice with a candidate", &Side{Scenarios: []Tally{{"a", 1, 2}, {"b", 0, 1}, {"a", 1, 2}}, Runs: []Tally{{"r", 2, 5}}, Rows: 5}, good,
			DefaultOptions, core.Invalid, "baseline", `scenario "a" is listed twice`},
		{"run twice", &Side{Scenarios: []Tally{{"a", 2, 4}}, Runs: []Tally{{"r", 1, 2}, {"r", 1, 2}}, Rows: 4}, nil, DefaultOptions,
			core.Invalid, "baseline", `run "r" is listed twice`},
		{"run without rows", &Side{Scenarios: []Tally{{"a", 1, 2}}, Runs: []Tally{{"r", 1, 2}, {"q", 0, 0}}, Rows: 2}, nil, DefaultOptions,
			core.Invalid, "baseline", "no rows"},
		{"candidate scenario without rows", good, &Side{Scenarios: []Tally{{"s0", 0, 0}}, Runs: []Tally{}}, DefaultOptions,
			core.Invalid, "candidate", "has no rows"},
		{"bad candidate", good, &Side{Scenarios: []Tally{{"a", -1, 2}}}, DefaultOptions, core.Invalid, "candidate", "out of range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Check(c.base, c.cand, c.opt)
			var e *core.Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v (result %+v)", err, res)
			}
			if e.Kind != c.kind || e.Field != c.field || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("got %s %s %q, want %s %s containing %q", e.Kind, e.Field, e.Msg, c.kind, c.field, c.msg)
			}
		})
	}
}

// The O(R log R) trend count against the reference's loop over all pairs,
// with ties, equal rates and thresholds exactly at a difference.
func TestAATrendFastMatchesPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 300; trial++ {
		n := 65 + r.IntN(400)
		total := 1 + r.IntN(250)
		rates := make([]float64, n)
		for i := range rates {
			rates[i] = float64(r.IntN(total+1)) / float64(total)
			if trial%3 == 0 { // a trend
				rates[i] = math.Max(0, math.Min(1, rates[i]*0.3+0.7-float64(i)/float64(4*n)))
			}
		}
		th := []float64{0, 1e-9, 1 / float64(total), r.Float64() * 0.3, 2}[trial%5]
		e1, l1 := aaTrend(rates, th)
		e2, l2 := aaTrendPairs(rates, th)
		if e1 != e2 || l1 != l2 {
			t.Fatalf("trial %d: fast (%d,%d), pairs (%d,%d)", trial, e1, l1, e2, l2)
		}
	}
}

// stat.ExactStdev against Python 3.11's statistics.stdev (values printed with
// repr; tolerance 0) and against a 600-bit big.Float square root of the exact
// variance.
// Same input, same bytes: AA does not depend on map order.
func TestAADeterministic(t *testing.T) {
	base := readAAFile(t, "cand_drop.csv")
	cand := readAAFile(t, "cand_drop_cand.csv")
	var first []byte
	for i := 0; i < 20; i++ {
		res := mustCheck(t, base, cand, DefaultOptions)
		var b bytes.Buffer
		core.WriteJSON(&b, res)
		if i == 0 {
			first = b.Bytes()
		} else if !bytes.Equal(first, b.Bytes()) {
			t.Fatal("two runs of AA wrote different bytes")
		}
	}
}
