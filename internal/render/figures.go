package render

import (
	"errors"
	"html"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/internal/words"
)

// node is a JSON value with its object keys in the document's order (the
// result struct's field order), so the figures follow the result.
type node struct {
	kind  jsonscan.Kind
	keys  []string
	items []*node // an object's values (beside keys) or an array's items
	text  string  // a leaf's text: a string's value, a number as written
}

// maxDepth bounds the nesting of a result's JSON (results nest 4 deep).
const maxDepth = 32

// parseJSON reads a result's JSON with the core's scanner.
func parseJSON(doc []byte) (*node, error) {
	var s jsonscan.Scanner
	s.Reset(doc, 1, "result")
	n, err := readNode(&s, 0)
	if err == nil {
		err = s.End()
	}
	return n, err
}

func readNode(s *jsonscan.Scanner, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, errors.New("render: result nested too deep")
	}
	k, err := s.Kind()
	if err != nil {
		return nil, err
	}
	n := &node{kind: k}
	switch k {
	case jsonscan.Object:
		err = s.Object(func(key []byte) error {
			v, err := readNode(s, depth+1)
			n.keys, n.items = append(n.keys, string(key)), append(n.items, v)
			return err
		})
	case jsonscan.Array:
		err = s.Array(func(int) error {
			v, err := readNode(s, depth+1)
			n.items = append(n.items, v)
			return err
		})
	case jsonscan.String:
		n.text, err = s.Text()
	case jsonscan.Number:
		var b []byte
		b, err = s.Number()
		n.text = string(b)
	default:
		err = s.Skip()
	}
	return n, err
}

// writeFigures writes every leaf of a result as a figure of the page's
// contract, <data data-field="NAME" value="EXACT">, under data-scope
// elements that give its JSON path; objects as term lists, lists of flat
// objects as tables, other lists as numbered lists. Empty lists and
// objects have no leaves and write nothing but their heading.
func writeFigures(b *strings.Builder, scope string, doc []byte) error {
	n, err := parseJSON(doc)
	if err != nil {
		return err
	}
	if n.kind != jsonscan.Object {
		return errors.New("render: a result is a JSON object")
	}
	b.WriteString(`<div class="generic"`)
	if scope != "" {
		b.WriteString(` data-scope="` + html.EscapeString(scope) + `"`)
	}
	b.WriteString(`><dl>`)
	for i, k := range n.keys {
		b.WriteString(`<div><dt>` + label(k) + `</dt><dd>`)
		writeValue(b, k, n.items[i])
		b.WriteString(`</dd></div>`)
	}
	b.WriteString(`</dl></div>`)
	return nil
}

func label(key string) string { return html.EscapeString(strings.ReplaceAll(key, "_", " ")) }

func writeValue(b *strings.Builder, name string, n *node) {
	switch n.kind {
	default:
		writeLeaf(b, name, n)
	case jsonscan.Object:
		b.WriteString(`<dl data-scope="` + html.EscapeString(name) + `">`)
		for i, k := range n.keys {
			b.WriteString(`<div><dt>` + label(k) + `</dt><dd>`)
			writeValue(b, k, n.items[i])
			b.WriteString(`</dd></div>`)
		}
		b.WriteString(`</dl>`)
	case jsonscan.Array:
		if cols, ok := flatColumns(n); ok {
			b.WriteString(`<div class="table-wrap"><table data-scope="` + html.EscapeString(name) + `"><caption>` + label(name) + `</caption><thead><tr>`)
			for _, c := range cols {
				b.WriteString(`<th scope="col">` + label(c) + `</th>`)
			}
			b.WriteString(`</tr></thead><tbody>`)
			for i, it := range n.items {
				b.WriteString(`<tr data-scope="` + strconv.Itoa(i) + `">`)
				for j, c := range cols {
					b.WriteString(`<td data-label="` + label(c) + `">`)
					writeValue(b, c, it.items[j])
					b.WriteString(`</td>`)
				}
				b.WriteString(`</tr>`)
			}
			b.WriteString(`</tbody></table></div>`)
			return
		}
		b.WriteString(`<ol data-scope="` + html.EscapeString(name) + `">`)
		for i, it := range n.items {
			b.WriteString(`<li>`)
			writeValue(b, strconv.Itoa(i), it)
			b.WriteString(`</li>`)
		}
		b.WriteString(`</ol>`)
	}
}

// flatColumns are the keys of a list whose items are all objects with the
// same keys in the same order, which a table shows.
func flatColumns(n *node) ([]string, bool) {
	if len(n.items) == 0 || n.items[0].kind != jsonscan.Object {
		return nil, false
	}
	cols := n.items[0].keys
	for _, it := range n.items {
		if it.kind != jsonscan.Object || len(it.keys) != len(cols) {
			return nil, false
		}
		for j := range cols {
			if it.keys[j] != cols[j] {
				return nil, false
			}
		}
	}
	return cols, true
}

// writeLeaf writes one figure: value is the JSON's exact text (Go's
// shortest round-trip form, as core.WriteJSON writes numbers), the shown
// text a rounded number or a word.
func writeLeaf(b *strings.Builder, name string, n *node) {
	value, text := n.text, n.text
	switch n.kind {
	case jsonscan.Null:
		value, text = "null", "none"
	case jsonscan.True:
		value, text = "true", "yes"
	case jsonscan.False:
		value, text = "false", "no"
	case jsonscan.Number:
		if i, err := strconv.ParseInt(value, 10, 64); err == nil {
			text = words.Count(i)
		} else if f, err := strconv.ParseFloat(value, 64); err == nil {
			text = strconv.FormatFloat(f, 'g', 4, 64)
		}
	}
	b.WriteString(`<data data-field="` + html.EscapeString(name) + `" value="` + html.EscapeString(value) + `">` + html.EscapeString(text) + `</data>`)
}
