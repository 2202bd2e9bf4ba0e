package history

import (
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/coretest"
	"github.com/flakegate/flakegate/internal/testfile"
)

// bigChoose is C(n, k) exactly.
func bigChoose(n, k int64) *big.Rat { return new(big.Rat).SetInt(new(big.Int).Binomial(n, k)) }

// TestBinomialTailExact checks the outage rule's tail against the exact sum
// over the binomial distribution with math/big rationals (p given as a
// fraction). Tolerance: 1e-12 relative.
func TestBinomialTailExact(t *testing.T) {
	for _, tc := range []struct {
		k, n     int64
		pNum, pD int64
	}{{5, 100, 1, 100}, {1, 10, 1, 2}, {30, 4800, 1, 4000}, {7, 1000, 3, 1000}, {50, 60, 9, 10}, {0, 10, 1, 3}, {11, 10, 1, 3}} {
		p := big.NewRat(tc.pNum, tc.pD)
		q := new(big.Rat).Sub(big.NewRat(1, 1), p)
		// 1 - P(X < k), exact in rationals: k terms, not n-k.
		sum := big.NewRat(1, 1)
		for x := int64(0); x < min(tc.k, tc.n+1); x++ {
			term := bigChoose(tc.n, x)
			term.Mul(term, new(big.Rat).SetFrac(new(big.Int).Exp(p.Num(), big.NewInt(x), nil), new(big.Int).Exp(p.Denom(), big.NewInt(x), nil)))
			term.Mul(term, new(big.Rat).SetFrac(new(big.Int).Exp(q.Num(), big.NewInt(tc.n-x), nil), new(big.Int).Exp(q.Denom(), big.NewInt(tc.n-x), nil)))
			sum.Sub(sum, term)
		}
		if tc.k > tc.n {
			sum.SetInt64(0)
		}
		want, _ := sum.Float64()
		got := binomialTail(tc.k, tc.n, float64(tc.pNum)/float64(tc.pD))
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("P(Binom(%d, %d/%d) >= %d) = %v, exact %v", tc.n, tc.pNum, tc.pD, tc.k, got, want)
		}
	}
}

// TestFisherExact checks the trend test: Fisher's tea-tasting table (3 of
// 4 against 1 of 4) has two-sided p = 17/35 (Fisher 1935, The Design of
// Experiments, §2); the other rows are the exact hypergeometric sums with
// math/big. Tolerance: 1e-12 relative.
func TestFisherExact(t *testing.T) {
	if got := fisherTwoSided(3, 4, 1, 4); math.Abs(got-17.0/35) > 1e-12 {
		t.Errorf("tea tasting: p = %v, want 17/35 = %v", got, 17.0/35)
	}
	for _, tc := range [][4]int64{{2, 100, 9, 100}, {0, 300, 6, 300}, {10, 250, 10, 250}, {1, 5, 4, 7}, {40, 2000, 12, 2000}} {
		a, n1, b, n2 := tc[0], tc[1], tc[2], tc[3]
		f, n := a+b, n1+n2
		total := bigChoose(n, f)
		prob := func(x int64) *big.Rat {
			r := new(big.Rat).Mul(bigChoose(n1, x), bigChoose(n2, f-x))
			return r.Quo(r, total)
		}
		obs := prob(a)
		limit := new(big.Rat).Mul(obs, big.NewRat(10000001, 10000000))
		sum := new(big.Rat)
		for x := max(0, f-n2); x <= min(f, n1); x++ {
			if px := prob(x); px.Cmp(limit) <= 0 {
				sum.Add(sum, px)
			}
		}
		want, _ := sum.Float64()
		want = min(want, 1)
		if got := fisherTwoSided(a, n1, b, n2); math.Abs(got-want) > 1e-12*want {
			t.Errorf("Fisher %v: p = %v, exact %v", tc, got, want)
		}
	}
}

// TestRealReports builds a history from two real go test -json runs of the
// seeded suite in core/report's samples (gen.sh ran them) and checks each
// test's runs and failed runs against the counts of go test -v's text of
// the same runs (.expect): a run failed for a test when it passed fewer
// attempts than it had. The runs are put in time order from the streams'
// own Time fields.
func TestRealReports(t *testing.T) {
	dir := "../report/testdata/reports/gotest/"
	h := New()
	want := map[string][2]int64{} // test -> runs, failed runs
	for _, name := range []string{"seed2", "count5"} {
		f, err := os.Open(dir + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		err = h.ReadRun(RunMeta{Name: name, File: name + ".json"}, f, report.Options{})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for test, c := range testfile.Counts(t, dir+name+".expect") {
			w := want[test]
			w[0]++
			if c[0] < c[1] {
				w[1]++
			}
			want[test] = w
		}
	}
	res, err := h.Result(DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if res.Order != "time" || res.Runs != 2 || res.Tests != len(want) {
		t.Fatalf("order %q, %d runs, %d tests; want time, 2, %d", res.Order, res.Runs, res.Tests, len(want))
	}
	got := map[string][2]int64{}
	for _, l := range [][]TestHistory{res.Flakes, res.Broken} {
		for _, th := range l {
			got[th.Test] = [2]int64{th.Runs, th.Failures}
		}
	}
	for test, w := range want {
		if w[1] == 0 {
			if _, listed := got[test]; listed {
				t.Errorf("%s never failed, but is listed", test)
			}
			continue
		}
		if got[test] != w {
			t.Errorf("%s: runs, failed runs = %v, want %v", test, got[test], w)
		}
	}
	if len(res.Incidents) != 0 {
		t.Errorf("incidents in two healthy runs: %+v", res.Incidents)
	}
}

// TestOutageKeptOut: ten runs of 10 tests, one of them (run 7) with 8
// tests failing at once; test a also fails alone in runs 2 and 5. Run 7 is
// an outage (P(Binom(10, 2/90) >= 8) is about 1e-11, far below 0.01/10), a
// is flaky at 2/9 without it and 3/10 with -keep-incidents, and no other
// test is flagged.
func TestOutageKeptOut(t *testing.T) {
	h := New()
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for r := 1; r <= 10; r++ {
		var rs []TestResult
		for i, name := range strings.Split("a b c d e f g h i j", " ") {
			passed := int64(1)
			if (name == "a" && (r == 2 || r == 5)) || (r == 7 && i < 8) {
				passed = 0
			}
			rs = append(rs, TestResult{Test: name, Passed: passed, Trials: 1})
		}
		if err := h.AddRun(RunMeta{Name: "r" + strconv.Itoa(r), Time: start.Add(time.Duration(r) * time.Hour)}, rs); err != nil {
			t.Fatal(err)
		}
	}
	res, err := h.Result(DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Incidents) != 1 || res.Incidents[0].Runs[0].Run != "r7" || res.Incidents[0].FailedTests != 8 {
		t.Fatalf("incidents %+v, want run r7 with 8 failed tests", res.Incidents)
	}
	if len(res.Flakes) != 1 || res.Flakes[0].Test != "a" || res.Flakes[0].Failures != 2 || res.Flakes[0].Runs != 9 || res.Flakes[0].IncidentFailures != 1 {
		t.Fatalf("flakes %+v, want a at 2/9 with 1 incident failure", res.Flakes)
	}
	if res.Naive != 8 {
		t.Errorf("naive rule flags %d tests, want 8 (every test that failed in run 7)", res.Naive)
	}
	o := DefaultOptions
	o.KeepIncidents = true
	kept, err := h.Result(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept.Flakes) != 8 || kept.Flakes[0].Test != "a" || kept.Flakes[0].Failures != 3 || kept.Flakes[0].Runs != 10 {
		t.Errorf("with incidents kept: %d flakes, first %+v; want 8, a at 3/10", len(kept.Flakes), kept.Flakes[0])
	}
}

// TestReportMeta reads the run's time from the head of real samples of
// each format that carries one (the values are in the files).
func TestReportMeta(t *testing.T) {
	dir := "../report/testdata/reports/"
	for _, tc := range []struct{ file, want string }{
		{"junit/pytest7_xunit1.xml", "2026-12-02T09:50:50.561877Z"},
		{"trx/vstest.trx", "2026-12-02T10:00:00Z"},
		{"gotest/count5.json", "2026-12-01T20:26:31.643648449Z"},
		{"playwright/playwright.json", "2026-12-02T09:48:15.607Z"},
		{"ctrf/jest-ctrf.json", time.UnixMilli(1796204682346).UTC().Format(time.RFC3339Nano)},
		{"nunit/nunit3.xml", "2026-12-02T10:00:00Z"},
	} {
		data, err := os.ReadFile(dir + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		got := ReportMeta(data[:min(len(data), metaBytes)]).Time.Format(time.RFC3339Nano)
		if got != tc.want {
			t.Errorf("%s: time %s, want %s", tc.file, got, tc.want)
		}
	}
	m := ReportMeta([]byte(`{"results":{"environment":{"commit":"abc123","branchName":"main","buildName":"ci-7"}}}`))
	if m.Commit != "abc123" || m.Branch != "main" || m.Job != "ci-7" {
		t.Errorf("CTRF environment: %+v", m)
	}
}

// TestManifest reads a manifest and refuses bad ones with line and column.
func TestManifest(t *testing.T) {
	m, err := ReadManifest(strings.NewReader("\ufeffrun,file,commit,time\n7,ci/r7.xml,abc,2026-12-01T10:00:00Z\n8,r8.xml,abd,1796204682346\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := m.Lookup("artifacts/ci/r7.xml")
	if !ok || r.Name != "7" || r.Commit != "abc" || r.Time.Format(time.RFC3339) != "2026-12-01T10:00:00Z" {
		t.Errorf("lookup r7: %+v %v", r, ok)
	}
	if _, ok := m.Lookup("r9.xml"); ok {
		t.Error("found r9.xml, which the manifest does not list")
	}
	for _, tc := range []struct{ in, want string }{
		{"", "1:1: the manifest is empty"},
		{"run,commit\n1,a\n", "1:1: the manifest has no file column"},
		{"file,time\na.xml,yesterday\n", "2:7: time must be RFC 3339"},
		{"file\na.xml\na.xml\n", "3:1: the manifest lists \"a.xml\" twice"},
		{"file\n\"a.xml\n", "the manifest is not valid CSV"},
	} {
		_, err := ReadManifest(strings.NewReader(tc.in))
		coretest.Refused(t, err, tc.want, tc.in)
	}
}

// FuzzManifest: any bytes give a manifest or a *core.Error, never a panic.
func FuzzManifest(f *testing.F) {
	f.Add([]byte("file,run,commit,branch,time,job\na.xml,1,c,main,2026-12-01,ci\n"))
	f.Add([]byte("file\n\"a"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadManifest(strings.NewReader(string(data)))
		if err == nil && m == nil {
			t.Fatal("no manifest and no error")
		}
		if err != nil {
			if _, ok := err.(*core.Error); !ok {
				t.Fatalf("error %T %v is not a *core.Error", err, err)
			}
		}
	})
}

// FuzzReportMeta: any head gives a RunMeta, never a panic.
func FuzzReportMeta(f *testing.F) {
	f.Add([]byte(`<testsuite timestamp="2026-12-01T10:00:00">`))
	f.Add([]byte(`{"start": 1796204682346, "commit": "x"}`))
	f.Fuzz(func(t *testing.T, data []byte) { ReportMeta(data) })
}
