// Package fieldcheck reads the figures a calculator page shows and compares
// them with a JSON result. The page's contract (package page): every figure
// is an element with data-field="NAME" and value="EXACT"; the data-scope
// attributes of its ancestors, joined with dots, place it in the result, so
// "rows.0" + "reruns" is the JSON path rows.0.reruns.
//
// Used by the component tests (on go-app's rendered HTML) and the
// end-to-end tests (on what the browser reports).
package fieldcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var (
	tagRe = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>`)
	// go-app writes an attribute whose value is "true" as a bare name.
	attrRe = regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_.:-]*)(?:="([^"]*)")?`)
	voids  = map[string]bool{"input": true, "br": true, "meta": true, "link": true, "img": true, "hr": true,
		"col": true, "source": true, "wbr": true, "area": true, "base": true, "embed": true, "track": true}
)

// FromHTML returns path → value for every data-field element of a page's
// HTML as go-app renders it. It errs on a path seen twice.
func FromHTML(doc string) (map[string]string, error) {
	type open struct{ tag, scope string }
	var stack []open
	out := map[string]string{}
	for _, m := range tagRe.FindAllStringSubmatch(doc, -1) {
		closing, tag, attrs := m[1] == "/", strings.ToLower(m[2]), m[3]
		if closing {
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].tag == tag {
					stack = stack[:i]
					break
				}
			}
			continue
		}
		a := map[string]string{}
		for _, am := range attrRe.FindAllStringSubmatch(attrs, -1) {
			if strings.Contains(am[0], "=") {
				a[am[1]] = html.UnescapeString(am[2])
			} else {
				a[am[1]] = "true"
			}
		}
		if f, ok := a["data-field"]; ok {
			var parts []string
			for _, o := range stack {
				if o.scope != "" {
					parts = append(parts, o.scope)
				}
			}
			p := strings.Join(append(parts, f), ".")
			if _, dup := out[p]; dup {
				return nil, fmt.Errorf("field %s appears twice", p)
			}
			out[p] = a["value"]
		}
		if voids[tag] || strings.HasSuffix(strings.TrimSpace(attrs), "/") {
			continue
		}
		stack = append(stack, open{tag, a["data-scope"]})
	}
	return out, nil
}

// Flatten returns path → value for every leaf of a JSON document, in the
// page's value format: numbers in Go's shortest round-trip form (integers
// as integers), booleans as true/false, null as "null", strings as is.
// Empty arrays and objects have no leaves.
func Flatten(doc []byte) (map[string]string, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	out := map[string]string{}
	flatten("", v, out)
	return out, nil
}

func flatten(prefix string, v any, out map[string]string) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			flatten(join(k), x, out)
		}
	case []any:
		for i, x := range t {
			flatten(join(strconv.Itoa(i)), x, out)
		}
	case nil:
		out[prefix] = "null"
	case bool:
		out[prefix] = strconv.FormatBool(t)
	case string:
		out[prefix] = t
	case json.Number:
		out[prefix] = Number(string(t))
	}
}

// Number normalises a number's text: integers keep every digit, other
// numbers become Go's shortest round-trip form of their float64.
func Number(s string) string {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatInt(i, 10)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f == float64(int64(f)) && !strings.ContainsAny(s, "eE") && !strings.Contains(s, ".") {
			return strconv.FormatInt(int64(f), 10)
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return s
}

// Diff compares the page's figures under prefix ("" for all, "size" for
// those under the scope "size") with a JSON result, both ways: every leaf
// of the result must be on the page with the same value, and every figure
// on the page must be in the result. Numbers compare by value. It returns
// one line per difference, sorted. Page paths starting with one of the
// exclude prefixes (scopes compared against other results) are skipped on
// both sides.
func Diff(page map[string]string, prefix string, result []byte, exclude ...string) ([]string, error) {
	want, err := Flatten(result)
	if err != nil {
		return nil, err
	}
	got := Sub(page, prefix)
	for _, m := range []map[string]string{got, want} {
		for p := range m {
			for _, x := range exclude {
				if strings.HasPrefix(p, x+".") {
					delete(m, p)
				}
			}
		}
	}
	var diffs []string
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s: missing on the page (want %q)", p, w))
		case !same(g, w):
			diffs = append(diffs, fmt.Sprintf("%s: page shows %q, result has %q", p, g, w))
		}
	}
	for p, g := range got {
		if _, ok := want[p]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: on the page (%q) but not in the result", p, g))
		}
	}
	sort.Strings(diffs)
	return diffs, nil
}

// Sub is the part of page under prefix, with the prefix removed.
func Sub(page map[string]string, prefix string) map[string]string {
	out := map[string]string{}
	for p, v := range page {
		switch {
		case prefix == "":
			out[p] = v
		case strings.HasPrefix(p, prefix+"."):
			out[strings.TrimPrefix(p, prefix+".")] = v
		}
	}
	return out
}

func same(a, b string) bool {
	if a == b {
		return true
	}
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	return ea == nil && eb == nil && fa == fb
}
