package page

import (
	"encoding/json"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/testfile"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// boardLogs are cmd/flakegate's four models' samples files (120 questions
// in 3 subjects, one answer each), from the module's folder.
var boardLogs = []string{"cmd/flakegate/testdata/board/alpha.jsonl", "cmd/flakegate/testdata/board/beta.jsonl",
	"cmd/flakegate/testdata/board/gamma.jsonl", "cmd/flakegate/testdata/board/delta.jsonl"}

// flakegateJSON runs the real flakegate command, built from the module's
// folder, with args and -json, and returns its link and its JSON without
// the link's members (the figures a view shows).
func flakegateJSON(t *testing.T, args ...string) (link string, result []byte) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "flakegate")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/flakegate").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, append(args, "-json")...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("flakegate %s: %v", strings.Join(args, " "), err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(m["link"], &link)
	delete(m, "link")
	delete(m, "link_note")
	result, _ = json.Marshal(m)
	return link, result
}

// TestBoardPageOpensTheCLIsLink: the link `flakegate compare A B C D
// -site` writes opens the leaderboard on the compare page, whose every
// figure (fieldcheck, both ways) is the CLI's -json: the models, the
// pairs with Holm's and BH's p, the groups and the per-subject rows. The
// expected values are the CLI's own output.
func TestBoardPageOpensTheCLIsLink(t *testing.T) {
	site := "https://flakegate.example"
	link, result := flakegateJSON(t, append([]string{"compare", "-format", "samples", "-score", "correct", "-category", "subject", "-bh", "-site", site}, boardLogs...)...)
	u, err := url.Parse(link)
	if err != nil || u.Path != share.ComparePath || !strings.HasPrefix(u.RawQuery, share.BoardKey+"=") {
		t.Fatalf("the CLI's link %q does not open the leaderboard", link)
	}
	c, e := newPage[compareT](t)
	follow(e, c.ctx, c, mustURL(t, share.ComparePath+"#"+u.RawQuery))
	b := c.Board()
	if b == nil || len(b.Models) != 4 || len(b.Categories) != 3 {
		t.Fatalf("board %+v, link error %v", b, c.linkErr)
	}
	_, diffs := fieldDiffs(t, c, "board", result)
	for _, d := range diffs {
		t.Error(d)
	}
	html := app.HTMLString(c)
	for _, want := range []string{words.BoardAnswer(b), `id="leaderboard"`, `id="pairs"`, `class="plot"`, "BH p"} {
		if !strings.Contains(html, strings.ReplaceAll(want, "'", "&#39;")) {
			t.Errorf("the page lacks %q", want)
		}
	}
	svg := BoardPlot(b)
	testfile.Golden(t, filepath.Join("testdata", "board.svg"), []byte(svg), *update, "-update")
	if n := strings.Count(svg, "<circle"); n != len(b.Models) || strings.Contains(svg, "NaN") || strings.Contains(svg, "style=") {
		t.Errorf("the plot has %d dots for %d models, or a NaN or an inline style", n, len(b.Models))
	}

	// The address bar keeps the link's state; a damaged one is refused
	// with a message and leaves no figure; logs dropped on a side leave
	// the leaderboard for a comparison of two.
	c.writeURL(c.ctx)
	if frag := fragmentOf(c.ctx.Page().URL()); frag != u.RawQuery {
		t.Errorf("the address bar holds %q, want the link's %q", frag, u.RawQuery)
	}
	follow(e, c.ctx, c, mustURL(t, share.ComparePath+"#board=zzzz"))
	if html := app.HTMLString(c); c.Board() != nil || !strings.Contains(html, `data-error="link"`) || strings.Contains(html, `data-scope="board"`) {
		t.Errorf("a damaged link leaves figures or says nothing:\n%s", html)
	}
	follow(e, c.ctx, c, mustURL(t, share.ComparePath+"#"+u.RawQuery))
	a := "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl"
	c.ReadLogs(c.ctx, 0, []string{a}, openLogs(t, a))
	settle(e, c.ctx)
	if c.Board() != nil || strings.Contains(app.HTMLString(c), `data-scope="board"`) {
		t.Error("logs dropped on a side leave the leaderboard shown")
	}
}

// TestBoardPlotNames: one dot a model, and a long name cut to fit left
// of the axis.
func TestBoardPlotNames(t *testing.T) {
	if got := shortName("a-model-with-a-very-long-name"); got != "a-model-with-a-ve…" {
		t.Errorf("shortName: %q", got)
	}
	if got := shortName("gpt-x"); got != "gpt-x" {
		t.Errorf("shortName: %q", got)
	}
}
