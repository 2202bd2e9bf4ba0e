package page

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/ledger"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// answerOf is the lead sentence and the class of the answer box id.
func answerOf(t *testing.T, page, id string) (lead, class string) {
	t.Helper()
	m := regexp.MustCompile(`<div ([^>]*\bid="` + id + `"[^>]*)>\s*<p class="lead">\s*<strong>\s*([^<]*?)\s*</strong>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no answer box #%s in\n%s", id, page)
	}
	if c := regexp.MustCompile(`class="([^"]*)"`).FindStringSubmatch(m[1]); c != nil {
		class = c[1]
	}
	return html.UnescapeString(m[2]), class
}

// markdownOf is the Markdown the page shows.
func markdownOf(t *testing.T, page string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<pre id="markdown">\s*(.*?)</pre>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no Markdown on the page")
	}
	return html.UnescapeString(m[1])
}

// Reports dropped on decide are what the page judges: their verdict is the
// answer, its colour, the Markdown's first line and the link, and the
// counts nobody typed are shown as not judged.
func TestDecideReportsLeadTheAnswer(t *testing.T) {
	dir := filepath.Join("..", "..", "core", "report", "testdata", "reports", "gotest")
	read := func(name string) droppedFile {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return droppedFile{name: name, data: b}
	}
	c, e := newPage[decideT](t)
	c.AddFiles(c.ctx, ledger.ArmBaseline, []droppedFile{read("count5.json")})
	c.AddFiles(c.ctx, ledger.ArmPatched, []droppedFile{read("seed2.json")})
	settle(e, c.ctx)
	page := app.HTMLString(c)
	lead, class := answerOf(t, page, "answer")
	// `flakegate ledger -markdown count5.json -patched seed2.json`
	// starts "**The gate blocks: 7 of 7 tests block, over 1 baseline run
	// and 1 patched run.**" (run by hand).
	const want = "The gate blocks: 7 of 7 tests block, over 1 baseline run and 1 patched run."
	if lead != want {
		t.Errorf("answer %q, want %q", lead, want)
	}
	if !strings.Contains(class, "bad") {
		t.Errorf("answer box class %q, want bad (the gate blocks)", class)
	}
	if md := markdownOf(t, page); !strings.HasPrefix(md, "**"+want+"**\n") {
		t.Errorf("Markdown starts %q", md[:min(len(md), 120)])
	}
	for _, k := range []string{"baseline", "patched"} {
		if tag := inputOf(t, page, k); !strings.Contains(tag, "disabled") || strings.Contains(tag, `value="1`) {
			t.Errorf("the %s count is shown as judged: %s", k, tag)
		}
	}
	if strings.Contains(page, `data-field="verdict" value="no_change"`) || strings.Contains(page, "Both arms") {
		t.Error("the counts' verdict is still on the page")
	}
	frag := c.ctx.Page().URL().Fragment
	if strings.Contains(frag, "baseline=") || strings.Contains(frag, "patched=") || !strings.Contains(frag, "ledger=") {
		t.Errorf("link %q: want the ledger without counts", frag)
	}
	// Cleared, the counts are judged again.
	c.ClearLedger(c.ctx)
	settle(e, c.ctx)
	page = app.HTMLString(c)
	if lead, _ := answerOf(t, page, "answer"); !strings.Contains(lead, "10/20") {
		t.Errorf("after clearing, answer %q", lead)
	}
}

// textOf is the text a browser shows for rendered HTML: tags dropped, runs
// of white space one space.
func textOf(page string) string {
	page = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, "")
	return strings.Join(strings.Fields(html.UnescapeString(page)), " ")
}

// The pre-rendered page (go-app's HTMLString, which the site generator
// writes) reads as the mounted page does: no space before a full stop or
// inside brackets where text meets a figure.
func TestPrerenderedTextHasNoStraySpaces(t *testing.T) {
	c := &decideT{}
	load(t, c)
	text := textOf(app.HTMLString(c))
	for _, want := range []string{"Verdict: no change shown.", "(the merge is not blocked)."} {
		if !strings.Contains(text, want) {
			t.Errorf("pre-rendered page does not read %q", want)
		}
	}
	for _, bad := range []string{" .", "( ", " )"} {
		if i := strings.Index(text, bad); i >= 0 {
			t.Errorf("stray space in %q", text[max(0, i-30):min(len(text), i+30)])
		}
	}
}
