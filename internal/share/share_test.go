package share

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/param"
)

func f64(v float64) *float64 { return &v }

// The fragments are the ones the page writes for the same form: every
// input with text, at its default or not, and the format's version (the
// form text of docs/WEB.md's example link, "cap=5&observe=1%2F120&rates=...");
// wasm's tests read each back through the page's own parser.
func TestBudgetAndDecideFragments(t *testing.T) {
	d := gate.DefaultBudgetInput
	for _, c := range []struct {
		name string
		in   gate.BudgetInput
		want string
	}{
		{"the form's defaults", gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: []float64{0.05, 0.02, 0.01}},
			"cap=3&confidence=0.95&rates=0.05%2C0.02%2C0.01&target=0.95&v=2"},
		{"WEB.md's example", gate.BudgetInput{Target: d.Target, Cap: 5, Confidence: d.Confidence, Rates: []float64{0.05, 0.02},
			Observed: &core.Count{Passed: 1, Trials: 120}}, "cap=5&confidence=0.95&observe=1%2F120&rates=0.05%2C0.02&target=0.95&v=2"},
		// No rates: a versioned link leaves them out, and they are none.
		{"observed only", gate.BudgetInput{Target: 0.9, Cap: 0, Confidence: 0.99, CostSeconds: f64(8), Observed: &core.Count{Passed: 2, Trials: 40}},
			"cap=0&confidence=0.99&cost=8&observe=2%2F40&target=0.9&v=2"},
		{"exact forms", gate.BudgetInput{Target: 0.999999999, Cap: 3, Confidence: 0.95, CostSeconds: f64(0.1), Rates: []float64{1e-05, 1}},
			"cap=3&confidence=0.95&cost=0.1&rates=1e-05%2C1&target=0.999999999&v=2"},
	} {
		v := Budget(c.in)
		if v.Path != BudgetPath || v.Fragment != c.want || !v.Linked() {
			t.Errorf("%s: %+v, want fragment %q", c.name, v, c.want)
		}
	}
	in := gate.DecideInput{Baseline: core.Count{Passed: 30, Trials: 60}, Patched: core.Count{Passed: 51, Trials: 60},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyPassed}
	v, err := Decide(in, nil)
	if err != nil || v.Path != DecidePath || v.Fragment != "baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed&v=2" {
		t.Errorf("decide: %+v %v", v, err)
	}
}

func TestDecideLedger(t *testing.T) {
	s := &ledger.Summary{Runs: ledger.RunCounts{Baseline: 1, Patched: 1}, Tests: []ledger.TestCounts{
		{NodeID: "t", Baseline: core.Count{Passed: 1, Trials: 2}, Patched: core.Count{Passed: 2, Trials: 2}}}}
	v, err := Ledger(s, ledger.Options{MinTrials: 2, Confidence: 0.9, Property: core.PropertyUnknown})
	if err != nil {
		t.Fatal(err)
	}
	q, err := url.ParseQuery(v.Fragment)
	if err != nil || q.Get("min_trials") != "2" || q.Get("confidence") != "0.9" || q.Has("baseline") || q.Has("patched") || q.Get("v") != FormVersion || q.Get("ledger") == "" || v.Left != "" {
		t.Errorf("ledger view %+v (%v)", v, err)
	}
	// Keys stay sorted with the ledger among them, as url.Values writes
	// them; the ledger's tests are judged, not the form's two counts.
	if !strings.HasPrefix(v.Fragment, "confidence=0.9&ledger=") {
		t.Errorf("fragment %q", v.Fragment)
	}
	// A summary past the limit leaves the link with the settings only.
	for i := 0; i < 2000; i++ {
		s.Tests = append(s.Tests, ledger.TestCounts{NodeID: fmt.Sprintf("pkg/test_%06d_%x", i, i*7919), Baseline: core.Count{Passed: int64(i % 7), Trials: 9}})
	}
	v, err = Ledger(s, ledger.DefaultOptions)
	if err != nil || v.Left != LeftLedger || v.LeftBytes <= MaxFragment || !v.Linked() ||
		v.URL("https://x.example") != "https://x.example/decide?baseline=10%2F20&confidence=0.95&min_trials=20&patched=17%2F20&property=unknown&v=2" {
		t.Errorf("long ledger: %+v %v", v, err)
	}
}

// A sizing opens the decide view at counts whose rates, divided as the
// page divides them, are the sizing's rates: 0.5 and 0.85 are 10/20 and
// 17/20, the form's defaults (docs/STATISTICS.md's example, 28 trials per arm).
func TestSizeView(t *testing.T) {
	const rest = "confidence=0.95&min_trials=20&patched=17%2F20&property=unknown&v=2&view=size"
	for _, c := range []struct {
		b, p float64
		want string
		left string
	}{
		{0.5, 0.85, "baseline=10%2F20&" + rest, ""},
		{0.123, 0.5, "baseline=123%2F1000&confidence=0.95&min_trials=20&patched=500%2F1000&property=unknown&v=2&view=size", ""},
		{0, 1, "baseline=0%2F20&confidence=0.95&min_trials=20&patched=20%2F20&property=unknown&v=2&view=size", ""},
		{0.05, 0.25, "baseline=1%2F20&confidence=0.95&min_trials=20&patched=5%2F20&property=unknown&v=2&view=size", ""},
		{1.0 / 3, 0.5, "", LeftRates}, // 0.3333333333333333: 16 digits, beyond 2^53 trials
		{1e-300, 0.5, "", LeftRates},
	} {
		v := Size(gate.SizeInput{Baseline: c.b, Patched: c.p, Confidence: 0.95})
		if v.Fragment != c.want || v.Left != c.left || v.Path != DecidePath {
			t.Errorf("size %v %v: %+v, want %q left %q", c.b, c.p, v, c.want, c.left)
		}
	}
	if v := Size(gate.SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: 0.99}); v.Fragment != "baseline=10%2F20&confidence=0.99&min_trials=20&patched=17%2F20&property=unknown&v=2&view=size" {
		t.Errorf("confidence: %q", v.Fragment)
	}
}

// A sizing's link says it is one (view=size) and still holds the decide
// form's text, which ReadForm reads back as written; a decision's, a
// frozen claim's and a first-format link are not sizing views.
func TestSizeViewRoundTrip(t *testing.T) {
	v := Size(gate.SizeInput{Baseline: 0.05, Patched: 0.25, Confidence: 0.9})
	if !IsSizeView(v.Fragment) {
		t.Errorf("size link %q is not a sizing view", v.Fragment)
	}
	got := ReadForm(FormFields("baseline", "patched", "min_trials", "confidence", "property"), v.Fragment)
	want := map[string]string{"baseline": "1/20", "patched": "5/20", "min_trials": "20", "confidence": "0.9", "property": "unknown"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("size link reads back as %v, want %v", got, want)
	}
	u, err := url.Parse(v.QueryURL("https://example.com"))
	if err != nil || !IsSizeView(u.RawQuery) || u.Path != DecidePath {
		t.Errorf("query link %v (%v) lost the sizing view", u, err)
	}
	d, _ := Decide(gate.DefaultDecideInput, nil)
	for _, frag := range []string{d.Fragment, Freeze(gate.FreezeInput{Claim: core.Count{Passed: 9, Trials: 10}, Confidence: 0.95}).Fragment,
		"baseline=10%2F20&patched=17%2F20", "", "view=decide"} {
		if IsSizeView(frag) {
			t.Errorf("%q read as a sizing view", frag)
		}
	}
}

func TestFreezeView(t *testing.T) {
	in := gate.FreezeInput{Claim: core.Count{Passed: 57, Trials: 60}, Newer: &core.Count{Passed: 40, Trials: 60}, Confidence: 0.95, Comparable: 0.5}
	if v := Freeze(in); v.Fragment != "baseline=57%2F60&confidence=0.95&min_trials=20&patched=40%2F60&property=unknown&v=2" {
		t.Errorf("%+v", v)
	}
	in.Newer = nil
	if v := Freeze(in); v.Fragment != "baseline=57%2F60&confidence=0.95&min_trials=20&patched=57%2F60&property=unknown&v=2" {
		t.Errorf("%+v", v)
	}
}

func TestAAView(t *testing.T) {
	side := &aa.Side{Scenarios: []aa.Tally{{ID: "a", Passed: 1, Total: 2}}, Runs: []aa.Tally{{ID: "r1", Passed: 1, Total: 2}}, Rows: 2}
	v, err := AA(side, nil, aa.DefaultOptions)
	if err != nil || !strings.HasPrefix(v.Fragment, "aa=") || v.URL("https://x.example/tools/") != "https://x.example/tools/aa?"+v.Fragment {
		t.Errorf("%+v %v", v, err)
	}
	big := &aa.Side{}
	for i := 0; i < 5000; i++ {
		id := fmt.Sprintf("scenario-%d-%x", i, i*104729)
		big.Scenarios = append(big.Scenarios, aa.Tally{ID: id, Passed: int64(i % 3), Total: 3})
	}
	v, err = AA(big, nil, aa.DefaultOptions)
	if err != nil || v.Left != LeftStatistics || v.LeftBytes <= MaxFragment || v.Linked() || v.URL("https://x.example") != "" {
		t.Errorf("long statistics: %+v %v", v, err)
	}
	if _, err := AA(nil, side, aa.DefaultOptions); err == nil {
		t.Error("no baseline, no error")
	}
}

func TestParseSite(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://flakegate.example", "https://flakegate.example"},
		{"https://flakegate.example/", "https://flakegate.example"},
		{" http://127.0.0.1:8080/ ", "http://127.0.0.1:8080"},
		{"https://example.com/tools/flakegate//", "https://example.com/tools/flakegate"},
		{"http://[::1]:8787", "http://[::1]:8787"},
		{"ftp://x", ""},
		{"flakegate.example", ""},
		{"https://", ""},
		{"https://u:p@x.example", ""},
		{"https://x.example/?a=1", ""},
		{"https://x.example/#cap=5", ""},
		{"https://x.example/?", ""},
		{"javascript:alert(1)", ""},
		{"", ""},
	} {
		got, err := ParseSite(c.in)
		if got != c.want || (err == nil) != (c.want != "") {
			t.Errorf("ParseSite(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// FuzzParseSite: whatever it accepts is an http(s) address that parses
// back to itself, and a view's link on it is a URL whose query is the
// view's state, and its fragment link one whose fragment is.
func FuzzParseSite(f *testing.F) {
	for _, s := range []string{"https://flakegate.example", "http://127.0.0.1:8080/", "https://a.b/c/", "https://x/#y", "http://[::1]", "https://%41.example/%2f"} {
		f.Add(s)
	}
	frag := Budget(gate.BudgetInput{Target: 0.9, Cap: 5, Confidence: 0.95, Rates: []float64{0.05}}).Fragment
	f.Fuzz(func(t *testing.T, s string) {
		site, err := ParseSite(s)
		if err != nil {
			return
		}
		again, err := ParseSite(site)
		if err != nil || again != site {
			t.Fatalf("%q gave %q, which gives %q, %v", s, site, again, err)
		}
		v := View{Path: BudgetPath, Fragment: frag}
		u, err := url.Parse(v.URL(site))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != frag || u.Fragment != "" {
			t.Fatalf("%q: link %v, %v", site, u, err)
		}
		u, err = url.Parse(v.FragmentURL(site))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.EscapedFragment() != frag || u.RawQuery != "" {
			t.Fatalf("%q: fragment link %v, %v", site, u, err)
		}
	})
}

func ExampleBudget() {
	in := gate.DefaultBudgetInput
	in.Cap, in.Rates = 5, []float64{0.05, 0.02}
	in.Observed = &core.Count{Passed: 1, Trials: 120}
	site, _ := ParseSite("https://flakegate.example/")
	fmt.Println(Budget(in).URL(site))
	// Output: https://flakegate.example/?cap=5&confidence=0.95&observe=1%2F120&rates=0.05%2C0.02&target=0.95&v=2
}

// A link of the first format (no version) left out every input at its
// default of the time; it keeps opening with those defaults after a
// default changes. The test changes gate's defaults as a new release would
// (the schema reads them when asked); the expected inputs are the link's
// own text and the first format's defaults written in BudgetFields.
func TestFirstFormatLinksKeepTheirMeaning(t *testing.T) {
	old := gate.DefaultBudgetInput
	gate.DefaultBudgetInput.Target, gate.DefaultBudgetInput.Cap = 0.9, 5
	defer func() { gate.DefaultBudgetInput = old }()
	if d := param.Budget.DefaultOf("cap"); d != "5" {
		t.Fatalf("the hook did not change the default: cap %q", d)
	}
	fields := FormFields("target", "cost", "cap", "rates", "observe", "confidence", "runner", "setting")
	// docs/WEB.md's example link, as the first format wrote it.
	in, err := param.Budget.Parse(ReadForm(fields, "cap=5&observe=1%2F120&rates=0.05%2C0.02"))
	want := gate.BudgetInput{Target: 0.95, Cap: 5, Rates: []float64{0.05, 0.02}, Observed: &core.Count{Passed: 1, Trials: 120}, Confidence: 0.95}
	if err != nil || !reflect.DeepEqual(in, want) {
		t.Errorf("first-format link: %+v, %v; want %+v", in, err, want)
	}
	in, err = param.Budget.Parse(ReadForm(fields, "rates=0.02"))
	if err != nil || in.Target != 0.95 || in.Cap != 3 {
		t.Errorf("first-format link without cap or target: %+v, %v; want the cap of 3 and the target of 95%% it was made with", in, err)
	}
	// A link written today holds every input, so it opens to the same
	// input whatever the defaults become.
	today := gate.BudgetInput{Target: 0.9, Cap: 5, Rates: []float64{0.02}, Confidence: 0.95}
	frag := Budget(today).Fragment
	gate.DefaultBudgetInput = old
	back, err := param.Budget.Parse(ReadForm(fields, frag))
	if err != nil || !reflect.DeepEqual(back, today) {
		t.Errorf("versioned link %q: %+v, %v; want %+v", frag, back, err, today)
	}
	// A versioned link that leaves an optional input out has none.
	if got := ReadForm(fields, "rates=0.02&v=2"); got["cap"] != "" || got["rates"] != "0.02" {
		t.Errorf("versioned link: %v", got)
	}
}

// The links share writes, it reads back: an A/A state and a ledger's
// summary decode to what was encoded (the page's tests hold the figures
// they give), and a damaged link is refused in words.
func TestDecodeWhatIsEncoded(t *testing.T) {
	side := &aa.Side{Scenarios: []aa.Tally{{ID: "s", Passed: 1, Total: 2}}, Runs: []aa.Tally{{ID: "r", Passed: 1, Total: 2}}, Rows: 2}
	enc, err := EncodeAA(AAState{Baseline: side})
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeAA(enc)
	if err != nil || back.Version != AAVersion || !reflect.DeepEqual(back.Baseline, side) || back.Candidate != nil ||
		!reflect.DeepEqual(back.Options, AAOptionsText(param.AA.Default())) {
		t.Errorf("A/A state: %+v, %v", back, err)
	}
	sum := &ledger.Summary{Runs: ledger.RunCounts{Baseline: 1, Patched: 1}, Tests: []ledger.TestCounts{
		{NodeID: "t", Baseline: core.Count{Passed: 1, Trials: 2}, Patched: core.Count{Passed: 2, Trials: 2}}}}
	enc, err = EncodeLedger(sum)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeLedger(enc)
	if err != nil || !reflect.DeepEqual(got.Tests, sum.Tests) || got.Runs != sum.Runs {
		t.Errorf("ledger summary: %+v, %v", got, err)
	}
	if _, err := DecodeAA("not base64!"); err == nil || !strings.Contains(err.Error(), "holds a character no link writes") {
		t.Errorf("damaged link: %v", err)
	}
}

// TestLinkForms: the same state after "#" (no server receives it) or "?"
// (the server renders it), the site's trailing slash dropped; no link for
// a view that has none.
func TestLinkForms(t *testing.T) {
	v := View{Path: DecidePath, Fragment: "baseline=1%2F2&v=2"}
	if got := v.FragmentURL("https://x.example/"); got != "https://x.example/decide#baseline=1%2F2&v=2" {
		t.Errorf("FragmentURL %q", got)
	}
	if got := v.QueryURL("https://x.example"); got != "https://x.example/decide?baseline=1%2F2&v=2" {
		t.Errorf("QueryURL %q", got)
	}
	if got := (View{Path: AAPath, Left: LeftStatistics}).QueryURL("https://x.example"); got != "" {
		t.Errorf("a view without a link: %q", got)
	}
}
