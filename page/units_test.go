package page

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/page/fieldcheck"
	"github.com/flakegate/flakegate/share"
	"github.com/flakegate/flakegate/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestFragmentState(t *testing.T) {
	s := newFormState(budgetFields)
	if f := s.fragment(budgetFields); f != "cap=3&confidence=0.95&rates=0.05%2C0.02%2C0.01&target=0.95&v=2" {
		t.Errorf("defaults give fragment %q, want every input with text and the version", f)
	}
	s["rates"] = "0.05, 0.02"
	s["observe"] = "1/120"
	s["cost"] = ""
	s["target"] = ""
	frag := s.fragment(budgetFields)
	// url.Values sorts keys: the same state is always the same link.
	if frag != "cap=3&confidence=0.95&observe=1%2F120&rates=0.05%2C+0.02&v=2" {
		t.Errorf("fragment %q", frag)
	}
	back := applyFragment(budgetFields, frag)
	for k, v := range s {
		if back[k] != v {
			t.Errorf("%s: %q after the round trip, want %q", k, back[k], v)
		}
	}
	// Through a URL, as the browser holds it, in either form.
	u, _ := url.Parse("http://127.0.0.1:8080/")
	for _, private := range []bool{false, true} {
		u2, err := url.Parse(withState(u, frag, private).String())
		if err != nil {
			t.Fatal(err)
		}
		if got := applyFragment(budgetFields, fragmentOf(u2)); got["rates"] != "0.05, 0.02" || (u2.RawQuery == "") != private {
			t.Errorf("through a URL (private %v): %v (query %q, fragment %q)", private, got, u2.RawQuery, u2.EscapedFragment())
		}
	}
	// Junk in a fragment is ignored, not fatal.
	if got := applyFragment(budgetFields, "%zz&cap=7&unknown=1"); got["cap"] != "7" || got["target"] != "0.95" {
		t.Errorf("junk fragment gave %v", got)
	}
}

func sampleSide(t testing.TB, csv string) *aa.Side {
	t.Helper()
	s, err := aa.ReadCSV(strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAAShareRoundTrip(t *testing.T) {
	base := sampleSide(t, aaCSV(200, 10, func(s, r int) bool { return (s*31+r*17)%23 == 0 }))
	cand := sampleSide(t, aaCSV(200, 3, func(s, r int) bool { return (s+r)%7 == 0 }))
	enc, err := share.EncodeAA(AAShare{Baseline: base, Candidate: cand})
	if err != nil {
		t.Fatal(err)
	}
	// Same statistics, same link bytes.
	enc2, _ := share.EncodeAA(AAShare{Baseline: base, Candidate: cand})
	if enc != enc2 {
		t.Error("encoding is not deterministic")
	}
	if strings.ContainsAny(enc, "+/=%#&") {
		t.Errorf("encoding is not fragment-safe: %q", enc[:40])
	}
	back, err := share.DecodeAA(enc)
	if err != nil {
		t.Fatal(err)
	}
	// Every A/A figure is reproduced exactly: same JSON bytes.
	r1, _ := aa.Check(base, cand, aa.DefaultOptions)
	r2, _ := aa.Check(back.Baseline, back.Candidate, aa.DefaultOptions)
	if a, b := jsonOf(t, r1), jsonOf(t, r2); !bytes.Equal(a, b) {
		t.Errorf("results differ after the link:\n%s\n%s", a, b)
	}
	t.Logf("200 scenarios × 10 runs + 3 candidate runs: %d bytes of fragment", len(enc))
	if len(enc) > MaxShareFragment {
		t.Errorf("a 200-scenario suite should fit a link, took %d bytes", len(enc))
	}
}

func TestAAShareRejects(t *testing.T) {
	good, _ := share.EncodeAA(AAShare{Baseline: &aa.Side{Scenarios: []aa.Tally{{ID: "a", Passed: 1, Total: 2}}}})
	for name, text := range map[string]string{
		"not base64":   "***",
		"not deflate":  "aGVsbG8",
		"truncated":    good[:len(good)/2],
		"bad tally":    mustEncodeJSON(t, `{"v":1,"baseline":{"scenarios":[{"id":"a","passed":3,"total":2}],"runs":[],"rows":2,"duplicates":0}}`),
		"no baseline":  mustEncodeJSON(t, `{"v":1}`),
		"version":      mustEncodeJSON(t, `{"v":2,"baseline":{"scenarios":[],"runs":[],"rows":0,"duplicates":0}}`),
		"unknown keys": mustEncodeJSON(t, `{"v":1,"baseline":{"scenarios":[],"runs":[],"rows":0,"duplicates":0},"x":1}`),
	} {
		if _, err := share.DecodeAA(text); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func mustEncodeJSON(t testing.TB, js string) string {
	if !json.Valid([]byte(js)) {
		t.Fatalf("test JSON is not valid: %s", js)
	}
	return rawEncode(js)
}

func rawEncode(js string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(js))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func FuzzDecodeAAShareText(f *testing.F) {
	good, _ := share.EncodeAA(AAShare{Baseline: &aa.Side{
		Scenarios: []aa.Tally{{ID: "a", Passed: 1, Total: 2}}, Runs: []aa.Tally{{ID: "r1", Passed: 1, Total: 2}}, Rows: 2}})
	for _, s := range []string{good, "", "***", "aGVsbG8", good[:5], rawEncode(`{"v":1,"baseline":null}`)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := share.DecodeAA(text)
		if err != nil {
			return
		}
		// Whatever decodes must be safe to compute with, and re-encode to
		// the same statistics.
		aa.Check(s.Baseline, s.Candidate, aa.DefaultOptions)
		enc, err := share.EncodeAA(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := share.DecodeAA(enc)
		if err != nil {
			t.Fatalf("re-encoded share does not decode: %v", err)
		}
		if !bytes.Equal(ShareJSON(back), ShareJSON(s)) {
			t.Fatal("re-encoded share differs")
		}
	})
}

func FuzzFormParsers(f *testing.F) {
	for _, s := range []string{"0.95", "95%", "", " 1e-3 ", "x", "-0", "1/120", "NaN", "Inf", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st := newFormState(budgetFields)
		st["target"], st["cost"], st["cap"] = s, s, s
		res, err := budgetFrom(st)
		if (res == nil) == (err == nil) {
			t.Fatalf("result %v with error %v", res, err)
		}
		// Every fault names its field, once.
		seen := map[string]bool{}
		for _, e := range errorList(err) {
			f := errField(e)
			if f == "" || seen[f] {
				t.Fatalf("error names no field or a field twice: %v", err)
			}
			seen[f] = true
		}
		if _, err := BudgetInputFrom(st); err != nil && errField(err) == "" {
			t.Fatalf("parse error without a field: %v", err)
		}
	})
}

// The plots are part of the page bytes: golden files pin them, so a change
// is seen in review. Regenerate with: go test ./wasm -run Plot -update
func TestPlotGolden(t *testing.T) {
	cost := 8.0
	b, _ := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, CostSeconds: &cost,
		Rates: []float64{0.05, 0.02, 0.01}, Observed: &core.Count{Passed: 1, Trials: 120}})
	d, _ := gate.Decide(gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown})
	aa, err := aa.Check(sampleSide(t, aaCSV(30, 9, func(s, r int) bool { return (s*7+r*r)%10 == 0 })), nil, aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	for name, svg := range map[string]string{"power.svg": PowerPlot(b), "intervals.svg": IntervalPlot(d), "runs.svg": RunPlot(aa, nil, RunPlotWide), "runs-narrow.svg": RunPlot(aa, nil, RunPlotNarrow)} {
		p := filepath.Join("testdata", name)
		if *update {
			os.WriteFile(p, []byte(svg), 0o644)
		}
		want, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if svg != string(want) {
			t.Errorf("%s differs from the golden file (rerun with -update after checking it)", name)
		}
		if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") || strings.Contains(svg, "style=") {
			t.Errorf("%s has a NaN, an Inf or an inline style", name)
		}
	}
}

func TestFitTrend(t *testing.T) {
	// rates 0.9, 0.8, 0.7: slope exactly -0.1 per run (up to rounding, 1e-12).
	tr := FitTrend([]aa.RunRate{{Rate: 0.9}, {Rate: 0.8}, {Rate: 0.7}})
	if math.Abs(tr.Slope+0.1) > 1e-12 || math.Abs(tr.Intercept-0.9) > 1e-12 {
		t.Errorf("trend %+v", tr)
	}
	if tr := FitTrend([]aa.RunRate{{Rate: 0.5}}); tr.Slope != 0 || tr.Intercept != 0.5 {
		t.Errorf("one run: %+v", tr)
	}
}

func Example_aaShare() {
	side := &aa.Side{
		Scenarios: []aa.Tally{{ID: "login", Passed: 2, Total: 3}, {ID: "search", Passed: 3, Total: 3}},
		Runs:      []aa.Tally{{ID: "r1", Passed: 2, Total: 2}, {ID: "r2", Passed: 1, Total: 2}, {ID: "r3", Passed: 2, Total: 2}},
		Rows:      6,
	}
	enc, _ := share.EncodeAA(AAShare{Baseline: side})
	back, _ := share.DecodeAA(enc)
	fmt.Println(back.Baseline.Scenarios[0].ID, back.Baseline.Scenarios[0].Passed, back.Baseline.Scenarios[0].Total)
	// Output: login 2 3
}

func TestGenericFieldsReadBack(t *testing.T) {
	// Whatever shape a further figure has, the page shows every leaf at its
	// JSON path: nested objects, lists of flat objects (as a table), lists
	// of numbers, nulls and booleans.
	doc := []byte(`{"extra":{"a":1.5,"list":[{"id":"s1","rate":0.25,"ok":true},{"id":"s2","rate":null,"ok":false}],"nums":[1,2.5],"nested":{"x":"y"}}}`)
	var m map[string]json.RawMessage
	json.Unmarshal(doc, &m)
	html := app.HTMLString(app.Div().Body(genericField("extra", m["extra"])))
	page, err := fieldcheck.FromHTML(html)
	if err != nil {
		t.Fatal(err)
	}
	diffs, err := fieldcheck.Diff(page, "", doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	if !strings.Contains(html, "<table") {
		t.Error("a list of flat objects is not a table")
	}
}

// The A/A page derives its plot, Markdown and further figures once per
// result: the same result gives the cached values, a new one rebuilds them.
func TestAADerivedPerResult(t *testing.T) {
	r1, err := aa.Check(sampleSide(t, aaCSV(30, 9, func(s, r int) bool { return (s*7+r*r)%10 == 0 })), nil, aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := aa.Check(sampleSide(t, aaCSV(20, 6, func(s, r int) bool { return (s+r)%4 == 0 })), nil, aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	var c AA
	d := c.derive(r1)
	if d.runPlot != RunPlot(r1, nil, RunPlotWide) || d.markdown != words.AAMarkdown(r1, words.Link{}) {
		t.Fatal("derived plot or Markdown differs from a fresh build")
	}
	keys := append([]string(nil), d.keys...)
	if len(keys) == 0 {
		t.Fatal("no further figures derived")
	}
	if again := c.derive(r1); again.runPlot != d.runPlot || fmt.Sprint(again.keys) != fmt.Sprint(keys) {
		t.Fatal("second derive of the same result changed")
	}
	d2 := c.derive(r2)
	if d2.res != r2 || d2.runPlot != RunPlot(r2, nil, RunPlotWide) || d2.markdown != words.AAMarkdown(r2, words.Link{}) {
		t.Fatal("a new result kept the old derived values")
	}
	if d2.runPlot == RunPlot(r1, nil, RunPlotWide) {
		t.Fatal("test results should differ")
	}
}

// Thirty rates: every legend line lies inside the plot's viewBox, the k
// labels (which would pile up) are left out, and past six curves the
// colours come back dashed.
func TestPowerPlotManyRates(t *testing.T) {
	var rates []float64
	for i := 1; i <= 30; i++ {
		rates = append(rates, 0.00011*float64(i))
	}
	r, err := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: rates})
	if err != nil {
		t.Fatal(err)
	}
	svg := PowerPlot(r)
	m := regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no viewBox:\n%s", svg)
	}
	h, _ := strconv.ParseFloat(m[2], 64)
	texts := regexp.MustCompile(`<text [^>]*y="([0-9.-]+)"[^>]*>p = `).FindAllStringSubmatch(svg, -1)
	if len(texts) != 30 {
		t.Fatalf("%d legend labels, want 30", len(texts))
	}
	for _, tm := range texts {
		if y, _ := strconv.ParseFloat(tm[1], 64); y <= 0 || y > h-4 {
			t.Errorf("legend label at y %v outside the viewBox height %v", y, h)
		}
	}
	if strings.Contains(svg, ">k=") {
		t.Error("k labels drawn for 30 curves")
	}
	if !strings.Contains(svg, "pl-series0 pl-dash1") || !strings.Contains(svg, "pl-series5 pl-dash2") {
		t.Error("curves past the sixth are not dashed")
	}
}
