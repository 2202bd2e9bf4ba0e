package page

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func sortStrings(s []string) { sort.Strings(s) }

// genericField renders a JSON value under its name: objects and arrays as
// nested lists with data-scope, leaves as data-field elements. Object keys
// keep their order in the JSON (the struct's field order).
func genericField(name string, raw json.RawMessage) app.UI {
	return genericNode(name, raw, true)
}

// genericNode is genericField; a nested object or list (heading false) goes
// without a heading of its own, as the term beside it names it already.
func genericNode(name string, raw json.RawMessage, heading bool) app.UI {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	label := strings.ReplaceAll(name, "_", " ")
	switch raw[0] {
	case '{':
		keys, vals := orderedObject(raw)
		return app.Div().Class("generic").DataSet("scope", name).Body(
			app.If(heading, func() app.UI { return app.H3().Text(label) }),
			app.Dl().Body(app.Range(keys).Slice(func(i int) app.UI {
				return app.Div().Body(app.Dt().Text(strings.ReplaceAll(keys[i], "_", " ")), app.Dd().Body(genericValue(keys[i], vals[i])))
			})),
		)
	case '[':
		items := jsonItems(raw)
		if t := genericTable(name, label, items); t != nil {
			return t
		}
		return app.Div().Class("generic").DataSet("scope", name).Body(
			app.If(heading, func() app.UI { return app.H3().Text(label) }),
			app.Ol().Body(app.Range(items).Slice(func(i int) app.UI {
				return app.Li().Body(genericValue(strconv.Itoa(i), items[i]))
			})),
		)
	}
	return app.P().Class("generic").Body(app.Text(label+": "), genericLeaf(name, raw))
}

func genericValue(name string, raw json.RawMessage) app.UI {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && (raw[0] == '{' || raw[0] == '[') {
		return genericNode(name, raw, false)
	}
	return genericLeaf(name, raw)
}

func genericLeaf(name string, raw json.RawMessage) app.UI {
	s := string(raw)
	switch {
	case s == "null":
		return fieldNull(name)
	case s == "true" || s == "false":
		return fieldBool(name, s == "true", "yes", "no")
	case strings.HasPrefix(s, `"`):
		return fieldStr(name, jsonText(raw))
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return app.Text(s)
	}
	text := strconv.FormatFloat(v, 'g', 4, 64)
	if v == float64(int64(v)) {
		text = words.Count(int64(v))
	}
	return fieldNum(name, v, text)
}

// orderedObject splits a JSON object into its keys and raw values, in
// order, with the core's scanner; nil when raw is not one object.
func orderedObject(raw json.RawMessage) ([]string, []json.RawMessage) {
	var s jsonscan.Scanner
	s.Reset(raw, 1, "value")
	var keys []string
	var vals []json.RawMessage
	err := s.Object(func(key []byte) error {
		v, err := s.Value()
		keys, vals = append(keys, string(key)), append(vals, v)
		return err
	})
	if err != nil || s.End() != nil {
		return nil, nil
	}
	return keys, vals
}

// jsonItems splits a JSON array into its elements' raw values; nil when
// raw is not one array.
func jsonItems(raw json.RawMessage) []json.RawMessage {
	var s jsonscan.Scanner
	s.Reset(raw, 1, "value")
	var items []json.RawMessage
	err := s.Array(func(int) error {
		v, err := s.Value()
		items = append(items, v)
		return err
	})
	if err != nil || s.End() != nil {
		return nil
	}
	return items
}

// jsonText is the text of a JSON string ("" when raw is not one).
func jsonText(raw json.RawMessage) string {
	var s jsonscan.Scanner
	s.Reset(raw, 1, "value")
	v, _ := s.Text()
	return v
}

// genericTable renders a list of flat objects (one entry per scenario, say)
// as a table, one row per entry and one column per key of the first entry;
// nil when the entries are not all objects.
func genericTable(name, label string, items []json.RawMessage) app.UI {
	if len(items) == 0 {
		return nil
	}
	var cols []string
	rows := make([][]json.RawMessage, len(items))
	for i, it := range items {
		it = bytes.TrimSpace(it)
		if len(it) == 0 || it[0] != '{' {
			return nil
		}
		keys, vals := orderedObject(it)
		if i == 0 {
			cols = keys
		}
		if len(keys) != len(cols) {
			return nil
		}
		for j := range keys {
			if keys[j] != cols[j] {
				return nil
			}
		}
		rows[i] = vals
	}
	return app.Div().Class("generic table-wrap").Body(app.Table().DataSet("scope", name).Body(
		app.Caption().Text(label),
		app.THead().Body(app.Tr().Body(app.Range(cols).Slice(func(j int) app.UI {
			return th(strings.ReplaceAll(cols[j], "_", " "))
		}))),
		app.TBody().Body(app.Range(rows).Slice(func(i int) app.UI {
			return app.Tr().DataSet("scope", strconv.Itoa(i)).Body(app.Range(cols).Slice(func(j int) app.UI {
				return app.Td().Body(genericValue(cols[j], rows[i][j]))
			}))
		})),
	))
}
