package words

import (
	"strings"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/internal/share"
)

// The Markdown summaries are what a reviewer reads in a pull request: the
// answer in one plain sentence first (in bold), then the table of figures,
// then the caveats, then the link that reopens the view. They are
// GitHub-flavoured Markdown that reads as plain text in a terminal: no HTML,
// one table per question, caveats as quoted lines.

// Link is where a summary's result reopens: the URL of the calculator view
// that reproduces it, and a note when that link leaves part of the result
// out or cannot be made (too long a state). Both may be empty: a summary
// without a link says nothing about one.
type Link struct {
	URL  string
	Note string
}

// MaxMarkdownRows is the most rows a per-test table lists (blocking tests
// first); the rest are counted in a line under it.
const MaxMarkdownRows = 100

// md collects a summary in the order every summary follows.
type md struct{ b strings.Builder }

// answer writes the answer: bold, one sentence, then a blank line.
func (m *md) answer(s string) { m.b.WriteString("**" + mdEscape(s) + "**\n\n") }

// para writes a paragraph of plain text.
func (m *md) para(s string) { m.b.WriteString(mdEscape(s) + "\n\n") }

// list writes a bullet list.
func (m *md) list(items []string) {
	if len(items) == 0 {
		return
	}
	for _, it := range items {
		m.b.WriteString("- " + mdEscape(it) + "\n")
	}
	m.b.WriteString("\n")
}

// table writes a table; align holds one of "l" or "r" per column.
func (m *md) table(align string, head []string, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	line := func(cells []string) {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = mdEscape(c)
		}
		m.b.WriteString("| " + strings.Join(esc, " | ") + " |\n")
	}
	line(head)
	seps := make([]string, len(head))
	for i := range seps {
		seps[i] = "---"
		if i < len(align) && align[i] == 'r' {
			seps[i] = "---:"
		}
	}
	m.b.WriteString("|" + strings.Join(seps, "|") + "|\n")
	for _, r := range rows {
		line(r)
	}
	m.b.WriteString("\n")
}

// caveats writes each warning as a quoted line.
func (m *md) caveats(ws []string) {
	for _, w := range ws {
		m.b.WriteString("> **Caveat:** " + mdEscape(w) + "\n\n")
	}
}

// link writes the link line, or the note of why there is none.
func (m *md) link(l Link) {
	switch {
	case l.URL != "" && l.Note != "":
		m.b.WriteString("[Open in flakegate](" + l.URL + ") — " + mdEscape(l.Note) + "\n\n")
	case l.URL != "":
		m.b.WriteString("[Open in flakegate](" + l.URL + ")\n\n")
	case l.Note != "":
		m.b.WriteString("No link: " + mdEscape(l.Note) + "\n\n")
	}
}

// CaveatsMarkdown is caveats as a summary writes them, each a quoted line
// after a blank one ("" for none): for a surface that adds its own to a
// summary.
func CaveatsMarkdown(ws []string) string {
	var m md
	m.caveats(ws)
	if m.b.Len() == 0 {
		return ""
	}
	return "\n" + strings.TrimRight(m.b.String(), "\n") + "\n"
}

// LinkMarkdown is a summary's link line after a blank one, or the note of
// why there is none ("" for neither).
func LinkMarkdown(l Link) string {
	var m md
	m.link(l)
	if m.b.Len() == 0 {
		return ""
	}
	return "\n" + strings.TrimRight(m.b.String(), "\n") + "\n"
}

// String is the summary, ending in exactly one newline.
func (m *md) String() string { return strings.TrimRight(m.b.String(), "\n") + "\n" }

// mdEscape keeps text from becoming Markdown it did not mean: table pipes,
// line breaks, and the characters that start emphasis, code or HTML. An
// underscore inside a word (test_name) is left alone: GitHub does not read
// it as emphasis, and a terminal shows it as it is.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ", "\r", " ", "<", `\<`, "`", "\\`", "*", `\*`).Replace(s)
}

// Interval writes a Wilson interval of fractions as percentages: "[38.0%, 62.0%]".
func Interval(lo, hi float64) string { return "[" + Percent(lo) + ", " + Percent(hi) + "]" }

// CountRate writes a count with its rate: "17/20 (85.0%)", or "0/0" with
// no trials.
func CountRate(passed, trials int64) string {
	s := Fraction(passed, trials)
	if trials > 0 {
		s += " (" + Percent(float64(passed)/float64(trials)) + ")"
	}
	return s
}

func armRate(a gate.Arm) string { return CountRate(a.Passed, a.Trials) }

// LinkOf is the link of a view on site (a share.ParseSite address; ""
// when the calculator's address is unknown, which gives no link and no
// note) with the note of what it leaves out.
func LinkOf(v share.View, site string) Link {
	if site == "" {
		return Link{}
	}
	return Link{URL: v.URL(site), Note: LinkNote(v.Left, v.LeftBytes)}
}

// SetLink is LinkOf(v, site), written into a result's link and note
// fields too.
func SetLink(v share.View, site string, url, note *string) Link {
	l := LinkOf(v, site)
	*url, *note = l.URL, l.Note
	return l
}

// LinkNote says what a link leaves out, in the page's words: left is
// share.View.Left and bytes the fragment the left-out part would have
// taken.
func LinkNote(left string, bytes int) string {
	switch left {
	case share.LeftLedger:
		return LedgerTooLong(bytes)
	case share.LeftStatistics:
		return AATooLong(bytes)
	case share.LeftRegistry:
		return RegistryTooLong(bytes)
	case share.LeftComparison:
		return CompareTooLong(bytes)
	case share.LeftHistory:
		return HistoryTooLong(bytes)
	case share.LeftBoard:
		return BoardTooLong(bytes)
	case share.LeftRates:
		return "these pass rates have no exact passed/trials form the two-arm calculator could open."
	}
	return ""
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
