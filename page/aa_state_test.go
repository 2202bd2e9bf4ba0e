package page

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestBrokenLinkClearsTheView: a damaged link opened over figures leaves
// none of them beside its error, and new input clears the error.
func TestBrokenLinkClearsTheView(t *testing.T) {
	c := &aaT{}
	e := load(t, c)
	c.PasteSide(c.ctx, 0, aaCSV(10, 4, func(s, r int) bool { return (s+r)%3 == 0 }))
	e.ConsumeAll()
	if c.Result() == nil {
		t.Fatal("no result after pasting")
	}
	u, _ := url.Parse("/aa#aa=zzzz")
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
	c := &aaT{}
	e := load(t, c)
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
	c := &aaT{}
	e := load(t, c)
	paste(e, c, 0, aaCSV(10, 4, func(s, r int) bool { return (s+r)%3 == 0 }))
	frag := c.ctx.Page().URL().Fragment
	if !strings.HasPrefix(frag, "aa=") {
		t.Fatalf("no statistics in the link: %q", frag)
	}
	u, _ := url.Parse("/aa")
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

// TestCopyLinkWhenTooLong: with statistics too long for a link, Copy link
// says so instead of copying a bare /aa.
func TestCopyLinkWhenTooLong(t *testing.T) {
	c := &aaT{}
	e := load(t, c)
	paste(e, c, 0, longAACSV())
	if !c.tooBig || c.noLink == "" {
		t.Fatalf("too long a link is not noted (tooBig %v, noLink %q)", c.tooBig, c.noLink)
	}
	c.PasteSide(c.ctx, 0, "scenario,run,passed\na,r1,1\na,r2,1\n")
	e.ConsumeAll()
	if c.tooBig || c.noLink != "" {
		t.Errorf("a short link still noted as too long (noLink %q)", c.noLink)
	}
}

// A candidate that shares no scenario with the baseline cannot be
// compared: like a candidate that cannot be read, it leaves the baseline's
// analysis standing, says so above the figures, and names its file at its
// input, the word "candidate" once; the link holds the baseline alone.
func TestAACandidateSharingNoScenarioKeepsTheBaseline(t *testing.T) {
	c := &aaT{}
	e := load(t, c)
	c.PasteSide(c.ctx, 0, aaCSV(10, 4, func(s, r int) bool { return (s+r)%3 == 0 }))
	e.ConsumeAll()
	alone := c.Result()
	if alone == nil {
		t.Fatal("no result for the baseline")
	}
	link := c.ctx.Page().URL().Fragment
	other := strings.ReplaceAll(aaCSV(10, 3, func(s, r int) bool { return r == 1 }), "\ns", "\nother_")
	c.ParseSide(c.ctx, 1, "cand.csv", newTextReader(other, nil), int64(len(other)))
	e.ConsumeAll()
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
