package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"html"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/words"
)

// node is a JSON value with its object keys in the document's order (the
// result struct's field order), so the figures follow the result.
type node struct {
	kind  byte // '{', '[', or 'v' for a leaf
	keys  []string
	items []*node // an object's values (beside keys) or an array's items
	leaf  any     // json.Number, string, bool or nil
}

// maxDepth bounds the nesting of a result's JSON (results nest 4 deep).
const maxDepth = 32

func parseJSON(doc []byte) (*node, error) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	return readNode(d, 0)
}

func readNode(d *json.Decoder, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, errors.New("render: result nested too deep")
	}
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		n := &node{kind: '{'}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := readNode(d, depth+1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k.(string))
			n.items = append(n.items, v)
		}
		_, err := d.Token()
		return n, err
	case json.Delim('['):
		n := &node{kind: '['}
		for d.More() {
			v, err := readNode(d, depth+1)
			if err != nil {
				return nil, err
			}
			n.items = append(n.items, v)
		}
		_, err := d.Token()
		return n, err
	}
	return &node{kind: 'v', leaf: t}, nil
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
	if n.kind != '{' {
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
	case 'v':
		writeLeaf(b, name, n.leaf)
	case '{':
		b.WriteString(`<dl data-scope="` + html.EscapeString(name) + `">`)
		for i, k := range n.keys {
			b.WriteString(`<div><dt>` + label(k) + `</dt><dd>`)
			writeValue(b, k, n.items[i])
			b.WriteString(`</dd></div>`)
		}
		b.WriteString(`</dl>`)
	case '[':
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
	if len(n.items) == 0 || n.items[0].kind != '{' {
		return nil, false
	}
	cols := n.items[0].keys
	for _, it := range n.items {
		if it.kind != '{' || len(it.keys) != len(cols) {
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
func writeLeaf(b *strings.Builder, name string, v any) {
	var value, text string
	switch t := v.(type) {
	case nil:
		value, text = "null", "none"
	case bool:
		value, text = strconv.FormatBool(t), "no"
		if t {
			text = "yes"
		}
	case string:
		value, text = t, t
	case json.Number:
		value = string(t)
		if i, err := t.Int64(); err == nil {
			text = words.Count(i)
		} else if f, err := t.Float64(); err == nil {
			text = strconv.FormatFloat(f, 'g', 4, 64)
		} else {
			text = value
		}
	}
	b.WriteString(`<data data-field="` + html.EscapeString(name) + `" value="` + html.EscapeString(value) + `">` + html.EscapeString(text) + `</data>`)
}
