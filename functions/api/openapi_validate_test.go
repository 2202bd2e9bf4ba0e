package api

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/api/apitest"
)

// validator checks a JSON value against the subset of JSON Schema the
// generated document uses: $ref, type (one or a list), properties,
// required, additionalProperties false, items, enum, const, oneOf, anyOf,
// allOf.
type validator struct {
	schemas map[string]any
}

func (v *validator) check(s any, x any, at string) error {
	m, ok := s.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: schema is %T", at, s)
	}
	if r, ok := m["$ref"].(string); ok {
		name := strings.TrimPrefix(r, "#/components/schemas/")
		target, ok := v.schemas[name]
		if !ok {
			return fmt.Errorf("%s: dangling $ref %s", at, r)
		}
		return v.check(target, x, at)
	}
	for _, key := range []string{"allOf"} {
		if subs, ok := m[key].([]any); ok {
			for _, sub := range subs {
				if err := v.check(sub, x, at); err != nil {
					return err
				}
			}
		}
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		subs, ok := m[key].([]any)
		if !ok {
			continue
		}
		n := 0
		var last error
		for _, sub := range subs {
			if err := v.check(sub, x, at); err == nil {
				n++
			} else {
				last = err
			}
		}
		if n == 0 || (key == "oneOf" && n > 1) {
			return fmt.Errorf("%s: %d of %s match (%v)", at, n, key, last)
		}
	}
	if t, ok := m["type"]; ok {
		var types []string
		switch tt := t.(type) {
		case string:
			types = []string{tt}
		case []any:
			for _, e := range tt {
				types = append(types, e.(string))
			}
		}
		match := false
		for _, ty := range types {
			match = match || isType(ty, x)
		}
		if !match {
			return fmt.Errorf("%s: %v is not %v", at, short(x), types)
		}
	}
	if e, ok := m["enum"].([]any); ok {
		found := false
		for _, ev := range e {
			found = found || ev == x
		}
		if !found {
			return fmt.Errorf("%s: %v not in %v", at, x, e)
		}
	}
	if c, ok := m["const"]; ok && c != x {
		return fmt.Errorf("%s: %v, want const %v", at, x, c)
	}
	if obj, ok := x.(map[string]any); ok {
		props, _ := m["properties"].(map[string]any)
		for _, r := range asStrings(m["required"]) {
			if _, ok := obj[r]; !ok {
				return fmt.Errorf("%s: missing required %q", at, r)
			}
		}
		for k, val := range obj {
			ps, ok := props[k]
			if !ok {
				if m["additionalProperties"] == false {
					return fmt.Errorf("%s: member %q is not described", at, k)
				}
				continue
			}
			if err := v.check(ps, val, at+"."+k); err != nil {
				return err
			}
		}
	}
	if arr, ok := x.([]any); ok {
		if items, ok := m["items"]; ok {
			for i, e := range arr {
				if err := v.check(items, e, at+"["+strconv.Itoa(i)+"]"); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// isType reports whether x, decoded by encoding/json, is of the JSON
// Schema type ty.
func isType(ty string, x any) bool {
	is, known := jsonTypes[ty]
	return known && is(x)
}

var jsonTypes = map[string]func(any) bool{
	"null":    func(x any) bool { return x == nil },
	"object":  decodedAs[map[string]any],
	"array":   decodedAs[[]any],
	"string":  decodedAs[string],
	"boolean": decodedAs[bool],
	"number":  decodedAs[float64],
	"integer": func(x any) bool { f, ok := x.(float64); return ok && f == math.Trunc(f) },
}

// decodedAs reports whether x is a T.
func decodedAs[T any](x any) bool {
	_, ok := x.(T)
	return ok
}

func asStrings(v any) []string {
	var out []string
	if a, ok := v.([]any); ok {
		for _, e := range a {
			out = append(out, e.(string))
		}
	}
	return out
}

func short(x any) string {
	b, _ := json.Marshal(x)
	if len(b) > 80 {
		b = append(b[:80], "…"...)
	}
	return string(b)
}

// TestOpenAPIDescribesAnswers validates every answer of the corpus against
// the schema the document gives for its route, method and status, and each
// JSON request body against the request schema. A result field the core
// adds, drops or makes nullable fails here until the document is
// regenerated.
func TestOpenAPIDescribesAnswers(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatal(err)
	}
	comps := doc["components"].(map[string]any)
	v := &validator{schemas: comps["schemas"].(map[string]any)}
	resps := comps["responses"].(map[string]any)
	paths := doc["paths"].(map[string]any)
	h := New(Options{})
	checked := 0
	for _, c := range loadCorpus(t) {
		path, _, _ := strings.Cut(c.URL, "?")
		got, err := apitest.InProcess(h, c, "testdata", DefaultMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		if c.Method == http.MethodHead || c.Method == http.MethodOptions || got.Status == 404 || got.Status == 405 {
			continue
		}
		op, _ := paths[path].(map[string]any)[strings.ToLower(c.Method)].(map[string]any)
		if op == nil {
			t.Errorf("%s: %s %s not described", c.Name, c.Method, path)
			continue
		}
		r, ok := op["responses"].(map[string]any)[strconv.Itoa(got.Status)].(map[string]any)
		if !ok {
			t.Errorf("%s: status %d not described for %s %s", c.Name, got.Status, c.Method, path)
			continue
		}
		if ref, ok := r["$ref"].(string); ok {
			r = resps[strings.TrimPrefix(ref, "#/components/responses/")].(map[string]any)
		}
		ct := got.Header.Get("Content-Type")
		media, ok := r["content"].(map[string]any)[ct].(map[string]any)
		if !ok {
			t.Errorf("%s: %s answer not described", c.Name, ct)
			continue
		}
		var body any
		if err := json.Unmarshal(got.Body, &body); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if err := v.check(media["schema"], body, "body"); err != nil {
			t.Errorf("%s: answer does not fit the document: %v", c.Name, err)
		}
		if hs, ok := r["headers"].(map[string]any); ok {
			cc := hs["Cache-Control"].(map[string]any)["schema"]
			if err := v.check(cc, got.Header.Get("Cache-Control"), "Cache-Control"); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
		}
		if got.Status == 200 && c.Header["Content-Type"] == "application/json" && c.Header["Content-Encoding"] == "" {
			rb := op["requestBody"].(map[string]any)["content"].(map[string]any)["application/json"].(map[string]any)
			raw := []byte(c.Body)
			if c.BodyFile != "" {
				if raw, _, err = c.Payload("testdata", DefaultMaxBodyBytes); err != nil {
					t.Fatal(err)
				}
			}
			var req any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(string(raw), "\ufeff")), &req); err != nil {
				t.Fatal(err)
			}
			// Parameter aliases are accepted but not described.
			if m, ok := req.(map[string]any); ok {
				if x, ok := m["cost"]; ok {
					m["cost_seconds"] = x
					delete(m, "cost")
				}
			}
			if err := v.check(rb["schema"], req, "request"); err != nil {
				t.Errorf("%s: accepted request does not fit the document: %v", c.Name, err)
			}
		}
		checked++
	}
	if checked < 50 {
		t.Errorf("only %d answers checked", checked)
	}
}
