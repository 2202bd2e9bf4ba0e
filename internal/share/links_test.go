package share

import (
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/aa/sim"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/quarantine"
)

// Links handed out before the A/A and compare links carried their options
// and a version, written here as the code of that time wrote them (its
// share.Compare and share.AA on the sides below, copied from its output):
// they must keep opening as they did then.
const (
	// A comparison at the defaults of the time: no option written.
	oldCompareDefaults = "qlYqU7Iy1FFKVLKKrlbKTFGyUio0VNJRKkgsLk5NUbIy1lEqyS9JzFGyMqnVgSkwQlJgiE2BMZICE2wKTJAUGCApiNVRSsLhEhNCLjGm2CVGyC6pBQQAAP__"
	// The same with effect 0.05 and clusters by "passage": only those
	// written.
	oldCompareEffect = "pM5BCsIwEIXhu7z1IG0TN3MVEYntRAoBGxPdhNxdBrFEqLhw92D-ga_gAe4JDnwomCcwYg_C4lKSCWwI-ZpdANtK72Bogn4rME1gtwLbBF0THAnnLxL7S2L-lgyfEvFexgzudt2eMIZ7ynI7-VmCfuqTuwjWSwIXJTMWdcdhXUaXUqN9rVqfAQAA__8"
	// An A/A baseline: the statistics alone.
	oldAA = "bM2xqgMhEEbhd_nrKXQtLndeJaQw6xSC6OK4SSG-e0iRZYr0H-dMPMGe8IgqJVcBT-guNfbcFHybyAkM9SAcUVUS-J8w2ogF7N2ir9iM8O4nCYb8WXEn9LOaX7e_cNFwtbrdbQZ8Uu2l4OAI6TxK3uMQBbu13gEAAP__"
)

// The sides of the links above.
var (
	linkA    = &aa.Side{Scenarios: []aa.Tally{{ID: "q1", Passed: 3, Total: 4}, {ID: "q2", Passed: 1, Total: 4}, {ID: "q3", Passed: 4, Total: 4}, {ID: "q4", Passed: 0, Total: 4}}}
	linkB    = &aa.Side{Scenarios: []aa.Tally{{ID: "q1", Passed: 4, Total: 4}, {ID: "q2", Passed: 3, Total: 4}, {ID: "q3", Passed: 4, Total: 4}, {ID: "q4", Passed: 2, Total: 4}}}
	linkBase = &aa.Side{Scenarios: []aa.Tally{{ID: "s1", Passed: 9, Total: 10}, {ID: "s2", Passed: 10, Total: 10}, {ID: "s3", Passed: 7, Total: 10}},
		Runs: []aa.Tally{{ID: "r1", Passed: 3, Total: 3}, {ID: "r2", Passed: 2, Total: 3}}, Rows: 30}
	// checkBase is a baseline whose tallies agree, for the A/A check.
	checkBase = &aa.Side{Scenarios: []aa.Tally{{ID: "s1", Passed: 9, Total: 10}, {ID: "s2", Passed: 10, Total: 10}, {ID: "s3", Passed: 7, Total: 10}},
		Runs: []aa.Tally{{ID: "r1", Passed: 13, Total: 15}, {ID: "r2", Passed: 13, Total: 15}}, Rows: 30}
)

// changeDefaults changes the A/A, simulation, comparison and quarantine
// defaults as a new release could (the schemas read them when asked), and
// restores them when the test ends.
func changeDefaults(t *testing.T) {
	oldAA, oldSim, oldCmp, oldQ, oldRel := aa.DefaultOptions, sim.DefaultOptions, compare.DefaultOptions, quarantine.DefaultOptions, quarantine.DefaultRelease
	t.Cleanup(func() {
		aa.DefaultOptions, sim.DefaultOptions, compare.DefaultOptions, quarantine.DefaultOptions, quarantine.DefaultRelease = oldAA, oldSim, oldCmp, oldQ, oldRel
	})
	aa.DefaultOptions.Ks, aa.DefaultOptions.Drops = []int{3}, []float64{0.1}
	aa.DefaultOptions.Depth.Drop, aa.DefaultOptions.Depth.Seed = 0.1, 7
	sim.DefaultOptions.Sets, sim.DefaultOptions.RunsPerSide, sim.DefaultOptions.Drop = 11, 5, 0.3
	compare.DefaultOptions = compare.Options{Level: 0.9, Power: 0.9, Effect: 0.05, MaxListed: 10}
	quarantine.DefaultOptions.Comparable, quarantine.DefaultOptions.Budget.Target, quarantine.DefaultOptions.Budget.Cap = 0.8, 0.8, 9
	quarantine.DefaultRelease.Below = 0.05
	if d := param.AA.DefaultOf("k"); d != "3" {
		t.Fatalf("the hook did not change the A/A default: k %q", d)
	}
	if d := param.Compare.DefaultOf("max_listed"); d != "10" {
		t.Fatalf("the hook did not change the comparison's default: max_listed %q", d)
	}
}

// decodeCompare opens a comparison link's value as the page does: the
// JSON state, no unknown field, then Check.
func decodeCompare(t *testing.T, enc string) CompareState {
	t.Helper()
	raw, err := Unpack(enc)
	if err != nil {
		t.Fatal(err)
	}
	var s CompareState
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.DisallowUnknownFields()
	if err := d.Decode(&s); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	return s
}

// Today's A/A and compare links hold every option: a build with other
// defaults opens them with the options, so the figures, they were made
// with. The expected options are the ones written, set before the defaults
// change.
func TestOptionLinksKeepTheirMeaning(t *testing.T) {
	aaOpt := aa.DefaultOptions
	aaOpt.Ks, aaOpt.Drops = []int{1, 2}, []float64{0.05}
	simOpt := sim.DefaultOptions
	simOpt.Seed = aaOpt.Depth.Seed
	aaSim := aa.DefaultOptions
	aaSim.Simulate = &simOpt
	cmpOpt := compare.DefaultOptions
	cmpOpt.Effect, cmpOpt.ClusterField, cmpOpt.Clusters = 0.05, "passage", map[string]string{"q1": "p1", "q2": "p1", "q3": "p2", "q4": "p2"}
	cmpDefault := compare.DefaultOptions
	aaLinks, aaWant := linksOf(t, "aa", []aa.Options{aaOpt, aaSim},
		func(o aa.Options) (View, error) { return AA(checkBase, nil, o) },
		func(o aa.Options) (*aa.Result, error) { return aa.Check(checkBase, nil, o) })
	cmpLinks, cmpWant := linksOf(t, "compare", []compare.Options{cmpOpt, cmpDefault},
		func(o compare.Options) (View, error) { return Compare(linkA, linkB, o) },
		func(o compare.Options) (*compare.Result, error) { return compare.Compare(linkA, linkB, o) })

	changeDefaults(t)
	for i, enc := range aaLinks {
		s, err := DecodeAA(enc)
		if err != nil {
			t.Fatalf("A/A link %d: %v", i, err)
		}
		in, err := s.Input()
		if err != nil {
			t.Fatal(err)
		}
		got, err := aa.Check(s.Baseline, s.Candidate, in.Options)
		if err != nil || !reflect.DeepEqual(jsonText(t, got), jsonText(t, aaWant[i])) {
			t.Errorf("A/A link %d opens with %+v: other figures (%v)", i, in.Options, err)
		}
	}
	for i, enc := range cmpLinks {
		a, b, opt := decodeCompare(t, enc).Sides()
		got, err := compare.Compare(a, b, opt)
		if err != nil || !reflect.DeepEqual(jsonText(t, got), jsonText(t, cmpWant[i])) {
			t.Errorf("comparison link %d opens with %+v: other figures (%v)", i, opt, err)
		}
	}
}

// linksOf is the link value (the fragment after key=) of the view of each
// of opts, and the result compute gives with it before the defaults change:
// what the link must open with afterwards.
func linksOf[O, R any](t *testing.T, key string, opts []O, view func(O) (View, error), compute func(O) (R, error)) (links []string, want []R) {
	t.Helper()
	for _, opt := range opts {
		v, err := view(opt)
		var r R
		if err == nil {
			r, err = compute(opt)
		}
		if err != nil {
			t.Fatalf("options %+v: %v", opt, err)
		}
		links, want = append(links, strings.TrimPrefix(v.Fragment, key+"=")), append(want, r)
	}
	return links, want
}

// The links handed out before (oldAA, oldCompare...) open with the options
// their time's defaults gave them, written here by hand from that time's
// aa.DefaultOptions and compare.DefaultOptions, whatever the defaults are
// now.
func TestOldOptionLinksOpenAsBefore(t *testing.T) {
	changeDefaults(t)
	s, err := DecodeAA(oldAA)
	if err != nil || s.Version != 1 || !reflect.DeepEqual(s.Baseline, linkBase) || s.Candidate != nil {
		t.Fatalf("old A/A link: %+v, %v", s, err)
	}
	in, err := s.Input()
	o := in.Options
	if err != nil || !slices.Equal(o.Ks, []int{1, 2, 4, 8}) || !slices.Equal(o.Drops, []float64{0.02, 0.03, 0.05}) ||
		o.Depth.Drop != 0.02 || o.Depth.Seed != 1 || in.Seed != 1 || in.Simulate || o.Simulate != nil {
		t.Errorf("old A/A link opens with %+v, %v", in, err)
	}
	for _, c := range []struct {
		enc  string
		want compare.Options
	}{
		{oldCompareDefaults, compare.Options{Level: 0.95, Power: 0.8, Effect: 0.02, MaxListed: 100}},
		{oldCompareEffect, compare.Options{Level: 0.95, Power: 0.8, Effect: 0.05, MaxListed: 100, ClusterField: "passage",
			Clusters: map[string]string{"q1": "p1", "q2": "p1", "q3": "p2", "q4": "p2"}}},
	} {
		st := decodeCompare(t, c.enc)
		a, b, opt := st.Sides()
		if st.Version != 1 || !reflect.DeepEqual(a, linkA) || !reflect.DeepEqual(b, linkB) || !reflect.DeepEqual(opt, c.want) {
			t.Errorf("old comparison link: version %d, options %+v, want %+v", st.Version, opt, c.want)
		}
	}
}

// A registry's check link holds the check's options (the state) and the
// release rule of the day it was made (the form, versioned): a build with
// other defaults opens it with those.
func TestQuarantineLinkKeepsItsMeaning(t *testing.T) {
	reg := &quarantine.Registry{Version: 1, Tests: []quarantine.Entry{}}
	opt := quarantine.DefaultOptions
	opt.Today = "2026-01-02"
	v, err := Quarantine(opt.Today, NewQuarantineState(reg, nil, opt))
	if err != nil {
		t.Fatal(err)
	}
	changeDefaults(t)
	form := ReadForm(QuarantineFields, v.Fragment)
	rel, err := param.QuarantineRelease.Parse(map[string]string{"below": form["below"], "confidence": form["confidence"]})
	if err != nil || rel.Below != 0.01 || rel.Confidence != 0.95 || form["today"] != "2026-01-02" {
		t.Errorf("release rule %+v (%v), form %v", rel, err, form)
	}
	q, _ := url.ParseQuery(v.Fragment)
	s, err := DecodeQuarantine(q.Get("registry"))
	if err != nil {
		t.Fatal(err)
	}
	got := s.Options(opt.Today)
	if got.Comparable != 0.5 || got.Budget.Target != 0.95 || got.Budget.Cap != 3 {
		t.Errorf("the check opens with %+v", got)
	}
}

// FuzzAAOptions: whatever A/A state decodes has options that read, and
// its link written again opens with the same options.
func FuzzAAOptions(f *testing.F) {
	v, _ := AA(linkBase, nil, aa.DefaultOptions)
	f.Add(strings.TrimPrefix(v.Fragment, "aa="))
	f.Add(oldAA)
	for _, o := range []string{`{"k":"1,2","drops":"5%","rule":"0.02","seed":"3","simulate":"false"}`,
		`{"k":"1","drops":"","rule":"1","seed":"0","simulate":"true","sets":"1","sim_k":"2","sim_drop":"0.5","broken":"0"}`,
		`{"k":"0","drops":"x","rule":"2","seed":"-1","simulate":"maybe"}`, `{"k":"1","sets":"2"}`, `null`} {
		enc, _ := Pack(rawState(`{"v":2,"baseline":{"scenarios":[{"id":"a","passed":1,"total":2}],"runs":null,"rows":2,"duplicates":0},"options":` + o + `}`))
		f.Add(enc)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := DecodeAA(text)
		if err != nil {
			return
		}
		in, err := s.Input()
		if err != nil {
			t.Fatalf("DecodeAA accepted options Input refuses: %v", err)
		}
		enc, err := EncodeAA(AAState{Baseline: s.Baseline, Candidate: s.Candidate, Options: AAOptionsText(in)})
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeAA(enc)
		if err != nil {
			t.Fatalf("written again, the link does not open: %v", err)
		}
		in2, err := back.Input()
		if err != nil || !reflect.DeepEqual(AAOptionsText(in2), AAOptionsText(in)) || in2.Options.Simulate != nil != in.Simulate {
			t.Fatalf("written again, the options are %v, not %v (%v)", AAOptionsText(in2), AAOptionsText(in), err)
		}
	})
}

// FuzzCompareOptions: whatever comparison state passes Check opens with
// options that, written again, open the same.
func FuzzCompareOptions(f *testing.F) {
	f.Add([]byte(`{"v":2,"options":{"cluster":"","effect":"0.02","level":"95%","max_listed":"100","power":"0.8"}}`))
	f.Add([]byte(`{"v":2,"options":{"cluster":"passage","effect":"1","level":"0.5","max_listed":"1","power":"0.99"}}`))
	f.Add([]byte(`{"v":1,"level":0.9,"cluster_field":"x"}`))
	f.Add([]byte(`{"v":2,"options":{"cluster":"","effect":"","level":"0.95","max_listed":"100","power":"0.8","x":""}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var s CompareState
		if json.Unmarshal(raw, &s) != nil || s.Check() != nil {
			return
		}
		s.A, s.B = linkA.Scenarios, linkB.Scenarios
		a, b, opt := s.Sides()
		again := StateOf(a, b, opt)
		if err := again.Check(); err != nil {
			t.Fatalf("written again, the state is refused: %v", err)
		}
		_, _, opt2 := again.Sides()
		if !reflect.DeepEqual(param.Compare.Text(opt2), param.Compare.Text(opt)) {
			t.Fatalf("written again, the options are %v, not %v", param.Compare.Text(opt2), param.Compare.Text(opt))
		}
	})
}

// rawState marshals as itself.
type rawState string

func (r rawState) MarshalJSON() ([]byte, error) { return []byte(r), nil }

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
