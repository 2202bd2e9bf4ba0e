package share

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/quarantine"
)

func weekRegistry(t testing.TB) *quarantine.Registry {
	data, err := os.ReadFile("../../core/quarantine/testdata/registry.json")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := quarantine.Parse(data, "2026-12-02")
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestQuarantineLinkRoundTrip: a state encoded is decoded to itself.
func TestQuarantineLinkRoundTrip(t *testing.T) {
	rep := &quarantine.Reports{Runs: 2, Tests: map[string][]core.Count{"a": {{Passed: 1, Trials: 2}, {Passed: 3, Trials: 3}}},
		IDs: []string{"0123456789abcdef", "fedcba9876543210"}, Warnings: []string{"w"}}
	opt := quarantine.DefaultOptions
	opt.Renames = map[string]string{"old": "new"}
	s := NewQuarantineState(weekRegistry(t), rep, opt)
	text, err := EncodeQuarantine(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeQuarantine(text)
	if err != nil {
		t.Fatal(err)
	}
	s.Version = 1
	if !reflect.DeepEqual(*got, s) {
		t.Errorf("decoded\n%+v\nwant\n%+v", *got, s)
	}
}

// TestQuarantineLinkStrict: the quarantine link refuses what every other
// link refuses, where it is (columns counted by hand): a key given twice,
// a key in another case (encoding/json took both), NaN, trailing data.
func TestQuarantineLinkStrict(t *testing.T) {
	reg := `{"version":1,"tests":[]}`
	for _, c := range []struct{ in, want string }{
		{`{"v":1,"v":1,"registry":` + reg + `}`, `share data: 1:8: field "v" appears twice`},
		{`{"V":1,"registry":` + reg + `}`, `share data: 1:2: unknown field "V"`},
		{`{"v":1,"registry":` + reg + `,"target":NaN}`, `share data: 1:53: target: malformed JSON: NaN and Infinity are not JSON numbers`},
		{`{"v":1,"registry":` + reg + `} {}`, `share data: 1:45: malformed JSON: '{' after the end of the value`},
		{`{"v":1,"registry":` + reg + `,"reports":{"tests":{"a":[{"passed":1,"trials":1,"passed":1}]}}}`, `share data: 1:92: reports.tests.a[0]: field "passed" appears twice`},
		{`{"v":1,"registry":{"version":1,"version":1,"tests":[]}}`, `share data: 1:32: registry: field "version" appears twice`},
	} {
		_, err := ParseQuarantineJSON([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
}

// FuzzQuarantineLinkJSON: whatever the strict reader accepts,
// encoding/json decodes (unknown fields disallowed) to the same state.
func FuzzQuarantineLinkJSON(f *testing.F) {
	s := NewQuarantineState(weekRegistry(f), &quarantine.Reports{Runs: 1, Tests: map[string][]core.Count{"a": {{Passed: 1, Trials: 2}}}}, quarantine.DefaultOptions)
	s.Version = 1
	raw, _ := json.Marshal(s)
	f.Add(raw)
	f.Add([]byte(`{"v":1,"registry":{"version":1,"tests":[]},"comparable":0.5,"target":0.95,"cap":3,"renames":{"a":"b"}}`))
	f.Add([]byte(`{"v":1,"registry":{"version":1,"tests":[]},"reports":{"runs":1,"tests":{"x":[null,{"passed":0,"trials":1}]},"ids":null}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, reg, err := readQuarantineJSON(raw)
		if err != nil {
			return
		}
		var want struct {
			Version    int                 `json:"v"`
			Registry   json.RawMessage     `json:"registry"`
			Reports    *quarantine.Reports `json:"reports"`
			Renames    map[string]string   `json:"renames"`
			Comparable float64             `json:"comparable"`
			Target     float64             `json:"target"`
			Cap        int64               `json:"cap"`
		}
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.DisallowUnknownFields()
		if err := d.Decode(&want); err != nil {
			t.Fatalf("accepted %q, which encoding/json refuses: %v", raw, err)
		}
		if got.Version != want.Version || string(reg) != string(want.Registry) && !(reg == nil && string(want.Registry) == "") ||
			!reflect.DeepEqual(got.Reports, want.Reports) || !reflect.DeepEqual(got.Renames, want.Renames) ||
			got.Comparable != want.Comparable || got.Target != want.Target || got.Cap != want.Cap {
			t.Fatalf("%q: read %+v, encoding/json %+v", raw, got, want)
		}
	})
}
