package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// TestScanJSON: the counts of small texts, by hand: marks are the '{',
// '[', ',' and ':' outside strings, members the ':', entries the objects
// two levels down.
func TestScanJSON(t *testing.T) {
	for _, tc := range []struct {
		text string
		want jsonShape
	}{
		{`{}`, jsonShape{Marks: 1}},
		{`{"a":1}`, jsonShape{Marks: 2, Members: 1}},
		{`{"a":"x:,{[\"]}","b":[1,2]}`, jsonShape{Marks: 6, Members: 2}},
		{`{"tests":[{"a":1},{"b":{"c":2}}]}`, jsonShape{Marks: 10, Members: 4, Entries: 2}},
		{`[[{}],[{},{}]]`, jsonShape{Marks: 8, Entries: 3}},
		{`"\\"`, jsonShape{}},
		{`{"unterminated`, jsonShape{Marks: 1}},
	} {
		if got := scanJSON([]byte(tc.text)); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

// FuzzScanJSON: on any text the core's scanner accepts (one that repeats
// no key), the members are the object members encoding/json decodes, and
// the marks bound the values and names it decodes (values + names <= marks
// + 1).
func FuzzScanJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":"\"}"}]}`, `[1,2,[3]]`, `"x"`, `{"tests":[{"a":{"b":[]}}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v any
		if jsonscan.Check(b, "text") != nil || json.Unmarshal(b, &v) != nil {
			scanJSON(b) // never fails, whatever the bytes
			return
		}
		var values, names int
		var walk func(v any)
		walk = func(v any) {
			values++
			switch v := v.(type) {
			case map[string]any:
				for _, x := range v {
					names++
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			}
		}
		walk(v)
		got := scanJSON(b)
		if got.Members != names || values+names > got.Marks+1 {
			t.Errorf("%q: %+v for %d values and %d names", b, got, values, names)
		}
	})
}

// TestRegistryAtShapeLimit: a registry of as many JSON values as 3,000
// tests take, all of them wrong (lists of zeros), is parsed and refused in
// well under 64 MB of heap; one more, it is refused unparsed.
func TestRegistryAtShapeLimit(t *testing.T) {
	limit := MaxTests*marksPerEntry + marksPerEntry
	registry := func(marks int) string {
		// {"version":1,"tests":[...]}: 5 marks; then lists of zeros (the
		// parser takes at most 10,000 items in one), each a '[' and a ','
		// per zero after its first, and a ',' between lists.
		var b strings.Builder
		b.WriteString(`{"version":1,"tests":[`)
		for left := marks - 5; left > 0; {
			if b.Len() > 22 {
				b.WriteByte(',')
				left--
			}
			k := min(9000, left) // zeros in this list: 1 + (k-1) marks
			b.WriteString("[" + strings.Repeat("0,", k-1) + "0]")
			left -= k
		}
		b.WriteString("]}")
		return b.String()
	}
	h := New(LambdaOptions())
	for _, tc := range []struct {
		marks, status int
	}{{limit, 400}, {limit + 1, 413}} {
		body := registry(tc.marks)
		if got := scanJSON([]byte(body)).Marks; got != tc.marks {
			t.Fatalf("the registry has %d marks, want %d", got, tc.marks)
		}
		c := apitest.Case{Name: "registry", Method: "POST", URL: "/v1/quarantine/check?today=2026-11-25",
			Header: map[string]string{"Content-Type": "application/json"}, Body: body}
		cost, err := apitest.Measure(h, c, "testdata", LambdaMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		if cost.Status != tc.status || cost.PeakHeap >= requestHeapLimit {
			t.Errorf("%d marks: status %d (want %d), peak heap %.1f MB", tc.marks, cost.Status, tc.status, float64(cost.PeakHeap)/1e6)
		}
		t.Logf("%d marks: status %d, peak heap %.1f MB, CPU %v", tc.marks, cost.Status, float64(cost.PeakHeap)/1e6, cost.CPU)
	}
}
