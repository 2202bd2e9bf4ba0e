package compare

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestPairing: questions only one side has are named, counted and left
// out; the rest pair in A's order whatever B's order.
func TestPairing(t *testing.T) {
	a := sides("q1:1/1 q2:0/1 q3:1/1 onlyA:1/1")
	b := sides("q3:0/1 extra1:1/1 q1:1/1 q2:1/1 extra2:0/1")
	res, err := Compare(a, b, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if res.Questions != 3 || res.A.OnlyCount != 1 || res.A.Only[0] != "onlyA" || res.B.OnlyCount != 2 ||
		strings.Join(res.B.Only, ",") != "extra1,extra2" {
		t.Errorf("paired %d, only A %v, only B %v", res.Questions, res.A.Only, res.B.Only)
	}
	if !hasWarning(res, "side A has 1 question that side B lacks, left out of the comparison: onlyA") ||
		!hasWarning(res, "side B has 2 questions that side A lacks, left out of the comparison: extra1, extra2") {
		t.Errorf("warnings %q", res.Warnings)
	}
	if res.Improved != 1 || res.Worsened != 1 || res.Flips[0].ID != "q2" || res.Flips[1].ID != "q3" {
		t.Errorf("flips %+v", res.Flips)
	}
	opt := DefaultOptions
	opt.MaxListed = 1
	res, _ = Compare(a, b, opt)
	if len(res.B.Only) != 1 || res.B.OnlyCount != 2 {
		t.Errorf("MaxListed 1: only B %v (%d)", res.B.Only, res.B.OnlyCount)
	}
}

// TestModelPart: the part of a name that names the model is dropped only
// when no id matches and it is constant within each side.
func TestModelPart(t *testing.T) {
	a := sides("t1·x:1/1 t2·x:0/1")
	a.Scenarios[0].ID, a.Scenarios[1].ID = "t1 · gpt · prompt 1", "t2 · gpt · prompt 1"
	b := sides("t1:1/1 t2:1/1")
	b.Scenarios[0].ID, b.Scenarios[1].ID = "t1 · claude · prompt 1", "t2 · claude · prompt 1"
	res, err := Compare(a, b, DefaultOptions)
	if err != nil || res.Questions != 2 || !hasWarning(res, `"gpt" on side A, "claude" on side B`) {
		t.Fatalf("res %+v err %v", res, err)
	}
	b.Scenarios[1].ID = "t2 · mistral · prompt 1" // not constant on B: nothing to drop
	if _, err := Compare(a, b, DefaultOptions); core.ErrorKind(err) != core.Unusable {
		t.Errorf("no common question: err %v", err)
	}
}

// TestRefusals: settings out of range are Invalid, sides that cannot be
// compared Unusable, and each message names the input.
func TestRefusals(t *testing.T) {
	good := sides("q1:1/1 q2:0/1")
	for _, tc := range []struct {
		a, b string
		opt  func(*Options)
		kind core.Kind
		msg  string
	}{
		{"q1:1/1", "q1:1/1", nil, core.Unusable, "1 question in common"},
		{"x:1/1 y:1/1", "q1:1/1 q2:1/1", nil, core.Unusable, "0 questions in common"},
		{"q1:2/1 q2:0/1", "", nil, core.Invalid, `question "q1": 2 passed of 1 trials`},
		{"q1:1/1 q1:0/1", "", nil, core.Invalid, `"q1" is listed twice`},
		{"q1:0/0 q2:0/1", "", nil, core.Invalid, "0 passed of 0 trials"},
		{"", "", func(o *Options) { o.Level = 1 }, core.Invalid, "level: must be between 0 and 1"},
		{"", "", func(o *Options) { o.Power = 0 }, core.Invalid, "power"},
		{"", "", func(o *Options) { o.Effect = 0 }, core.Invalid, "effect: must be a fraction from 0.0001 to 1"},
		{"", "", func(o *Options) { o.MaxListed = 0 }, core.Invalid, "max_listed"},
	} {
		a, b := good, good
		if tc.a != "" {
			a = sides(tc.a)
		}
		if tc.b != "" {
			b = sides(tc.b)
		}
		opt := DefaultOptions
		if tc.opt != nil {
			tc.opt(&opt)
		}
		_, err := Compare(a, b, opt)
		if core.ErrorKind(err) != tc.kind || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q vs %q: err %v, want %s containing %q", tc.a, tc.b, err, tc.kind, tc.msg)
		}
	}
	if _, err := Compare(nil, good, DefaultOptions); core.ErrorKind(err) != core.Invalid {
		t.Errorf("nil side: %v", err)
	}
}

// TestGolden holds the JSON of the fixtures' comparisons to
// testdata/golden/*.json. The figures in them are checked by hand in
// logs_test.go; the files pin every other field and the bytes (go test
// -update writes them again).
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		opt  func(*Options)
	}{
		{"one-run", "q1:1/1 q2:0/1 q3:0/1 q4:1/1 q5:0/1 q6:1/1 q7:1/1 q8:0/1", "q1:1/1 q2:1/1 q3:1/1 q4:1/1 q5:0/1 q6:0/1 q7:1/1 q8:1/1", nil},
		{"epochs-clustered", "q1:3/3 q2:2/3 q3:1/3 q4:0/3 q5:3/3 q6:2/3 q7:0/3 q8:0/3", "q1:3/3 q2:3/3 q3:2/3 q4:1/3 q5:3/3 q6:0/3 q7:3/3 q8:3/3",
			func(o *Options) {
				o.ClusterField = "passage"
				o.Clusters = map[string]string{"q1": "p1", "q2": "p1", "q3": "p2", "q4": "p2", "q5": "p3", "q6": "p3", "q7": "p4", "q8": "p4"}
			}},
	} {
		opt := DefaultOptions
		if tc.opt != nil {
			tc.opt(&opt)
		}
		res, err := Compare(sides(tc.a), sides(tc.b), opt)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := core.WriteJSON(&got, res); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", tc.name+".json")
		testfile.Golden(t, path, got.Bytes(), *update, "-update")
	}
}
