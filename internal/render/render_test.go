package render

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/testfile"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/flakegate/flakegate/wasm/page/fieldcheck"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// link is a page and a link's query.
type link struct{ name, path, query string }

// links are the form links written by hand in share's format (versioned
// and of the first format, which left the defaults of its time out) and
// the packed links the CLI wrote into testdata/links.txt.
func links(t testing.TB) []link {
	t.Helper()
	out := []link{
		{"budget", "/", "cap=5&confidence=0.95&cost=8&observe=1%2F120&rates=0.05%2C0.02%2C0.001&target=0.9&v=2"},
		{"budget_versionless", "/", "cost=8&rates=0.02"},
		{"budget_runner", "/", "cap=3&confidence=0.95&cost=8&rates=0.02&runner=gotestsum&setting=2&target=0.95&v=2"},
		{"decide", "/decide", "baseline=12%2F20&confidence=0.95&min_trials=20&patched=19%2F20&property=unknown&v=2"},
		{"decide_versionless", "/decide", "baseline=30%2F60&patched=51%2F60&property=passed"},
		{"size", "/decide", "baseline=10%2F20&confidence=0.95&min_trials=20&patched=17%2F20&property=unknown&v=2&view=size"},
		{"decide_invalid", "/decide", "baseline=12%2F10&confidence=2&min_trials=20&patched=19%2F20&v=2"},
		{"quarantine_rule", "/quarantine", "below=0.05&confidence=0.99&v=2"},
		{"aa_damaged", "/aa", "aa=AAAA"},
		// flakegate compare -format samples -score correct -site https://x.example -json on
		// cmd/flakegate/testdata/board/alpha, beta and gamma.jsonl
		{"board", "/compare", "board=7JrNattAFIXfZdamnDv_o1cpWahEtAW7SbDJJuTdS0OhDST9TFHEyNY2nIzE58OI-3Gf3KMbbOcOd7fT_uiGz0_ux3iY3ODG_f230e3cw8sfv9-6wT1Icjt3Px6P0-3Lv53uTuPeDfa8-xMxjvi_Ino7EviUyKckPiXzKYVPqRxp-CBjusZ0zXOE6VrkCNM1pmuFI0zXGkY80_VM1zNdz3Q9d9czXZ85wnQ90_VMNzDdwHQD0w1MN3B3A9MN3N3AN0NguoFvhiiOMN3I925kupHpRqYbubuRuxuZbuTuJu5uYrqJu5uYbmK6iekmppu4u6niD5CYbma6melmppuZbma6melmppuZbma6mekWplsMH1SYbmG6hb9qhekWvncL0y18MxSmW5lu5e5WpluZbuXuVqZbubuV6VbubmW6jek2ptv4q9aYbmO6jek2ptv4q9aYbkO6xrOa8axmPKsZz2qmyJHEkczvUviUyhGmy7OaGd67xrOavZrV3jmF6fKsZpY5UvhdmO67s9rNr9Bv_fBlOnViH8T2wZayD1qXfVBH9sHYPthS9kHXaB9ssw_d2wdj-2Cz2Adbyj6I7YPYPthmH_7XPmgW-2CbfXjTPojtg2axD5rFPhjbB81iH4ztg9ZlH9SRfdA12gexfbB12Qdj-2BsH7SUfbCO7IOtyz7YxdkH-1D78HU8HP6tH9TR8sMZ-kHXuPxwhn4Q6wddnH6wTT98oH7QNeoHdaQf1NHyQ0_6QevSD1pq-UHr0g9i_aCLW344Qz-oo-UHW2r5QawftJR-UEf6QbPoB82iH8T6QR0tP4j1g1g_aCn9MM_ygzb90L1-sItbftAr_XCzc_vpcdq7QZ9aev4ZAAD__w"},
		{"board_damaged", "/compare", "board=AAAA"},
	}
	f, err := os.Open(filepath.Join("testdata", "links.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		path, query, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(path, "#") {
			continue
		}
		out = append(out, link{"cli_" + strings.TrimPrefix(path, "/"), path, query})
	}
	return out
}

// rendered is l's view and its region; a link that cannot be rendered
// fails t.
func rendered(t testing.TB, l link) (*View, string) {
	t.Helper()
	v, err := Compute(l.path, l.query)
	if err != nil {
		t.Fatalf("%s: %v", l.name, err)
	}
	region, err := Region(v, l.query)
	if err != nil {
		t.Fatalf("%s: %v", l.name, err)
	}
	return v, region
}

// TestGolden holds each link's region and description to
// testdata/NAME.golden (go test -update rewrites them; read the diff).
func TestGolden(t *testing.T) {
	for _, l := range links(t) {
		t.Run(l.name, func(t *testing.T) {
			v, region := rendered(t, l)
			got := Description(v) + "\n\n" + strings.ReplaceAll(region, "><", ">\n<") + "\n"
			testfile.Golden(t, filepath.Join("testdata", l.name+".golden"), []byte(got), *update, "-update")
		})
	}
}

// TestFiguresAreTheResults reads each region's figures back (fieldcheck,
// the page's own reader) and compares them, both ways, with each part's
// JSON under its scope: every leaf of every result is a figure, once.
func TestFiguresAreTheResults(t *testing.T) {
	for _, l := range links(t) {
		v, region := rendered(t, l)
		fields, err := fieldcheck.FromHTML(region)
		if err != nil {
			t.Fatalf("%s: %v", l.name, err)
		}
		var others []string
		for _, p := range v.Parts {
			if p.Scope != "" {
				others = append(others, p.Scope)
			}
		}
		for _, p := range v.Parts {
			var skip []string
			if p.Scope == "" {
				skip = others
			}
			diffs, err := fieldcheck.Diff(fields, p.Scope, p.JSON, skip...)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diffs {
				t.Errorf("%s: %s", l.name, d)
			}
		}
		if (v.Err == nil) != (len(fields) > 0) {
			t.Errorf("%s: error %v with %d figures", l.name, v.Err, len(fields))
		}
	}
}

// TestVersions: a link of the first format opens with that format's
// defaults (share.DecideFields: at least 20 trials, 95%), a versioned one
// with what it says; the answer is words.DecideAnswer of gate.Decide on
// those inputs, computed here directly.
func TestVersions(t *testing.T) {
	for _, c := range []struct {
		query string
		in    gate.DecideInput
	}{
		{"baseline=30%2F60&patched=51%2F60&property=passed", gate.DecideInput{Baseline: count(30, 60), Patched: count(51, 60), MinTrials: 20, Confidence: 0.95, Property: "passed"}},
		{"baseline=30%2F60&patched=51%2F60&property=passed&min_trials=100&confidence=0.9&v=2", gate.DecideInput{Baseline: count(30, 60), Patched: count(51, 60), MinTrials: 100, Confidence: 0.9, Property: "passed"}},
	} {
		v, err := Compute(share.DecidePath, c.query)
		if err != nil || v.Err != nil {
			t.Fatalf("%s: %v %v", c.query, err, v.Err)
		}
		res, err := gate.Decide(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if want := words.DecideAnswer(res); v.Answer != want {
			t.Errorf("%s: answer %q, want %q", c.query, v.Answer, want)
		}
	}
}

// TestSizeLeads: the link `flakegate size` writes (share.SizeOf) is
// rendered leading with the size's sentence, words.SizeSentence of
// gate.Size on the rates computed here directly (0.5 and 0.85 separate at
// 28 trials per arm, docs/STATISTICS.md's example), and its only figures
// are the sizing's: no verdict for the counts that stand for the rates.
// The same counts without the marker are a decision, as before.
func TestSizeLeads(t *testing.T) {
	for _, in := range []gate.SizeInput{{Baseline: 0.5, Patched: 0.85, Confidence: 0.95}, {Baseline: 0.05, Patched: 0.25, Confidence: 0.9}} {
		size, err := gate.Size(in)
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(share.SizeOf(size).URL("https://example.com"))
		if err != nil {
			t.Fatal(err)
		}
		v, region := rendered(t, link{"size", u.Path, u.RawQuery})
		if want := words.SizeSentence(size); v.Answer != want || v.Err != nil {
			t.Errorf("%v: answer %q (%v), want %q", in, v.Answer, v.Err, want)
		}
		if len(v.Parts) != 1 || v.Parts[0].Scope != "size" || v.Tone != "note" {
			t.Errorf("%v: parts %+v tone %s, want the sizing alone", in, v.Parts, v.Tone)
		}
		if !strings.Contains(region, `<p class="lead"><strong>`+html.EscapeString(words.SizeSentence(size))+`</strong>`) || strings.Contains(region, `data-field="verdict"`) {
			t.Errorf("%v: the region does not lead with the size alone:\n%s", in, region)
		}
		q := url.Values{}
		for k, vs := range u.Query() {
			if k != share.ViewKey {
				q[k] = vs
			}
		}
		d, err := Compute(share.DecidePath, q.Encode())
		if err != nil || d.Parts[0].Scope != "" || d.Answer == v.Answer {
			t.Errorf("%v: without view=size the link is not a decision: %+v %v", in, d, err)
		}
	}
}

// TestNotRendered: what is not a link is left to the page as pre-rendered.
func TestNotRendered(t *testing.T) {
	long := "baseline=1%2F2&patched=1%2F2&v=2&pad=" + strings.Repeat("x", MaxQuery)
	for _, c := range []struct{ path, query string }{
		{"/nowhere", "v=2"}, {"/decide", ""}, {"/decide", long}, {"/decide", "a=%zz"},
		{"/aa", "v=2"}, {"/compare", "v=2"}, {"/history", "x=1"},
	} {
		if _, err := Compute(c.path, c.query); !errors.Is(err, ErrNotRendered) {
			t.Errorf("%s?%.30s: %v, want ErrNotRendered", c.path, c.query, err)
		}
	}
	// An A/A link whose check costs more than MaxWorkSteps: 30 scenarios
	// in 400 runs (the trend test permutes the 400 runs 9,999 times).
	side := &aa.Side{}
	for i := range 30 {
		side.Scenarios = append(side.Scenarios, aa.Tally{ID: fmt.Sprintf("s%02d", i), Passed: 200, Total: 400})
	}
	for i := range 400 {
		side.Runs = append(side.Runs, aa.Tally{ID: fmt.Sprintf("r%03d", i), Passed: 15, Total: 30})
	}
	if w := aa.Work(side, 0, 0, aa.DefaultOptions); w <= MaxWorkSteps {
		t.Fatalf("the costly side costs only %.3g steps", w)
	}
	view, err := share.AA(side, nil, aa.DefaultOptions)
	if err != nil || view.Fragment == "" {
		t.Fatalf("%v %+v", err, view)
	}
	if _, err := Compute(share.AAPath, view.Fragment); !errors.Is(err, ErrNotRendered) {
		t.Errorf("a costly A/A link: %v, want ErrNotRendered", err)
	}
	// A damaged link says so, in the page's words, with no figure.
	v, err := Compute("/history", "history=AAAA")
	if err != nil || v.Err == nil || !strings.Contains(v.Answer, "damaged") || len(v.Parts) != 0 {
		t.Errorf("a damaged link: %v %+v", err, v)
	}
}

// TestSplice puts a decide link into a page shaped as go-app pre-renders
// one (testdata/page.html): the example's result and figures go, the
// inputs hold the link's text, the head carries the answer once.
func TestSplice(t *testing.T) {
	tpl, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	q := "baseline=12%2F20&confidence=0.95&min_trials=20&patched=19%2F20&property=passed&v=2"
	v, err := Compute("/decide", q)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Splice(tpl, v, q, "https://flakegate.example/decide?"+q)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(out)
	for _, want := range []string{
		`<input id="in-baseline" name="baseline" type="text" value="12/20">`,
		`<input value="19/20" id="in-patched" name="patched" type="text">`,
		`<input id="in-min_trials" name="min_trials" type="text" value="20">`,
		`<option value="unknown">not run</option><option value="passed" selected>passed</option>`,
		`<title>` + v.Answer + ` · Two-arm verdict · flakegate</title>`,
		`<meta property="og:url" content="https://flakegate.example/decide?baseline=12%2F20&amp;`,
		`<meta name="twitter:card" content="summary">`,
		`data-rendered="server" data-link="baseline=12%2F20&amp;confidence`,
		// On the root too, for the head's script (site/web/first.js).
		`<html data-rendered-link="baseline=12%2F20&amp;confidence`,
		// The first paint waits for the region (blocking=render).
		`<link rel="expect" href="#rendered-end" blocking="render">`,
		`<span id="rendered-end" hidden></span></section>`,
		`<section class="rule" data-scope="rule">`, // not a part of this view: kept
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %s", want)
		}
	}
	for _, gone := range []string{"The example", "The site's own description", `content="https:///decide"`} {
		if strings.Contains(doc, gone) {
			t.Errorf("still there: %s", gone)
		}
	}
	for _, tag := range []string{"<title>", `name="description"`, `property="og:title"`, `property="og:description"`, `property="og:url"`} {
		if n := strings.Count(doc, tag); n != 1 {
			t.Errorf("%s %d times", tag, n)
		}
	}
	if _, err := fieldcheck.FromHTML(doc); err != nil {
		t.Error(err)
	}
	// The quarantine rule's view replaces the example's rule.
	v, _ = Compute("/quarantine", "below=0.05&confidence=0.99&v=2")
	out, _ = Splice(tpl, v, "q", "")
	if strings.Contains(string(out), `value="298"`) || regexp.MustCompile(`data-scope="rule"`).FindAllIndex(out, -1) == nil {
		t.Errorf("the example's rule was kept or the link's is missing")
	}
	if _, err := Splice([]byte("<p>no page</p>"), v, "q", ""); err == nil {
		t.Error("a fragment of HTML was spliced")
	}
}

// FuzzCompute: whatever the query, Compute and Region neither fail nor
// panic, and a view's figures read back to its results' JSON.
func FuzzCompute(f *testing.F) {
	for _, l := range links(f) {
		f.Add(l.path, l.query)
	}
	f.Add("/decide", "baseline=1%2F1&patched=0%2F0&v=2")
	f.Add("/", "rates=1e308&cap=9223372036854775807&v=2")
	f.Fuzz(func(t *testing.T, path, query string) {
		v, err := Compute(path, query)
		if err != nil {
			if !errors.Is(err, ErrNotRendered) {
				t.Fatal(err)
			}
			return
		}
		region, err := Region(v, query)
		if err != nil {
			t.Fatal(err)
		}
		fields, err := fieldcheck.FromHTML(region)
		if err != nil {
			t.Fatal(err)
		}
		if v.Err != nil && len(fields) > 0 {
			t.Fatalf("figures beside the error %v", v.Err)
		}
		for _, p := range v.Parts {
			if p.Scope == "" {
				continue
			}
			if d, err := fieldcheck.Diff(fields, p.Scope, p.JSON); err != nil || len(d) > 0 {
				t.Fatalf("%s: %v %v", p.Scope, err, d)
			}
		}
	})
}

func count(passed, trials int64) core.Count { return core.Count{Passed: passed, Trials: trials} }

// TestEscapes: text a link carries (here compare's question ids, which
// the results and their summary list) reaches the page as text, never as
// markup, in the region and in the head.
func TestEscapes(t *testing.T) {
	const evil = `<img src=x onerror=alert(1)>"'&`
	var a, b aa.Side
	for i := range 12 {
		id := fmt.Sprintf("%s%d", evil, i)
		a.Scenarios = append(a.Scenarios, aa.Tally{ID: id, Passed: int64(i % 2), Total: 1})
		b.Scenarios = append(b.Scenarios, aa.Tally{ID: id, Passed: 1, Total: 1})
	}
	view, err := share.Compare(&a, &b, compare.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Compute(share.ComparePath, view.Fragment+"&x="+url.QueryEscape(evil))
	if err != nil || v.Err != nil {
		t.Fatalf("%v %v", err, v.Err)
	}
	tpl, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Splice(tpl, v, view.Fragment+"&x="+url.QueryEscape(evil), "https://x.example/compare?"+evil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "<img") || !strings.Contains(string(out), "&lt;img src=x onerror=alert(1)&gt;") {
		t.Error("a question id is not escaped as text")
	}
}
