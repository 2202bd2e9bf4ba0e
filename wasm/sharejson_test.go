package wasm

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
)

// stdShare decodes raw as ParseAAShareJSON did with encoding/json.
func stdShare(raw []byte) (AAShare, error) {
	var s AAShare
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(&s)
	return s, err
}

func TestShareJSONMatchesEncodingJSON(t *testing.T) {
	base := sampleSide(t, aaCSV(40, 6, func(s, r int) bool { return (s*7+r)%5 == 0 }))
	cand := sampleSide(t, aaCSV(40, 2, func(s, r int) bool { return (s+r)%3 == 0 }))
	base.Scenarios[0].ID = "é \"quoted\" \\ tab\t nul\x00 ☃ 𝄞 </script>"
	compact, err := json.Marshal(AAShare{Version: 1, Baseline: base, Candidate: cand})
	if err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string][]byte{
		"compact (links)":       compact,
		"indented (JSON files)": ShareJSON(AAShare{Baseline: base, Candidate: cand}),
		"escapes":               []byte(`{"v":1,"baseline":{"scenarios":[{"id":"\u00e9\ud834\udd1e\/\b\f\n\r\t","passed":0,"total":1}],"runs":null,"rows":-0}}`),
		"nulls":                 []byte(`{"v":1,"baseline":{"scenarios":[{"id":null,"passed":null,"total":null}],"runs":[],"rows":null,"duplicates":null},"candidate":null}`),
		"empty":                 []byte(` { } `),
	} {
		got, err := decodeShareJSON(raw)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want, err := stdShare(raw)
		if err != nil {
			t.Fatalf("%s: encoding/json: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, encoding/json %+v", name, got, want)
		}
	}
}

func TestShareJSONRejects(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`{"v":1,"baseline":{"rows":1.5}}`, "byte 27: expected a whole number"},
		{`{"v":1e0}`, "byte 6: expected a whole number"},
		{`{"v":01}`, "byte 6: a number may not start with 0"},
		{`{"v":9223372036854775808}`, "does not fit in 64 bits"},
		{`{"v":1,"x":2}`, `unknown field "x"`},
		{`{"v":1,"baseline":{"scenarios":[{"id":"a","Passed":1}]}}`, `unknown field "Passed"`},
		{`{"v":1,"v":1}`, `byte 8: field "v" given twice`},
		{`{"v":1} x`, "byte 9: data after the end"},
		{`{"v":1,"baseline":{"scenarios":[{"id":"\ud800"}]}}`, "lone surrogate"},
		{"{\"v\":1,\"baseline\":{\"scenarios\":[{\"id\":\"\xff\"}]}}", "not valid UTF-8"},
		{`{"v":1,"baseline":{"scenarios":[{"id":"a` + "\n" + `"}]}}`, "control character"},
		{`{"v":1,"baseline":{"scenarios":[{"id":"\q"}]}}`, `bad escape \q`},
		{`{"v":1,"baseline":{"scenarios":[null]}}`, "expected '{'"},
		{`{"v":1,"baseline":{"scenarios":[{"id":"a"}`, "expected ',' or ']'"},
		{`{"v":1`, "expected ',' or '}'"},
		{`{"v":"1"}`, "expected a whole number"},
		{``, "expected '{'"},
	} {
		_, err := decodeShareJSON([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: got %v, want an error saying %q", c.in, err, c.msg)
		}
	}
}

// FuzzShareJSON: whatever decodeShareJSON accepts, encoding/json decodes
// to the same share; and every share encodes to JSON it reads back.
func FuzzShareJSON(f *testing.F) {
	side := &aa.Side{Scenarios: []aa.Tally{{ID: "a\"\\☃", Passed: 1, Total: 2}}, Runs: []aa.Tally{{ID: "r1", Passed: 1, Total: 2}}, Rows: 2}
	compact, _ := json.Marshal(AAShare{Version: 1, Baseline: side, Candidate: side})
	for _, s := range [][]byte{compact, ShareJSON(AAShare{Baseline: side}), []byte(`{"v":1,"baseline":null}`),
		[]byte(`{"v":-0,"baseline":{"scenarios":[{"id":"\u00e9\ud834\udd1e"}],"runs":null}}`), []byte(`{"V":1}`), []byte(`[1]`)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := decodeShareJSON(raw)
		if err != nil {
			return
		}
		want, err := stdShare(raw)
		if err != nil {
			t.Fatalf("accepted what encoding/json rejects (%v): %q", err, raw)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %+v, encoding/json %+v, from %q", got, want, raw)
		}
		again, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeShareJSON(again)
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Fatalf("re-encoded share reads back as %+v, %v", back, err)
		}
	})
}
