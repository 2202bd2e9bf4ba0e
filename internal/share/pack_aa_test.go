package share

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/param"
)

// The expected bytes are json.Marshal's (encoding/json), which Pack used
// for every state before appendAAState.

func checkAAStateJSON(t *testing.T, name string, s AAState) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendAAState([]byte("kept"), &s); !bytes.Equal(got, append([]byte("kept"), want...)) {
		t.Fatalf("%s: appendAAState wrote\n%s\njson.Marshal\n%s", name, got, want)
	}
}

// TestAAStateJSON: json.Marshal's bytes for sides with and without a
// candidate, nil and empty lists, extreme counts, and ids that encoding/json
// escapes (quotes, backslashes, HTML characters, control characters,
// invalid UTF-8, U+2028).
func TestAAStateJSON(t *testing.T) {
	ids := []string{"scenario-001", "", `a"b`, `back\slash`, "<script>&", "tab\there", "nl\n", "\x00\x1f",
		"é ü 日本", "\xff\xfe bad", "line\u2028sep\u2029", "~!@#$%^*()_+`-={}|[]:;',./?"}
	rng := rand.New(rand.NewPCG(1, 2))
	tallies := func(n int) []aa.Tally {
		ts := make([]aa.Tally, n)
		for i := range ts {
			ts[i] = aa.Tally{ID: ids[rng.IntN(len(ids))], Passed: rng.Int64N(1000) - 1, Total: rng.Int64()}
		}
		return ts
	}
	checkAAStateJSON(t, "nil baseline", AAState{Version: 1})
	checkAAStateJSON(t, "nil lists", AAState{Version: 1, Baseline: &aa.Side{}})
	checkAAStateJSON(t, "empty lists", AAState{Version: 1, Baseline: &aa.Side{Scenarios: []aa.Tally{}, Runs: []aa.Tally{}}, Candidate: &aa.Side{}})
	checkAAStateJSON(t, "extremes", AAState{Version: -7, Baseline: &aa.Side{
		Scenarios: []aa.Tally{{ID: "x", Passed: math.MinInt64, Total: math.MaxInt64}}, Rows: math.MaxInt64, Duplicates: math.MinInt64}})
	for trial := range 200 {
		s := AAState{Version: 1, Baseline: &aa.Side{Scenarios: tallies(rng.IntN(30)), Runs: tallies(rng.IntN(5)),
			Rows: rng.Int64(), Duplicates: rng.Int64N(9)}}
		if trial%2 == 1 {
			s.Candidate = &aa.Side{Scenarios: tallies(rng.IntN(30)), Runs: tallies(1 + rng.IntN(3)), Rows: 3}
		}
		if trial%3 == 0 {
			s.Options = map[string]string{"k": ids[rng.IntN(len(ids))], ids[rng.IntN(len(ids))]: "0.02", "simulate": "false"}
		}
		checkAAStateJSON(t, "random", s)
		if trial%20 == 0 { // and the link is Pack's, of the current version with options
			got, err1 := EncodeAA(s)
			s.Version = AAVersion
			if s.Options == nil {
				s.Options = AAOptionsText(param.AA.Default())
			}
			want, err2 := Pack(s)
			if got != want || err1 != nil || err2 != nil {
				t.Fatalf("trial %d: EncodeAA %.40s… (%v), Pack %.40s… (%v)", trial, got, err1, want, err2)
			}
		}
	}
}

// TestAAStateFields: appendAAState knows every field of AAState, aa.Side
// and aa.Tally; a new field must be written there too (and this list
// updated), or links would lose it.
func TestAAStateFields(t *testing.T) {
	for _, c := range []struct {
		v    any
		want []string
	}{
		{AAState{}, []string{"Version int json:\"v\"", "Baseline *aa.Side json:\"baseline\"", "Candidate *aa.Side json:\"candidate,omitempty\"",
			"Options map[string]string json:\"options,omitempty\""}},
		{aa.Side{}, []string{"Scenarios []aa.Tally json:\"scenarios\"", "Runs []aa.Tally json:\"runs\"", "Rows int64 json:\"rows\"", "Duplicates int64 json:\"duplicates\""}},
		{aa.Tally{}, []string{"ID string json:\"id\"", "Passed int64 json:\"passed\"", "Total int64 json:\"total\""}},
	} {
		rt := reflect.TypeOf(c.v)
		var got []string
		for i := range rt.NumField() {
			f := rt.Field(i)
			got = append(got, f.Name+" "+f.Type.String()+" json:\""+f.Tag.Get("json")+"\"")
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s has fields %q; appendAAState writes %q", rt, got, c.want)
		}
		if _, ok := reflect.PointerTo(rt).MethodByName("MarshalJSON"); ok {
			t.Errorf("%s has a MarshalJSON method that appendAAState does not call", rt)
		}
	}
}

// FuzzAAStateJSON: any ids and counts give json.Marshal's bytes.
func FuzzAAStateJSON(f *testing.F) {
	f.Add("scenario-001", "run-01", int64(3), int64(20), true)
	f.Add("<&>\"\\", "\xff", int64(-1), int64(math.MaxInt64), false)
	f.Fuzz(func(t *testing.T, id, run string, passed, total int64, cand bool) {
		side := &aa.Side{Scenarios: []aa.Tally{{ID: id, Passed: passed, Total: total}, {ID: run}},
			Runs: []aa.Tally{{ID: run, Passed: total, Total: passed}}, Rows: passed, Duplicates: total}
		s := AAState{Version: 1, Baseline: side, Options: map[string]string{id: run, run: id}}
		if cand {
			s.Candidate = side
		}
		checkAAStateJSON(t, "fuzz", s)
	})
}
