package render

import (
	"html"
	"strings"
)

// writeMarkdown writes a words summary as HTML: the subset words writes
// (paragraphs, a bold answer, bullet lists, pipe tables with an alignment
// row, "> " caveats, "#### " headings; `\` escapes | < ` and *). The first
// block, the answer, is left out: the answer box holds it.
func writeMarkdown(b *strings.Builder, md string) {
	blocks := strings.Split(strings.TrimSpace(md), "\n\n")
	for _, blk := range blocks[1:] {
		lines := strings.Split(strings.TrimSpace(blk), "\n")
		switch first := lines[0]; {
		case first == "":
		case strings.HasPrefix(first, "|"):
			writeTable(b, lines)
		case strings.HasPrefix(first, "- "):
			b.WriteString("<ul>")
			for _, l := range lines {
				b.WriteString("<li>" + inline(strings.TrimPrefix(l, "- ")) + "</li>")
			}
			b.WriteString("</ul>")
		case strings.HasPrefix(first, "> "):
			b.WriteString(`<p class="caveat">` + inline(strings.TrimPrefix(strings.Join(lines, " "), "> ")) + "</p>")
		case strings.HasPrefix(first, "#"):
			b.WriteString("<h3>" + inline(strings.TrimLeft(first, "# ")) + "</h3>")
			if len(lines) > 1 {
				b.WriteString("<p>" + inline(strings.Join(lines[1:], " ")) + "</p>")
			}
		default:
			b.WriteString("<p>" + inline(strings.Join(lines, " ")) + "</p>")
		}
	}
}

// writeTable writes a pipe table: its head, its alignment row, its rows.
func writeTable(b *strings.Builder, lines []string) {
	if len(lines) < 2 {
		b.WriteString("<p>" + inline(lines[0]) + "</p>")
		return
	}
	head, align := cells(lines[0]), cells(lines[1])
	right := make([]bool, len(head))
	for i := range right {
		right[i] = i < len(align) && strings.HasSuffix(align[i], ":")
	}
	cell := func(tag string, i int, c string) {
		b.WriteString("<" + tag)
		if right[i] {
			b.WriteString(` class="num"`)
		}
		if tag == "td" {
			b.WriteString(` data-label="` + html.EscapeString(unescape(head[i])) + `"`)
		}
		b.WriteString(">" + inline(c) + "</" + tag + ">")
	}
	b.WriteString(`<div class="table-wrap"><table class="cards"><thead><tr>`)
	for i, c := range head {
		cell("th", i, c)
	}
	b.WriteString("</tr></thead><tbody>")
	for _, l := range lines[2:] {
		b.WriteString("<tr>")
		for i, c := range cells(l) {
			if i < len(head) {
				cell("td", i, c)
			}
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table></div>")
}

// cells splits a table row at its unescaped pipes.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var out []string
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			out = append(out, strings.TrimSpace(line[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(line[start:]))
}

// inline is a line's HTML: escapes resolved, "**" as <strong>.
func inline(s string) string {
	var b strings.Builder
	strong := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("|<`*", s[i+1]) >= 0:
			b.WriteString(html.EscapeString(s[i+1 : i+2]))
			i++
		case c == '*' && i+1 < len(s) && s[i+1] == '*':
			if strong {
				b.WriteString("</strong>")
			} else {
				b.WriteString("<strong>")
			}
			strong = !strong
			i++
		default:
			b.WriteString(html.EscapeString(s[i : i+1]))
		}
	}
	if strong {
		b.WriteString("</strong>")
	}
	return b.String()
}

// unescape is Markdown text without its backslash escapes.
func unescape(s string) string { return unescaper.Replace(s) }

var unescaper = strings.NewReplacer(`\|`, "|", `\<`, "<", "\\`", "`", `\*`, "*")
