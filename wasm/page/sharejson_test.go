package page

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/internal/jsonref"
	"github.com/flakegate/flakegate/internal/share"
)

// expectStdDecode checks that read accepts each of cases and gives what
// encoding/json gives (jsonref.Diff).
func expectStdDecode[T any](t *testing.T, read func([]byte) (T, error), cases map[string][]byte) {
	t.Helper()
	for name, raw := range cases {
		if _, diff, err := jsonref.Diff(read, raw); err != nil {
			t.Errorf("%s: %v", name, err)
		} else if diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
}

func TestShareJSONMatchesEncodingJSON(t *testing.T) {
	base := sampleSide(t, aaCSV(40, 6, func(s, r int) bool { return (s*7+r)%5 == 0 }))
	cand := sampleSide(t, aaCSV(40, 2, func(s, r int) bool { return (s+r)%3 == 0 }))
	base.Scenarios[0].ID = "é \"quoted\" \\ tab\t nul\x00 ☃ 𝄞 </script>"
	compact, err := json.Marshal(AAShare{Version: 1, Baseline: base, Candidate: cand})
	if err != nil {
		t.Fatal(err)
	}
	expectStdDecode(t, share.ReadAAJSON, map[string][]byte{
		"compact (links)":       compact,
		"indented (JSON files)": ShareJSON(AAShare{Baseline: base, Candidate: cand}),
		"escapes":               []byte(`{"v":1,"baseline":{"scenarios":[{"id":"\u00e9\ud834\udd1e\/\b\f\n\r\t","passed":0,"total":1}],"runs":null,"rows":-0}}`),
		"nulls":                 []byte(`{"v":1,"baseline":{"scenarios":[{"id":null,"passed":null,"total":null}],"runs":[],"rows":null,"duplicates":null},"candidate":null}`),
		"empty":                 []byte(` { } `),
		"options":               []byte(`{"v":2,"baseline":null,"options":{"k":"1,2","seed":null,"\u00e9":"x"}}`),
		"null options":          []byte(`{"v":2,"options":null}`),
	})
}

// TestShareJSONRejects: each mistake's line, column (counted by hand on
// the input, 1-based) and path.
func TestShareJSONRejects(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`{"v":1,"baseline":{"rows":1.5}}`, "1:27: baseline.rows: want a whole number, got 1.5"},
		{`{"v":1e0}`, "1:6: v: want a whole number, got 1e0"},
		{`{"v":01}`, `1:6: v: malformed JSON: "01" is not a number`},
		{`{"v":9223372036854775808}`, "1:6: v: 9223372036854775808 does not fit in 64 bits"},
		{`{"v":1,"x":2}`, `1:8: unknown field "x"`},
		{`{"v":1,"baseline":{"scenarios":[{"id":"a","Passed":1}]}}`, `1:43: baseline.scenarios[0]: unknown field "Passed"`},
		{`{"v":1,"v":1}`, `1:8: field "v" appears twice`},
		{`{"v":1} x`, "1:9: malformed JSON: 'x' after the end of the value"},
		{`{"v":1,"baseline":{"scenarios":[{"id":"\ud800"}]}}`, `1:40: baseline.scenarios[0].id: a \u escape of half a UTF-16 surrogate pair, without its other half`},
		{"{\"v\":1,\"baseline\":{\"scenarios\":[{\"id\":\"\xff\"}]}}", "1:40: baseline.scenarios[0].id: a string that is not valid UTF-8 (byte 0xff)"},
		{`{"v":1,"baseline":{"scenarios":[{"id":"a` + "\n" + `"}]}}`, "1:41: baseline.scenarios[0].id: malformed JSON: a control character (byte 0x0a) inside a string; it must be escaped"},
		{`{"v":1,"baseline":{"scenarios":[{"id":"\q"}]}}`, `1:40: baseline.scenarios[0].id: malformed JSON: unknown escape \q in a string`},
		{`{"v":1,"baseline":{"scenarios":[null]}}`, "1:33: baseline.scenarios[0]: malformed JSON: want an object, found 'n'"},
		{`{"v":1,"baseline":{"scenarios":[{"id":"a"}`, "1:43: baseline.scenarios[0]: malformed JSON: the share ends where ',' or ']' after the value should be (is it cut short?)"},
		{`{"v":1`, "1:7: v: malformed JSON: the share ends where ',' or '}' after the value should be (is it cut short?)"},
		{`{"v":"1"}`, `1:6: v: want a whole number, got "1"`},
		{``, "1:1: malformed JSON: the share ends where an object should be (is it cut short?)"},
	} {
		_, err := share.ReadAAJSON([]byte(c.in))
		if err == nil || err.Error() != c.msg {
			t.Errorf("%q: got %v, want the error %q", c.in, err, c.msg)
		}
	}
}

// FuzzShareJSON: whatever share.ReadAAJSON accepts, encoding/json decodes
// to the same share; and every share encodes to JSON it reads back.
func FuzzShareJSON(f *testing.F) {
	side := &aa.Side{Scenarios: []aa.Tally{{ID: "a\"\\☃", Passed: 1, Total: 2}}, Runs: []aa.Tally{{ID: "r1", Passed: 1, Total: 2}}, Rows: 2}
	compact, _ := json.Marshal(AAShare{Version: 1, Baseline: side, Candidate: side})
	jsonref.Fuzz(f, share.ReadAAJSON, compact, ShareJSON(AAShare{Baseline: side}), []byte(`{"v":1,"baseline":null}`),
		[]byte(`{"v":-0,"baseline":{"scenarios":[{"id":"\u00e9\ud834\udd1e"}],"runs":null}}`), []byte(`{"V":1}`), []byte(`[1]`))
}

func sampleSide(t testing.TB, csv string) *aa.Side {
	t.Helper()
	s, err := aa.ReadCSV(strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAAShareRoundTrip(t *testing.T) {
	base := sampleSide(t, aaCSV(200, 10, func(s, r int) bool { return (s*31+r*17)%23 == 0 }))
	cand := sampleSide(t, aaCSV(200, 3, func(s, r int) bool { return (s+r)%7 == 0 }))
	enc, err := share.EncodeAA(AAShare{Baseline: base, Candidate: cand})
	if err != nil {
		t.Fatal(err)
	}
	// Same statistics, same link bytes.
	enc2, _ := share.EncodeAA(AAShare{Baseline: base, Candidate: cand})
	if enc != enc2 {
		t.Error("encoding is not deterministic")
	}
	if strings.ContainsAny(enc, "+/=%#&") {
		t.Errorf("encoding is not fragment-safe: %q", enc[:40])
	}
	back, err := share.DecodeAA(enc)
	if err != nil {
		t.Fatal(err)
	}
	// Every A/A figure is reproduced exactly: same JSON bytes.
	r1, _ := aa.Check(base, cand, aa.DefaultOptions)
	r2, _ := aa.Check(back.Baseline, back.Candidate, aa.DefaultOptions)
	if a, b := jsonOf(t, r1), jsonOf(t, r2); !bytes.Equal(a, b) {
		t.Errorf("results differ after the link:\n%s\n%s", a, b)
	}
	t.Logf("200 scenarios × 10 runs + 3 candidate runs: %d bytes of fragment", len(enc))
	if len(enc) > MaxShareFragment {
		t.Errorf("a 200-scenario suite should fit a link, took %d bytes", len(enc))
	}
}

func TestAAShareRejects(t *testing.T) {
	good, _ := share.EncodeAA(AAShare{Baseline: &aa.Side{Scenarios: []aa.Tally{{ID: "a", Passed: 1, Total: 2}}}})
	for name, text := range map[string]string{
		"not base64":   "***",
		"not deflate":  "aGVsbG8",
		"truncated":    good[:len(good)/2],
		"bad tally":    mustEncodeJSON(t, `{"v":1,"baseline":{"scenarios":[{"id":"a","passed":3,"total":2}],"runs":[],"rows":2,"duplicates":0}}`),
		"no baseline":  mustEncodeJSON(t, `{"v":1}`),
		"version":      mustEncodeJSON(t, `{"v":2,"baseline":{"scenarios":[],"runs":[],"rows":0,"duplicates":0}}`),
		"unknown keys": mustEncodeJSON(t, `{"v":1,"baseline":{"scenarios":[],"runs":[],"rows":0,"duplicates":0},"x":1}`),
	} {
		if _, err := share.DecodeAA(text); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func mustEncodeJSON(t testing.TB, js string) string {
	if !json.Valid([]byte(js)) {
		t.Fatalf("test JSON is not valid: %s", js)
	}
	return rawEncode(js)
}

func rawEncode(js string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(js))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func FuzzDecodeAAShareText(f *testing.F) {
	good, _ := share.EncodeAA(AAShare{Baseline: &aa.Side{
		Scenarios: []aa.Tally{{ID: "a", Passed: 1, Total: 2}}, Runs: []aa.Tally{{ID: "r1", Passed: 1, Total: 2}}, Rows: 2}})
	for _, s := range []string{good, "", "***", "aGVsbG8", good[:5], rawEncode(`{"v":1,"baseline":null}`)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := share.DecodeAA(text)
		if err != nil {
			return
		}
		// Whatever decodes must be safe to compute with, and re-encode to
		// the same statistics.
		aa.Check(s.Baseline, s.Candidate, aa.DefaultOptions)
		enc, err := share.EncodeAA(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := share.DecodeAA(enc)
		if err != nil {
			t.Fatalf("re-encoded share does not decode: %v", err)
		}
		if !bytes.Equal(ShareJSON(back), ShareJSON(s)) {
			t.Fatal("re-encoded share differs")
		}
	})
}

func Example_aaShare() {
	side := &aa.Side{
		Scenarios: []aa.Tally{{ID: "login", Passed: 2, Total: 3}, {ID: "search", Passed: 3, Total: 3}},
		Runs:      []aa.Tally{{ID: "r1", Passed: 2, Total: 2}, {ID: "r2", Passed: 1, Total: 2}, {ID: "r3", Passed: 2, Total: 2}},
		Rows:      6,
	}
	enc, _ := share.EncodeAA(AAShare{Baseline: side})
	back, _ := share.DecodeAA(enc)
	fmt.Println(back.Baseline.Scenarios[0].ID, back.Baseline.Scenarios[0].Passed, back.Baseline.Scenarios[0].Total)
	// Output: login 2 3
}
