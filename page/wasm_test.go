package page

import (
	"bytes"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/page/fieldcheck"
	"github.com/flakegate/flakegate/share"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func TestBudgetPageShowsEveryFigure(t *testing.T) {
	c := &budgetT{}
	e := load(t, c)
	// The defaults: 95% target, cap 3, rates 0.05,0.02,0.01.
	want, err := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 3, Confidence: 0.95, Rates: []float64{0.05, 0.02, 0.01}})
	if err != nil {
		t.Fatal(err)
	}
	page := checkPage(t, c, "", want)
	// docs/STATISTICS.md's reruns for 95% detection: 0.05 → 59, 0.02 → 149, 0.01 → 299.
	for i, k := range []string{"59", "149", "299"} {
		if got := page["rows."+string(rune('0'+i))+".reruns"]; got != k {
			t.Errorf("row %d reruns = %q, want %s", i, got, k)
		}
	}

	// Typing: an observed history, a cost and a new cap.
	typeInto(t, e, c, "observe", "1/120", "cost", "8", "cap", "5")
	cost := 8.0
	want, err = gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 5, Confidence: 0.95, CostSeconds: &cost,
		Rates: []float64{0.05, 0.02, 0.01}, Observed: &core.Count{Passed: 1, Trials: 120}})
	if err != nil {
		t.Fatal(err)
	}
	page = checkPage(t, c, "", want)
	// docs/STATISTICS.md: the Wilson upper bound of 1/120 is 0.04570 (4 significant
	// digits, so a tolerance of 5e-6).
	if u, err := strconv.ParseFloat(page["observed.upper"], 64); err != nil || math.Abs(u-0.04570) > 5e-6 {
		t.Errorf("observed upper = %s, want 0.04570 ± 5e-6", page["observed.upper"])
	}
	// The URL holds the state, in the fragment only.
	u := c.ctx.Page().URL()
	if u.RawQuery != "" || !strings.Contains(u.Fragment, "observe=1/120") || !strings.Contains(u.Fragment, "cap=5") {
		t.Errorf("URL after typing = %s", u)
	}
}

func TestBudgetErrorAtField(t *testing.T) {
	c := &budgetT{}
	e := load(t, c)
	for _, tc := range []struct{ key, value, msg string }{
		{"target", "1.5", "must be in (0,1)"},
		{"target", "9x", `&#34;9x&#34; is not a number: write a number such as 0.05 or 5e-2, with nothing after it`}, // a single value: no column
		{"cap", "-1", "must not be negative"},
		{"rates", "0.05,abc", "column"},
		{"observe", "130/120", "observe"},
	} {
		typeInto(t, e, c, "target", "0.95", "cap", "3", "rates", "0.05", "observe", "", tc.key, tc.value)
		if c.Result() != nil {
			t.Errorf("%s=%q: a result is shown for invalid input", tc.key, tc.value)
		}
		html := app.HTMLString(c)
		page, _ := fieldcheck.FromHTML(html)
		if len(page) != 0 {
			t.Errorf("%s=%q: stale figures on the page: %v", tc.key, tc.value, page)
		}
		if !strings.Contains(html, `data-error="`+tc.key+`"`) {
			t.Errorf("%s=%q: no error at the field in\n%s", tc.key, tc.value, html)
		}
		if !strings.Contains(html, `id="in-`+tc.key+`"`) || !strings.Contains(html, `aria-invalid`) {
			t.Errorf("%s=%q: input not marked invalid", tc.key, tc.value)
		}
		idx := strings.Index(html, `data-error="`+tc.key+`"`)
		if idx >= 0 && !strings.Contains(html[idx:min(len(html), idx+300)], tc.msg) {
			t.Errorf("%s=%q: error does not say %q: %s", tc.key, tc.value, tc.msg, html[idx:min(len(html), idx+300)])
		}
	}
}

func TestBudgetShareLinkRestoresState(t *testing.T) {
	c := &budgetT{}
	e := load(t, c)
	u, _ := url.Parse("/#cap=10&cost=2.5&observe=0%2F10&rates=0.001&target=0.99")
	follow(e, c.ctx, c, u)
	cost := 2.5
	want, err := gate.Budget(gate.BudgetInput{Target: 0.99, Cap: 10, Confidence: 0.95, CostSeconds: &cost,
		Rates: []float64{0.001}, Observed: &core.Count{Passed: 0, Trials: 10}})
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, c, "", want)
	// The inputs show the link's text, and app.TestMatch finds the form.
	html := app.HTMLString(c)
	if !strings.Contains(html, `id="in-target"`) || !strings.Contains(html, `value="0.99"`) {
		t.Errorf("target input does not show the link's value")
	}
	if err := app.TestMatch(c, app.TestUIDescriptor{Path: app.TestPath(0), Expected: app.Div().Class("page")}); err != nil {
		t.Error(err)
	}
}

func TestDecidePage(t *testing.T) {
	c := &decideT{}
	e := load(t, c)
	in := gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown}
	want, err := gate.Decide(in)
	if err != nil {
		t.Fatal(err)
	}
	page := checkPage(t, c, "", want, "size", "ledger")
	size, _ := gate.Size(gate.SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: 0.95})
	checkPage(t, c, "size", size)
	// docs/STATISTICS.md: 0.50 vs 0.85 separate at 28 trials per arm.
	if page["size.trials_per_arm"] != "28" {
		t.Errorf("trials per arm = %q, want 28", page["size.trials_per_arm"])
	}

	typeInto(t, e, c, "baseline", "30/60", "patched", "51/60", "property", "passed")
	in.Baseline, in.Patched, in.Property = core.Count{Passed: 30, Trials: 60}, core.Count{Passed: 51, Trials: 60}, core.PropertyPassed
	want, _ = gate.Decide(in)
	page = checkPage(t, c, "", want, "size", "ledger")
	if page["verdict"] != core.VerdictImproved || page["gate"] != core.GateAccept {
		t.Errorf("verdict %q gate %q, want improved/accept", page["verdict"], page["gate"])
	}

	// A ledger dropped in is tabulated with the form's settings.
	jsonl := repoFile(t, "core/ledger/testdata/ledger/messy.jsonl")
	c.SetLedger(c.ctx, "ledger.jsonl", jsonl)
	settle(e, c.ctx)
	lr := ledgerResult(t, jsonl, ledger.Options{MinTrials: 20, Confidence: 0.95, Property: core.PropertyPassed})
	checkPage(t, c, "ledger", lr)

	// The link carries the ledger's summary: a fresh page opened on it
	// shows the same table; typing keeps it in the link.
	c.SetField(c.ctx, "min_trials", "20")
	link := c.ctx.Page().URL()
	if !strings.Contains(link.Fragment, "ledger=") || !strings.Contains(link.Fragment, "property=passed") {
		t.Fatalf("decide link without the ledger or the form: %s", link)
	}
	d := &decideT{}
	e2 := reopen(t, d, link)
	checkPage(t, d, "ledger", lr)
	// A link whose ledger was damaged says so at the ledger, without a table.
	bad := *link
	bad.Fragment = strings.Replace(link.Fragment, "ledger=", "ledger=x", 1)
	follow(e2, d.ctx, d, &bad)
	if html := app.HTMLString(d); !strings.Contains(html, `data-error="ledger"`) || !strings.Contains(html, "ledger could not be read") || strings.Contains(html, `data-scope="ledger"`) {
		t.Errorf("damaged ledger in a link not reported at the ledger:\n%s", html)
	}
	// A link without a ledger shows none.
	bare := *link
	bare.Fragment = "property=passed"
	follow(e2, d.ctx, d, &bare)
	if html := app.HTMLString(d); strings.Contains(html, `data-scope="ledger"`) || strings.Contains(html, `data-error="ledger"`) {
		t.Errorf("a link without a ledger still shows one:\n%s", html)
	}

	// A broken ledger line is reported with its file, line and column.
	c.SetLedger(c.ctx, "bad.jsonl", []byte("{\"run\": 1}\n"))
	settle(e, c.ctx)
	html := app.HTMLString(c)
	if !strings.Contains(html, `data-error="ledger"`) || !strings.Contains(html, "bad.jsonl:1:") {
		t.Errorf("ledger error not shown with its position:\n%s", html)
	}
}

func TestAAPageAndShareLink(t *testing.T) {
	base := aaCSV(40, 6, func(s, r int) bool { return (s*7+r*3)%11 == 0 })
	cand := aaCSV(40, 4, func(s, r int) bool { return (s*5+r)%4 == 0 })
	bs, err := aa.ReadCSV(strings.NewReader(base))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := aa.ReadCSV(strings.NewReader(cand))
	if err != nil {
		t.Fatal(err)
	}
	want, err := aa.Check(bs, cs, aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}

	c := &aaT{}
	e := load(t, c)
	c.PasteSide(c.ctx, 0, base)
	e.ConsumeAll()
	paste(e, c, 1, cand)
	if c.Result() == nil {
		t.Fatalf("no result after pasting; sides: %+v %+v", c.sides[0].err, c.sides[1].err)
	}
	checkPage(t, c, "", want)

	// The link in the address bar carries the statistics; a fresh page
	// opened on it shows the same figures.
	link := c.ctx.Page().URL()
	if !strings.HasPrefix(link.Fragment, "aa=") || link.RawQuery != "" {
		t.Fatalf("A/A link = %s", link)
	}
	d := &aaT{}
	reopen(t, d, link)
	checkPage(t, d, "", want)

	// A CSV error is shown at its side with line and column.
	paste(e, c, 1, "scenario,run,passed\na,r1,2\n")
	html := app.HTMLString(c)
	if !strings.Contains(html, `data-error="candidate"`) || !strings.Contains(html, "pasted text:2:") {
		t.Errorf("candidate error not shown at the field:\n%s", html)
	}
	// The baseline's analysis stays, said to be the baseline's alone, with
	// no candidate figure and no verdict; the address bar holds the
	// baseline alone, so its link opens what the page shows.
	wantBase, err := aa.Check(bs, nil, aa.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, c, "", wantBase)
	if !strings.Contains(html, `id="baseline-only"`) {
		t.Errorf("no note that the figures are the baseline's alone:\n%s", html)
	}
	f := c.ctx.Page().URL()
	back, err := share.DecodeAA(strings.TrimPrefix(f.Fragment, "aa="))
	if err != nil || back.Candidate != nil || back.Baseline == nil || back.Baseline.Rows != bs.Rows {
		t.Errorf("the link holds %+v (%v), want the baseline alone", back, err)
	}
}

func TestAATooLargeForALink(t *testing.T) {
	// 3000 scenarios with long names do not fit in 8 KB: the page says so
	// and offers the JSON, and the address bar holds no stale state.
	c := &aaT{}
	e := load(t, c)
	paste(e, c, 0, longAACSV())
	html := app.HTMLString(c)
	if !c.tooBig || !strings.Contains(html, `id="too-big"`) || !strings.Contains(html, `id="download-json"`) {
		t.Fatalf("no too-big notice (share length %d)", c.shareLen)
	}
	if f := c.ctx.Page().URL().Fragment; f != "" {
		t.Errorf("fragment kept %d bytes of state", len(f))
	}
	// The offered JSON reopens the view exactly.
	s, _ := c.shareState()
	back, err := share.ParseAAJSON(ShareJSON(s))
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := aa.Check(back.Baseline, back.Candidate, aa.DefaultOptions)
	if !bytes.Equal(jsonOf(t, r1), jsonOf(t, c.Result())) {
		t.Error("the JSON file does not reproduce the result")
	}
}

func TestBrokenShareLink(t *testing.T) {
	c := &aaT{}
	e := load(t, c)
	u, _ := url.Parse("/aa#aa=not-really-data")
	follow(e, c.ctx, c, u)
	if html := app.HTMLString(c); !strings.Contains(html, `data-error="link"`) {
		t.Errorf("a damaged link is not reported:\n%s", html)
	}
}

// A screen reader's list of form controls shows each control's label
// alone, without its fieldset: no two labels of a page may read the same.
func TestLabelsAreDistinct(t *testing.T) {
	label := regexp.MustCompile(`<label[^>]*>([^<]*)</label>`)
	for name, c := range map[string]app.Composer{"budget": &budgetT{}, "decide": &decideT{}, "aa": &aaT{}} {
		load(t, c)
		seen := map[string]bool{}
		labels := label.FindAllStringSubmatch(app.HTMLString(c), -1)
		if len(labels) < 2 {
			t.Errorf("%s: %d labels", name, len(labels))
		}
		for _, m := range labels {
			if seen[m[1]] {
				t.Errorf("%s: two labels read %q", name, m[1])
			}
			seen[m[1]] = true
		}
	}
}
