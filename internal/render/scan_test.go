package render

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/render/rendertest"
)

// The patterns Splice used before its scanners (scan.go), run by Go's
// regexp package: every expected value in this file is theirs. metaRe is
// the one Splice should have had: the old one wanted name= or property=
// first in the tag, and go-app writes content= first, so it never matched
// a real page (TestSpliceHeadHasOneOfEach).
var (
	titleRe = regexp.MustCompile(`<title>[^<]*</title>`)
	metaRe  = regexp.MustCompile(`<meta (?:[^>]*\s)?(?:name|property)="(description|og:title|og:description|og:url|og:type|og:image)"[^>]*>\s*`)
	inputRe = regexp.MustCompile(`<input [^>]*>`)
	valueRe = regexp.MustCompile(`\svalue(="[^"]*")?`)
	nameRe  = regexp.MustCompile(`\sname="([^"]*)"`)
	selRe   = regexp.MustCompile(`(?s)<select [^>]*name="([^"]*)"[^>]*>.*?</select>`)
	optRe   = regexp.MustCompile(`<option [^>]*>`)
)

// fillInputsRegexp is fillInputs as it was, on the patterns above.
func fillInputsRegexp(doc string, text map[string]string) string {
	doc = inputRe.ReplaceAllStringFunc(doc, func(tag string) string {
		m := nameRe.FindStringSubmatch(tag)
		if m == nil {
			return tag
		}
		t, ok := text[html.UnescapeString(m[1])]
		if !ok {
			return tag
		}
		value := ` value="` + html.EscapeString(t) + `"`
		if valueRe.MatchString(tag) {
			return valueRe.ReplaceAllLiteralString(tag, value)
		}
		return strings.TrimSuffix(tag, ">") + value + ">"
	})
	return selRe.ReplaceAllStringFunc(doc, func(sel string) string {
		m := selRe.FindStringSubmatch(sel)
		t, ok := text[html.UnescapeString(m[1])]
		if !ok {
			return sel
		}
		return optRe.ReplaceAllStringFunc(sel, func(opt string) string {
			opt = strings.Replace(opt, " selected", "", 1)
			if strings.Contains(opt, ` value="`+html.EscapeString(t)+`"`) {
				opt = strings.TrimSuffix(opt, ">") + " selected>"
			}
			return opt
		})
	})
}

// headTitle is the title Splice writes in the tests below.
const headTitle = `12/20 & "more" · Two-arm verdict · flakegate`

// headRegexp is what Splice did to the head, on the patterns above.
func headRegexp(top string) string {
	top = metaRe.ReplaceAllString(top, "")
	return titleRe.ReplaceAllLiteralString(top, "<title>"+html.EscapeString(headTitle)+"</title>")
}

// head is what Splice does to the head now.
func head(top string) string {
	top = replaceEach(top, metaTag, func(string) string { return "" })
	return replaceEach(top, titleElement, func(string) string { return "<title>" + html.EscapeString(headTitle) + "</title>" })
}

// findAll is every match find finds in s, as FindAllStringIndex gives them.
func findAll(s string, find func(string) (start, end int)) [][]int {
	var all [][]int
	for at := 0; ; {
		start, end := find(s[at:])
		if start < 0 {
			return all
		}
		all = append(all, []int{at + start, at + end})
		at += end
	}
}

// selectNames is every match's name selectElement finds in s, as
// FindAllStringSubmatch gives them.
func selectNames(s string) []string {
	var names []string
	for {
		start, end, name := selectElement(s)
		if start < 0 {
			return names
		}
		names = append(names, name)
		s = s[end:]
	}
}

// sameAsRegexp fails t where a scanner's matches in s differ from its
// pattern's (the expected values are Go's regexp running the pattern the
// code used before), or fillInputs (with text) or the head's rewrite
// differs from the regexp-based original.
func sameAsRegexp(t *testing.T, s string, text map[string]string) {
	t.Helper()
	selectAt := func(s string) (int, int) {
		start, end, _ := selectElement(s)
		return start, end
	}
	for _, c := range []struct {
		re   *regexp.Regexp
		find func(string) (int, int)
	}{
		{titleRe, titleElement},
		{metaRe, metaTag},
		{inputRe, startTag("<input ")},
		{optRe, startTag("<option ")},
		{valueRe, valueAttr},
		{selRe, selectAt},
	} {
		if got, want := findAll(s, c.find), c.re.FindAllStringIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s in %q: %v; regexp: %v", c.re, s, got, want)
		}
	}
	name, ok := nameAttr(s)
	if want := nameRe.FindStringSubmatch(s); ok != (want != nil) || ok && name != want[1] {
		t.Errorf("nameAttr(%q) = %q, %v; regexp: %q", s, name, ok, want)
	}
	var want []string
	for _, m := range selRe.FindAllStringSubmatch(s, -1) {
		want = append(want, m[1])
	}
	if got := selectNames(s); !slices.Equal(got, want) {
		t.Errorf("select names in %q: %q; regexp: %q", s, got, want)
	}
	if got, want := fillInputs(s, text), fillInputsRegexp(s, text); got != want {
		t.Errorf("fillInputs(%q, %q):\n%q\nregexp:\n%q", s, text, got, want)
	}
	if got, want := head(s), headRegexp(s); got != want {
		t.Errorf("the head of %q:\n%q\nregexp:\n%q", s, got, want)
	}
}

// scanCases are the edge cases of the patterns: repeats spanning lines,
// leftmost-first and greedy choices, \s as ASCII white space only,
// invalid UTF-8 (a byte that is a rune of its own, U+FFFD, to regexp).
var scanCases = []string{
	"",
	// titleRe
	`<title>a</title>`,
	"<title>a\nb</title>",
	`<title>a<b</title>`,
	`<title><title>x</title>`,
	`<title>x</title><title>y</title><title></title>`,
	`<title>x</titl`,
	`<TITLE>x</TITLE><title>x</title >`,
	"<title>\xff\xfe\xc3</title>",
	// metaRe
	"<meta name=\"description\" content=\"x\">\n  <meta property=\"og:url\" content=\"y\">\t\f\r\v<p>",
	"<meta name=\"og:type\">\u00a0<meta name=\"og:image\">\u2028",
	`<meta name="twitter:title" content="x"><meta name="og:description" content="y">`,
	`<meta property="description"><meta name="og:titles"><meta name="og:title"x>`,
	`<meta name="description" content="no end`,
	`<meta  name="description"><meta name='description'><meta description"x">`,
	`<meta content="<meta name="description">">`,
	"<meta name=\"og:image\"\n content=\"\n\">\n\n",
	"<meta name=\"description\xff\"><meta name=\"description\" \xff>\xff",
	`<meta name="og:url"<meta name="og:url">`,
	`<meta content="x" name="description"><meta content="y" property="og:image">`,
	"<meta content=\"x\"\tproperty=\"og:url\"\n><meta content=\"name=\\\"description\\\"\">",
	`<meta content="x"name="description"><meta data-name="description"><meta content=">" name="og:title">`,
	`<meta charset="UTF-8"><meta content="a" name="theme-color"><meta name="author" property="og:type">`,
	// inputRe, nameRe, valueRe
	`<input name="a" value="1">`,
	`<input value name="a">`,
	`<input name="a" values="x">`,
	`<input name="a" value="x" value="y">`,
	`<input data-value="1" name="a" value>`,
	"<input name=\"a\"\tvalue='x'>",
	"<input name=\"a\"\fvalue=\"x\"\vvalue=\"y\">",
	`<input name="a" value="unterminated>`,
	`<input name="a" value=">"><input name="b">`,
	"<input\nname=\"a\"><input  name=\"a\">",
	`<input aname="a" data-name="b" name="c">`,
	`<input name="a`,
	`<input name="a>`,
	`<input name="b" name="a">`,
	`<input name="a&amp;b" value="x"><input name="&#x61;">`,
	"<input name=\"a\" value=\"\xff\"\xfe\xff>",
	"<input name=\"a\"\xa0value=\"1\">",
	// selRe, optRe
	`<select name="a"><option value="1">x</option><option value="12/20" selected>y</option></select>`,
	"<select id=\"s\"\nname=\"a\">\n<option value=\"1\" selected>\n</select>",
	`<select name="x" name="y>z</select>`,
	`<select name="a" name="b></select>"`,
	`<select name="a" name="b"></select><select name="c">`,
	`<select name="a"></select><select name="b"></select>`,
	`<select name="a"><select name="b"></select></select>`,
	`<select name="a>b"><option value="1">`,
	`<select data-name="a" name="b"><option value="1"></select>`,
	`<select class="x"><option value="1"></select>`,
	"<select\tname=\"a\"></select><select name=\"a\"</select>",
	`<select name="a"><option value="12/20" selected selected><option value="1"></select>`,
	`<select name="a" title="<option value=1>"><option>x<option value="12/20"></select>`,
	"<select name=\"a\"><option value=\"12/20\"\n></SELECT></select>",
	"<select name=\"\xff\"><option value=\"\xfe\"></select>",
	`<select name="a">`,
}

// formText is the form's text the cases are filled with: the names the cases
// and the pages use.
var formText = map[string]string{
	"a": "12/20", "a&b": `<"x">`, "x": "1", "baseline": "12/20", "patched": "19/20",
	"property": "passed", "min_trials": "20", "\xff": "\xfe",
}

// TestScannersMatchRegexp holds each scanner, fillInputs and the head's
// rewrite to the regexp-based original on the edge cases and on real
// pre-rendered pages; the expected values are Go's regexp running the
// patterns the code used before.
func TestScannersMatchRegexp(t *testing.T) {
	for _, s := range scanCases {
		sameAsRegexp(t, s, formText)
	}
	for _, page := range pages(t) {
		sameAsRegexp(t, page, formText)
		for _, l := range links(t) {
			v, err := Compute(l.path, l.query)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fillInputs(page, v.Form), fillInputsRegexp(page, v.Form); got != want {
				t.Errorf("%s: fillInputs differs from the regexp-based original", l.name)
			}
		}
	}
}

// pages are the pre-rendered pages: testdata/page.html and the site's
// own, as `make site` writes them.
func pages(t testing.TB) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{string(b)}
	names, err := filepath.Glob(filepath.Join(rendertest.Prerendered(t), "*.html"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no pre-rendered pages: %v", err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// TestMain removes the pre-rendered pages.
func TestMain(m *testing.M) {
	code := m.Run()
	rendertest.RemoveAll()
	os.Exit(code)
}

// FuzzScanners holds every scanner, fillInputs and the head's rewrite to
// the regexp-based original (Go's regexp running the patterns the code
// used before gives the expected values) on any page, filled with the
// cases' text and one more field.
func FuzzScanners(f *testing.F) {
	for _, s := range append(pages(f), scanCases...) {
		f.Add(s, "a", "1")
	}
	f.Fuzz(func(t *testing.T, doc, name, value string) {
		fields := map[string]string{}
		for k, v := range formText {
			fields[k] = v
		}
		fields[name] = value
		sameAsRegexp(t, doc, fields)
	})
}

// TestSpliceHeadHasOneOfEach splices every link into every pre-rendered
// page of the site and checks the head: one description, og:title,
// og:description, og:type, og:url and Twitter card tag each, the link's,
// and no og:image. Before metaTag took a key anywhere in the tag, the
// site's pages (go-app writes content= first) kept their own ahead of the
// link's: two of each, the example's first, and og:url and og:image
// "https://".
func TestSpliceHeadHasOneOfEach(t *testing.T) {
	for i, page := range pages(t) {
		for _, l := range links(t) {
			v, err := Compute(l.path, l.query)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Splice([]byte(page), v, l.query, "https://flakegate.example"+l.path+"?"+l.query)
			if err != nil {
				t.Fatalf("page %d, %s: %v", i, l.name, err)
			}
			rendertest.HeadHasOneOfEach(t, string(doc))
			if t.Failed() {
				t.Fatalf("page %d, link %s", i, l.name)
			}
		}
	}
}
