package api

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
	schema "github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/internal/words"
)

// kind is the type of a parameter, as the query and the JSON body spell it.
type kind int

const (
	kNumber   kind = iota // a finite number: 0.95
	kInteger              // a whole number: 3
	kCount                // "passed/trials" (JSON: also an object)
	kNumbers              // "0.05,0.02" (JSON: also an array)
	kIntegers             // "1,2,4" (JSON: also an array)
	kString               // free text, or one of enum
	kFraction             // 0.95 or "95%" (JSON: a number, or a string of the one grammar)
	kSeconds              // 8 or "8s", "1m30s" (JSON: a number, or a string of the one grammar)
	kDate                 // a day, "2026-01-02"
)

// param is one input of a route: a query parameter for GET, and a member of
// the JSON object for POST. The OpenAPI document is generated from these.
type param struct {
	name     string
	alias    string // another accepted spelling, such as cost for cost_seconds
	kind     kind
	required bool
	enum     []string
	keys     [2]string // a count's object members: passed/trials, fails/runs
	def      string    // the default, as text, for the docs
	doc      string
	most     int    // the most items of a list, 0 for no limit but the body's
	joined   string // the parameter an enum's value may carry after '=' (runner=gotestsum=2 gives setting)
}

// args are the parameters of one request, from a query string, a form or a
// JSON object. The first error sticks; later reads are no-ops.
type args struct {
	params []param
	query  map[string]string // from a query string or form
	json   map[string][]byte // from a JSON object: each member's JSON text
	err    error
}

func invalid(field, format string, a ...any) *core.Error {
	return &core.Error{Kind: core.Invalid, Field: field, Msg: fmt.Sprintf(format, a...)}
}

func (a *args) lookup(name string) *param {
	for i := range a.params {
		if p := &a.params[i]; p.name == name || (p.alias != "" && p.alias == name) {
			return p
		}
	}
	return nil
}

func (a *args) names() string {
	ns := make([]string, len(a.params))
	for i, p := range a.params {
		ns[i] = p.name
	}
	return strings.Join(ns, ", ")
}

// queryArgs reads a raw query string (or a urlencoded form).
func queryArgs(params []param, raw string) *args {
	a := &args{params: params, query: map[string]string{}}
	vs, err := url.ParseQuery(raw)
	if err != nil {
		a.err = invalid("", "malformed query string: %v", err)
		return a
	}
	return collect(a, vs, a.query, func(p *param, v []string) (string, bool, error) {
		if len(v) > 1 {
			return "", false, invalid(p.name, "given %d times; give it once", len(v))
		}
		return v[0], true, nil
	})
}

// collect files each of got's keys, in sorted order, under its
// parameter's name in dst, with value's result (keep false to leave it
// out). A key no parameter has, value's error, or a parameter given under
// its name and its alias is a.err; then each required one must be there.
func collect[V, T any](a *args, got map[string]V, dst map[string]T, value func(p *param, v V) (T, bool, error)) *args {
	for _, k := range sortedKeys(got) {
		p := a.lookup(k)
		if p == nil {
			a.err = a.unknown(k)
			return a
		}
		v, keep, err := value(p, got[k])
		if err == nil {
			if _, dup := dst[p.name]; dup {
				err = invalid(p.name, "given twice, as %s and %s", p.name, p.alias)
			}
		}
		if err != nil {
			a.err = err
			return a
		}
		if keep {
			dst[p.name] = v
		}
	}
	return a.checkRequired()
}

func (a *args) unknown(k string) error {
	if len(a.params) == 0 {
		return invalid(k, "unknown parameter %q: this route takes none", k)
	}
	return invalid(k, "unknown parameter %q; this route reads %s", k, a.names())
}

// jsonArgs reads a JSON object. Syntax errors carry line and column.
func jsonArgs(params []param, body []byte) *args {
	a := &args{params: params, json: map[string][]byte{}}
	obj, err := jsonObject(body, "body")
	if err != nil {
		a.err = err
		return a
	}
	return collect(a, obj, a.json, notNull)
}

// notNull keeps a member's JSON unless it is null, which means not given.
func notNull[V ~[]byte](_ *param, v V) ([]byte, bool, error) {
	return []byte(v), string(v) != "null", nil
}

func (a *args) checkRequired() *args {
	for _, p := range a.params {
		if !p.required {
			continue
		}
		_, q := a.query[p.name]
		_, j := a.json[p.name]
		if !q && !j {
			a.err = invalid(p.name, "required%s", example(p))
			return a
		}
	}
	return a
}

func example(p param) string {
	switch p.kind {
	case kCount:
		return fmt.Sprintf(", as %s/%s such as 17/20", p.keys[0], p.keys[1])
	case kNumber, kFraction, kSeconds:
		return ", a number"
	}
	return ""
}

// has reports whether any of the named parameters was given.
func (a *args) has(names ...string) bool {
	for _, n := range names {
		if _, ok := a.query[n]; ok {
			return true
		}
		if _, ok := a.json[n]; ok {
			return true
		}
	}
	return false
}

// raw returns the text (query) or JSON (body) of a parameter and whether it
// was given.
func (a *args) raw(name string) (text string, js []byte, ok bool) {
	if a.err != nil {
		return "", nil, false
	}
	if a.json != nil {
		js, ok = a.json[name]
		return "", js, ok
	}
	text, ok = a.query[name]
	return text, nil, ok
}

// given is raw with a JSON string read as text: the text of a query or
// of a JSON string (js nil), or the JSON of another value.
func (a *args) given(name string) (text string, js []byte, ok bool) {
	text, js, ok = a.raw(name)
	if js != nil && decodes(js, &text) {
		js = nil
	}
	return text, js, ok
}

// decodes reports whether js, one JSON value, decodes into v
// (jsonscan.Decode).
func decodes(js []byte, v any) bool {
	return jsonscan.Decode(js, "value", v) == nil
}

func finite(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return invalid(field, "must be a finite number, got %v", v)
	}
	return nil
}

// parseNumber reads a number in the core's one grammar (core.ParseFloat),
// blanks around it allowed.
func parseNumber(field, s string) (float64, error) {
	return core.ParseNumber(field, strings.TrimSpace(s))
}

func (a *args) number(name string, dst *float64) {
	text, js, ok := a.raw(name)
	if !ok {
		return
	}
	var v float64
	if js != nil {
		if !decodes(js, &v) {
			a.err = invalid(name, "must be a JSON number, got %s", clip(js))
			return
		}
		if a.err = finite(name, v); a.err != nil {
			return
		}
	} else if v, a.err = parseNumber(name, text); a.err != nil {
		return
	}
	*dst = v
}

func (a *args) str(name string, dst *string) {
	either(a, name, dst, func(js []byte) (string, error) {
		return "", invalid(name, "must be a JSON string, got %s", clip(js))
	}, func(text string) (string, error) { return text, nil })
}

// either reads the parameter name, when given, into *dst: a JSON value
// other than a string with fromJSON, the text of a query or of a JSON
// string with fromText; an error is a.err, and *dst is left.
func either[T any](a *args, name string, dst *T, fromJSON func(js []byte) (T, error), fromText func(text string) (T, error)) {
	text, js, ok := a.given(name)
	if !ok {
		return
	}
	var v T
	var err error
	if js != nil {
		v, err = fromJSON(js)
	} else {
		v, err = fromText(text)
	}
	if err != nil {
		a.err = err
		return
	}
	*dst = v
}

// count reads "passed/trials", or in JSON also an object with the param's
// two keys.
func (a *args) count(name string, dst **core.Count) {
	either(a, name, dst, func(js []byte) (*core.Count, error) { return a.countObject(name, js) },
		func(text string) (*core.Count, error) {
			c, err := core.ParseCount(name, text)
			return &c, err
		})
}

func (a *args) countObject(name string, js []byte) (*core.Count, error) {
	keys := a.lookup(name).keys
	var obj map[string]jsonscan.Raw
	if !decodes(js, &obj) || obj == nil {
		return nil, invalid(name, "want %q or {%q: n, %q: n}, got %s",
			keys[0]+"/"+keys[1], keys[0], keys[1], clip(js))
	}
	var vals [2]int64
	for i, k := range keys {
		raw, ok := obj[k]
		if !ok {
			return nil, invalid(name, "the object needs %q and %q", keys[0], keys[1])
		}
		v, err := core.ParseInt(string(raw))
		if err != nil {
			return nil, invalid(name, "%s must be a whole number, got %s", k, clip(raw))
		}
		vals[i] = v
	}
	for _, k := range sortedKeys(obj) {
		if k != keys[0] && k != keys[1] {
			return nil, invalid(name, "unknown member %q; the object has %q and %q", k, keys[0], keys[1])
		}
	}
	return &core.Count{Passed: vals[0], Trials: vals[1]}, nil
}

// numbers reads "0.05,0.02", or in JSON also an array of numbers.
func (a *args) numbers(name string, dst *[]float64) {
	either(a, name, dst, func(js []byte) ([]float64, error) {
		var vs []float64
		if !decodes(js, &vs) {
			return nil, invalid(name, "want an array of numbers or \"0.05,0.02\", got %s", clip(js))
		}
		return vs, nil
	}, func(text string) ([]float64, error) { return core.ParseRates(name, text) })
}

// integers reads "1,2,4", or in JSON also an array of whole numbers (or
// strings of one), each from 1 to 2^30.
func (a *args) integers(name string, dst *[]int) {
	var items []string
	either(a, name, &items, func(js []byte) ([]string, error) {
		var raws []jsonscan.Raw
		if !decodes(js, &raws) {
			raws = []jsonscan.Raw{js} // refused below: not an array
		}
		items := []string{}
		for _, r := range raws {
			item := string(r)
			if !isJSONNumber(r) && !decodes(r, &item) {
				return nil, invalid(name, "want an array of whole numbers or \"1,2,4\", got %s", clip(js))
			}
			items = append(items, item)
		}
		return items, nil
	}, func(text string) ([]string, error) {
		if strings.Trim(text, " \t") == "" {
			return []string{}, nil
		}
		return strings.Split(text, ","), nil
	})
	if items == nil { // not given, or refused
		return
	}
	out := make([]int, len(items))
	for i, it := range items {
		v, err := core.ParseInteger(name, strings.Trim(it, " \t"))
		if err != nil {
			a.err = invalid(name, "item %d: %s", i+1, err.(*core.Error).Msg)
			return
		}
		if v < 1 || v > 1<<30 {
			a.err = invalid(name, "item %d must be a whole number from 1 to %d, got %d", i+1, 1<<30, v)
			return
		}
		out[i] = int(v)
	}
	*dst = out
}

// isJSONNumber reports whether js, one JSON value, is a number (not a
// string holding one).
func isJSONNumber(js []byte) bool {
	return len(js) > 0 && (js[0] == '-' || (js[0] >= '0' && js[0] <= '9'))
}

// clip shortens a JSON value for an error message.
func clip(js []byte) string {
	const max = 40
	if len(js) > max {
		return string(js[:max]) + "…"
	}
	return string(js)
}

// schemaParams are a calculator's parameters, one for each field of its
// schema (core/param): the name, kind, default and doc come from there.
// most caps the items of a list field by key.
func schemaParams(fields []schema.Field, defs map[string]string, most map[string]int) []param {
	out := make([]param, len(fields))
	for i, f := range fields {
		p := param{name: f.Name(), required: f.Required, def: defs[f.Key], doc: f.Doc, most: most[f.Key], joined: f.Joined}
		if f.API != "" {
			p.alias = f.Key
		}
		if p.most > 0 {
			p.doc += "; at most " + words.Count(int64(p.most)) + " per request"
		}
		switch f.Kind {
		case schema.Fraction:
			p.kind = kFraction
		case schema.Seconds:
			p.kind = kSeconds
		case schema.Fractions:
			p.kind = kNumbers
		case schema.Integers:
			p.kind = kIntegers
		case schema.Integer:
			p.kind = kInteger
		case schema.Bool:
			p.kind, p.enum = kString, []string{"false", "true"}
		case schema.Date:
			p.kind = kDate
		case schema.Count:
			p.kind, p.keys = kCount, [2]string{f.Part, f.Whole}
		default:
			p.kind, p.enum = kString, f.Choices
		}
		out[i] = p
	}
	return out
}

// schemaArgs reads a calculator's input from a request's parameters with
// its schema: a query's or a form's text as it is, and in a JSON body a
// string as its text, read by the one grammar ("95%", "8s", "17/20",
// "0.05,0.02"), a number as its JSON text, a boolean as true or false, a
// count's object and a list's array as their canonical text. The first
// fault is the answer, naming the parameter as the API calls it (the JSON
// path of a body's member).
func schemaArgs[T any](a *args, s *schema.Schema[T]) (T, error) {
	texts := map[string]string{}
	for _, f := range s.Fields {
		text, ok := a.text(f)
		if a.err != nil {
			var zero T
			return zero, a.err
		}
		if ok {
			texts[f.Key] = text
		}
	}
	in, err := s.Parse(texts)
	if err == nil {
		return in, nil
	}
	err = schema.First(err)
	if e, ok := err.(*core.Error); ok {
		if f, ok := s.Field(e.Field); ok && f.API != "" {
			c := *e
			c.Field = f.API
			err = &c
		}
	}
	return in, err
}

// text is the text of field f's parameter and whether it was given; a
// JSON value of a type the field cannot hold sets a.err.
func (a *args) text(f schema.Field) (string, bool) {
	name := f.Name()
	// A string is text of the one grammar, whatever the field's kind.
	text, js, ok := a.given(name)
	if !ok || js == nil {
		return text, ok
	}
	switch f.Kind {
	case schema.Fraction:
		if !isJSONNumber(js) {
			a.err = invalid(name, "must be a JSON number or a string such as \"95%%\", got %s", clip(js))
		}
		return string(js), true
	case schema.Seconds:
		if !isJSONNumber(js) {
			a.err = invalid(name, "must be a JSON number or a string such as \"8s\", got %s", clip(js))
		}
		return string(js), true
	case schema.Fractions, schema.Integers:
		if isJSONNumber(js) { // a list of one
			return string(js), true
		}
	case schema.Integer:
		if !isJSONNumber(js) {
			a.err = invalid(name, "must be a whole JSON number or a string such as \"3\", got %s", clip(js))
		}
		return string(js), true
	case schema.Bool:
		var b bool
		if !decodes(js, &b) {
			a.err = invalid(name, "must be true or false, got %s", clip(js))
		}
		return strconv.FormatBool(b), true
	case schema.Count:
		c, err := a.countObject(name, js)
		if err != nil {
			a.err = err
			return "", false
		}
		return schema.CountText(*c), true
	}
	switch f.Kind {
	case schema.Fractions:
		var vs []float64
		a.numbers(name, &vs)
		return schema.ListText(vs), true
	case schema.Integers:
		var vs []int
		a.integers(name, &vs)
		return schema.IntegersText(vs), true
	}
	a.err = invalid(name, "must be a JSON string, got %s", clip(js))
	return "", false
}
