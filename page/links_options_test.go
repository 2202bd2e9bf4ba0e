package page

import (
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/share"
)

// An A/A link carries the check's options: the page opens it with them,
// not with its defaults (changed here as a new release could), and the
// link it writes keeps them.
func TestAALinkOptions(t *testing.T) {
	base := &aa.Side{Scenarios: []aa.Tally{{ID: "s1", Passed: 9, Total: 10}, {ID: "s2", Passed: 10, Total: 10}, {ID: "s3", Passed: 7, Total: 10}},
		Runs: []aa.Tally{{ID: "r1", Passed: 13, Total: 15}, {ID: "r2", Passed: 13, Total: 15}}, Rows: 30}
	opt := aa.DefaultOptions
	opt.Ks, opt.Drops, opt.Depth.Seed = []int{1, 2}, []float64{0.05}, 3
	want, err := aa.Check(base, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	v, err := share.AA(base, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	old := aa.DefaultOptions
	defer func() { aa.DefaultOptions = old }()
	aa.DefaultOptions.Ks, aa.DefaultOptions.Drops = []int{3}, []float64{0.1}
	c := &aaT{}
	e := load(t, c)
	u, _ := url.Parse("/aa#" + v.Fragment)
	follow(e, c.ctx, c, u)
	if got := c.Result(); got == nil || string(jsonOf(t, got)) != string(jsonOf(t, want)) {
		t.Errorf("the link opens with other figures than the check it was made from (%v)", c.err)
	}
	s, ok := c.shareState()
	if !ok || s.Options["k"] != "1,2" || s.Options["drops"] != "0.05" || s.Options["seed"] != "3" {
		t.Errorf("the page's link holds options %v", s.Options)
	}
}

// A comparison link opens with the options it was made with, whatever
// the page's defaults are.
func TestCompareLinkOptions(t *testing.T) {
	a, b := exampleCompare()
	opt := compare.DefaultOptions
	opt.Level, opt.MaxListed = 0.9, 5
	want, err := compare.Compare(a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := share.Compare(a, b, opt)
	old := compare.DefaultOptions
	defer func() { compare.DefaultOptions = old }()
	compare.DefaultOptions.Level, compare.DefaultOptions.MaxListed = 0.8, 50
	s, err := DecodeCompareShare(strings.TrimPrefix(v.Fragment, "compare="))
	if err != nil {
		t.Fatal(err)
	}
	a2, b2, opt2 := s.Sides()
	got, err := compare.Compare(a2, b2, opt2)
	if err != nil || string(jsonOf(t, got)) != string(jsonOf(t, want)) {
		t.Errorf("the link compares with %+v: other figures (%v)", opt2, err)
	}
}

// A history link holds the result itself: other defaults do not change
// what it shows.
func TestHistoryLinkUnderOtherDefaults(t *testing.T) {
	_, _, want := plantedHistory(t)
	v, err := share.History(want)
	if err != nil {
		t.Fatal(err)
	}
	old := history.DefaultOptions
	defer func() { history.DefaultOptions = old }()
	history.DefaultOptions.Alpha, history.DefaultOptions.MinOutageTests = 0.2, 2
	got, err := DecodeHistoryShare(strings.TrimPrefix(v.Fragment, "history="))
	want.Link, want.LinkNote = "", ""
	if err != nil || !reflect.DeepEqual(got, want) || !slices.Equal(got.Warnings, want.Warnings) {
		t.Errorf("the history link shows another result (%v)", err)
	}
}
