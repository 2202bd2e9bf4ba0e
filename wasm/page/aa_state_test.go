package page

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestBrokenLinkClearsTheView: a damaged link is reported, on a fresh page
// or opened over figures, where it leaves none of them beside its error;
// new input clears the error.
func TestBrokenLinkClearsTheView(t *testing.T) {
	c := &aaT{}
	e := reopen(t, c, mustURL(t, "/aa#aa=not-really-data"))
	if html := app.HTMLString(c); !strings.Contains(html, `data-error="link"`) {
		t.Errorf("a damaged link is not reported on a fresh page:\n%s", html)
	}
	c.PasteSide(c.ctx, 0, aaCSV(10, 4, func(s, r int) bool { return (s+r)%3 == 0 }))
	e.ConsumeAll()
	if c.Result() == nil {
		t.Fatal("no result after pasting")
	}
	u := mustURL(t, "/aa#aa=zzzz")
	follow(e, c.ctx, c, u)
	html := app.HTMLString(c)
	if !strings.Contains(html, `data-error="link"`) {
		t.Fatalf("the damaged link is not reported:\n%s", html)
	}
	if c.Result() != nil || strings.Contains(html, `data-field="scenarios"`) {
		t.Errorf("figures of the earlier input stay beside the link's error")
	}

	paste(e, c, 0, aaCSV(10, 4, func(s, r int) bool { return (s+r)%3 == 0 }))
	html = app.HTMLString(c)
	if strings.Contains(html, `data-error="link"`) {
		t.Error("the link's error stays after new input")
	}
	if c.Result() == nil {
		t.Error("no result for the new input")
	}
}

// TestAAErrorAtItsSide: an error the core pins on one side (a baseline of
// one run) shows at that side's input, marked invalid, not as a general
// error, and not next to a "loaded" status.
func TestAAErrorAtItsSide(t *testing.T) {
	c, e := newPage[aaT](t)
	paste(e, c, 0, "scenario,run,passed\na,r1,1\nb,r1,0\n")
	if c.err == nil || c.errSide() != 0 {
		t.Fatalf("want an error about the baseline, got %v", c.err)
	}
	html := app.HTMLString(c)
	if !strings.Contains(html, `data-error="baseline"`) {
		t.Errorf("no error at the baseline:\n%s", html)
	}
	// go-app writes aria-invalid="true" as a bare attribute in HTML.
	tag := regexp.MustCompile(`<textarea[^>]*id="text-baseline"[^>]*>|<textarea[^>]*>`).FindAllString(html, -1)
	var base string
	for _, t := range tag {
		if strings.Contains(t, `id="text-baseline"`) {
			base = t
		}
	}
	if !strings.Contains(base, "aria-invalid") || !strings.Contains(base, `aria-describedby="err-baseline"`) {
		t.Errorf("the baseline's text area is not marked invalid: %s", base)
	}
	for _, not := range []string{`data-error="aa"`, `id="loaded-baseline"`, `aria-describedby="err-candidate"`} {
		if strings.Contains(html, not) {
			t.Errorf("page has %s", not)
		}
	}
}

// TestPlainAAKeepsItsLink: the menu's link to /aa (no fragment) keeps the
// view, and the address bar holds its statistics again.
func TestPlainAAKeepsItsLink(t *testing.T) {
	c, e := newPage[aaT](t)
	paste(e, c, 0, aaCSV(10, 4, func(s, r int) bool { return (s+r)%3 == 0 }))
	frag := c.ctx.Page().URL().Fragment
	if !strings.HasPrefix(frag, "aa=") {
		t.Fatalf("no statistics in the link: %q", frag)
	}
	u := mustURL(t, "/aa")
	c.ctx.Page().ReplaceURL(u)
	c.OnNav(c.ctx)
	e.ConsumeAll()
	if c.Result() == nil {
		t.Fatal("the view was cleared")
	}
	if got := c.ctx.Page().URL().Fragment; got != frag {
		t.Errorf("fragment after /aa = %q, want %q", got, frag)
	}
}

// A candidate that shares no scenario with the baseline cannot be
// compared: like a candidate that cannot be read, it leaves the baseline's
// analysis standing, says so above the figures, and names its file at its
// input, the word "candidate" once; the link holds the baseline alone.
func TestAACandidateSharingNoScenarioKeepsTheBaseline(t *testing.T) {
	c, e := newPage[aaT](t)
	c.PasteSide(c.ctx, 0, aaCSV(10, 4, func(s, r int) bool { return (s+r)%3 == 0 }))
	e.ConsumeAll()
	alone := c.Result()
	if alone == nil {
		t.Fatal("no result for the baseline")
	}
	link := c.ctx.Page().URL().Fragment
	other := strings.ReplaceAll(aaCSV(10, 3, func(s, r int) bool { return r == 1 }), "\ns", "\nother_")
	c.ParseSide(c.ctx, 1, "cand.csv", newTextReader(other, nil), int64(len(other)))
	settle(e, c.ctx)
	html := app.HTMLString(c)
	if c.Result() == nil || !strings.Contains(html, `data-field="scenarios"`) {
		t.Fatalf("the baseline's analysis is gone:\n%s", html)
	}
	if c.Result().Candidate != nil {
		t.Error("a verdict for a candidate that shares no scenario")
	}
	const want = "cand.csv: the candidate shares no scenario with the baseline"
	if got := errorOf(t, html, "candidate"); got != want {
		t.Errorf("error at the candidate %q, want %q", got, want)
	}
	if !strings.Contains(html, `id="baseline-only"`) {
		t.Error("no note that the figures are the baseline's alone")
	}
	if got := c.ctx.Page().URL().Fragment; got != link {
		t.Errorf("the link holds more than the baseline: %q, want %q", got, link)
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

	c, e := newPage[aaT](t)
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

// 3000 scenarios with long names do not fit in 8 KB: the page says so and
// offers the JSON, Copy link says so instead of copying a bare /aa, and the
// address bar holds no stale state; a short link again is no longer noted.
func TestAATooLargeForALink(t *testing.T) {
	c, e := newPage[aaT](t)
	paste(e, c, 0, longAACSV())
	html := app.HTMLString(c)
	if !c.tooBig || !strings.Contains(html, `id="too-big"`) || !strings.Contains(html, `id="download-json"`) {
		t.Fatalf("no too-big notice (share length %d)", c.shareLen)
	}
	if c.noLink == "" {
		t.Error("Copy link does not say the link is too long")
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
	c.PasteSide(c.ctx, 0, "scenario,run,passed\na,r1,1\na,r2,1\n")
	e.ConsumeAll()
	if c.tooBig || c.noLink != "" {
		t.Errorf("a short link still noted as too long (noLink %q)", c.noLink)
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
