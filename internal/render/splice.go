package render

import (
	"errors"
	"html"
	"strings"
)

// The region a link's answer goes into, in the pre-rendered page: the
// element of id "result" (the example's result), else of id "answer" (a
// page that shows none until it is given input), else a new section at the
// end of <main>. The section written there carries data-rendered="server"
// and data-link (the link's query string, as it was rendered), so the page
// knows the figures shown are the link's own. The root element carries the
// same query in data-rendered-link (PageLinkKey): the page's head script
// (site/web/first.js) reads it before the body is parsed, so that a frame
// painted while the page is still being parsed, before the region has
// arrived, does not hide the view as another link's.
const (
	RegionID    = "result"
	RenderedKey = "data-rendered"
	LinkKey     = "data-link"
	PageLinkKey = "data-rendered-link"
	// EndID is the id of an empty element closing the region: the first
	// paint waits until the parser has reached it (Splice).
	EndID = "rendered-end"
)

// maxDescription bounds the preview's description, in bytes (chat apps
// show about 200 characters; Open Graph readers cut at 300).
const maxDescription = 300

// Region is the HTML of a view: the answer in its box, each part's
// summary (tables, notes, caveats) and every figure of the results in
// "All figures", under the page's contract (data-field, data-scope).
func Region(v *View, query string) (string, error) {
	var b strings.Builder
	b.WriteString(`<section class="result" id="` + RegionID + `" aria-label="Result" ` + RenderedKey + `="server" ` +
		LinkKey + `="` + html.EscapeString(query) + `">`)
	b.WriteString(`<div class="answer ` + v.Tone + `" id="answer" role="status" aria-live="polite"><p class="lead"><strong>` +
		html.EscapeString(v.Answer) + `</strong></p></div>`)
	for i, p := range v.Parts {
		if p.Markdown == "" {
			continue // its words are in an earlier part's summary
		}
		if i > 0 {
			b.WriteString(`<p class="lead">` + inline(firstMarkdownLine(p.Markdown)) + `</p>`)
		}
		writeMarkdown(&b, p.Markdown)
	}
	if len(v.Parts) > 0 {
		b.WriteString(`<details class="figures"><summary>All figures</summary>`)
		for _, p := range v.Parts {
			if err := writeFigures(&b, p.Scope, p.JSON); err != nil {
				return "", err
			}
		}
		b.WriteString(`</details>`)
	}
	// The mark the head's expect link names (Splice): Chromium lets the
	// page paint once the element it names is inserted, so it is the
	// region's last element, after the answer and every figure.
	b.WriteString(`<span id="` + EndID + `" hidden></span></section>`)
	return b.String(), nil
}

// firstMarkdownLine is the first line of a part's Markdown, as written.
func firstMarkdownLine(md string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(md), "\n")
	return line
}

// Description is the preview's text: the answer, then the key figures the
// summary gives under it (its first paragraph, the first item of its list,
// or the first row of its table, each cell after its column's name),
// within maxDescription bytes.
func Description(v *View) string {
	d := v.Answer
	if len(v.Parts) > 0 {
		blocks := strings.Split(strings.TrimSpace(v.Parts[0].Markdown), "\n\n")
		if len(blocks) > 1 {
			lines := strings.Split(blocks[1], "\n")
			switch first := lines[0]; {
			case strings.HasPrefix(first, "- "):
				d += " " + unescape(strings.TrimPrefix(first, "- "))
			case strings.HasPrefix(first, "|") && len(lines) > 2:
				head, row := cells(first), cells(lines[2])
				var parts []string
				for i := range min(len(head), len(row)) {
					parts = append(parts, unescape(head[i])+" "+unescape(row[i]))
				}
				d += " " + strings.Join(parts, "; ") + "."
			case !strings.ContainsAny(first[:1], ">#["):
				d += " " + unescape(strings.Join(lines, " "))
			}
		}
	}
	if len(d) > maxDescription {
		cut := strings.LastIndexByte(d[:maxDescription-len("…")], ' ')
		if cut < 0 {
			cut = maxDescription - len("…")
		}
		d = d[:cut] + "…"
	}
	return d
}

// errNoHead: the template is not a pre-rendered page.
var errNoHead = errors.New("render: the page has no <html>, <head> and <main>")

// Splice is the pre-rendered page tpl showing v: its region (Region)
// instead of the example's, the form's inputs holding the link's text, and
// a head whose title, description and Open Graph and Twitter card tags
// carry the answer, and a link that holds the page's first paint until the
// region is parsed. self is the link's absolute address for og:url ("" to
// leave it out).
func Splice(tpl []byte, v *View, query, self string) ([]byte, error) {
	doc := string(tpl)
	root := strings.Index(doc, "<html")
	if root < 0 || !strings.Contains(doc, "</head>") || !strings.Contains(doc, "</main>") {
		return nil, errNoHead
	}
	// The root's mark first: it is before every offset found below.
	root += len("<html")
	doc = doc[:root] + ` ` + PageLinkKey + `="` + html.EscapeString(query) + `"` + doc[root:]
	region, err := Region(v, query)
	if err != nil {
		return nil, err
	}
	// The example's figures of a part's scope outside the region (the
	// quarantine page's release rule) go: the region holds the link's.
	for _, p := range v.Parts {
		if p.Scope == "" {
			continue
		}
		if s, e, ok := element(doc, `data-scope="`+p.Scope+`"`); ok {
			if rs, re, ok := element(doc, `id="`+RegionID+`"`); !ok || s < rs || s >= re {
				doc = doc[:s] + doc[e:]
			}
		}
	}
	if s, e, ok := element(doc, `id="`+RegionID+`"`); ok {
		doc = doc[:s] + region + doc[e:]
	} else if s, e, ok := element(doc, `id="answer"`); ok {
		doc = doc[:s] + region + doc[e:]
	} else {
		i := strings.LastIndex(doc, "</main>")
		doc = doc[:i] + region + doc[i:]
	}
	doc = fillForm(doc, v.Form)

	title := v.Answer + " · " + v.Title + " · flakegate"
	desc := Description(v)
	var head strings.Builder
	meta := func(attr, key, value string) {
		head.WriteString(`<meta ` + attr + `="` + key + `" content="` + html.EscapeString(value) + `">` + "\n")
	}
	meta("name", "description", desc)
	meta("property", "og:type", "website")
	meta("property", "og:title", v.Answer)
	meta("property", "og:description", desc)
	if self != "" {
		meta("property", "og:url", self)
	}
	meta("name", "twitter:card", "summary")
	meta("name", "twitter:title", v.Answer)
	meta("name", "twitter:description", desc)
	// The first paint waits for the answer: a browser paints a page it has
	// not finished parsing (a slow or busy device), and the region is half
	// way down the page. A render-blocking expect link holds rendering until
	// the parser has reached the element it names (HTML, "blocking=render"):
	// the region's last.
	head.WriteString(`<link rel="expect" href="#` + EndID + `" blocking="render">` + "\n")
	// The head alone is searched: it is a few hundred bytes of the page.
	i := strings.Index(doc, "</head>")
	top := replaceEach(doc[:i], metaTag, func(string) string { return "" })
	top = replaceEach(top, titleElement, func(string) string { return "<title>" + html.EscapeString(title) + "</title>" })
	return []byte(top + head.String() + doc[i:]), nil
}

// element finds the first element whose start tag holds the attribute
// attr (id="result") in doc: the offsets of its start tag and past its
// end tag, counting nested elements of its name.
func element(doc, attr string) (start, end int, ok bool) {
	at := strings.Index(doc, " "+attr)
	if at < 0 {
		return 0, 0, false
	}
	start = strings.LastIndexByte(doc[:at], '<')
	if start < 0 {
		return 0, 0, false
	}
	name := doc[start+1 : at]
	if sp := strings.IndexAny(name, " \t\n"); sp >= 0 {
		name = name[:sp]
	}
	open, closing := "<"+name, "</"+name+">"
	depth, i := 0, start
	for i < len(doc) {
		o := strings.Index(doc[i:], open)
		c := strings.Index(doc[i:], closing)
		if c < 0 {
			return 0, 0, false
		}
		if o >= 0 && o < c {
			// Only a whole tag name opens: <section>, not <sectionx>.
			if k := i + o + len(open); k < len(doc) && strings.IndexByte(" >\t\n", doc[k]) >= 0 {
				depth++
			}
			i += o + len(open)
			continue
		}
		depth--
		i += c + len(closing)
		if depth == 0 {
			return start, i, true
		}
	}
	return 0, 0, false
}

// fillForm puts each field's text into the value of the form's input of
// that name, and selects the option of that value in a select of that name.
func fillForm(doc string, text map[string]string) string {
	// The form alone is searched, not the whole page.
	start, end := strings.Index(doc, "<form"), strings.Index(doc, "</form>")
	if len(text) == 0 || start < 0 || end < start {
		return doc
	}
	return doc[:start] + fillInputs(doc[start:end], text) + doc[end:]
}

// fillInputs is fillForm on the form's HTML.
func fillInputs(doc string, text map[string]string) string {
	doc = replaceEach(doc, startTag("<input "), func(tag string) string {
		name, ok := nameAttr(tag)
		if !ok {
			return tag
		}
		t, ok := text[html.UnescapeString(name)]
		if !ok {
			return tag
		}
		value := ` value="` + html.EscapeString(t) + `"`
		if start, _ := valueAttr(tag); start >= 0 {
			return replaceEach(tag, valueAttr, func(string) string { return value })
		}
		return strings.TrimSuffix(tag, ">") + value + ">"
	})
	return replaceEach(doc, func(s string) (int, int) {
		start, end, _ := selectElement(s)
		return start, end
	}, func(sel string) string {
		_, _, name := selectElement(sel)
		t, ok := text[html.UnescapeString(name)]
		if !ok {
			return sel
		}
		return replaceEach(sel, startTag("<option "), func(opt string) string {
			opt = strings.Replace(opt, " selected", "", 1)
			if strings.Contains(opt, ` value="`+html.EscapeString(t)+`"`) {
				opt = strings.TrimSuffix(opt, ">") + " selected>"
			}
			return opt
		})
	})
}
