package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/share"
)

// aa -site links to the A/A view with the options given on the command
// line: the check of the link's statistics with the link's options is the
// result -json prints, whatever the options.
func TestAALinkOptions(t *testing.T) {
	for _, opts := range [][]string{
		nil,
		{"-k", "1,2"},
		{"-k", "3", "-drops", "5% 10%", "-rule", "0.05", "-seed", "9"},
	} {
		args := append(append([]string{"aa", "-json", "-site", testSite}, opts...), "testdata/base.csv", "testdata/cand.csv")
		checkLinkReproduces(t, args, "aa=", func(enc string) (any, error) {
			s, err := share.DecodeAA(enc)
			if err != nil {
				return nil, err
			}
			in, err := s.Input()
			if err != nil {
				return nil, err
			}
			return aa.Check(s.Baseline, s.Candidate, in.Options)
		})
	}
}

// compare -site links to the comparison with the options given: the
// comparison of the link's questions with the link's options is the
// result -json prints.
func TestCompareLinkOptions(t *testing.T) {
	for _, opts := range [][]string{
		nil,
		{"-cluster", "passage", "-effect", "5%", "-level", "0.9", "-power", "0.9", "-max-listed", "3"},
	} {
		args := append(append([]string{"compare", "-json", "-site", testSite, "-format", "samples", "-score", "correct"}, opts...),
			"testdata/compare/race-a.jsonl", "testdata/compare/race-b.jsonl")
		checkLinkReproduces(t, args, "compare=", func(enc string) (any, error) {
			raw, err := share.Unpack(enc)
			var s share.CompareState
			if err == nil {
				err = json.Unmarshal(raw, &s)
			}
			if err == nil {
				err = s.Check()
			}
			if err != nil {
				return nil, err
			}
			a, b, opt := s.Sides()
			return compare.Compare(a, b, opt)
		})
	}
}

// checkLinkReproduces runs the command line args (with -json and -site)
// and checks that recompute, given the state its link carries after
// param ("aa="), gives the result it printed: the same JSON but for the
// link and its note, which are the printed ones.
func checkLinkReproduces(t *testing.T, args []string, param string, recompute func(enc string) (any, error)) {
	t.Helper()
	_, out, errs := cli(t, "", args...)
	var printed map[string]any
	if err := json.Unmarshal([]byte(out), &printed); err != nil {
		t.Fatalf("%v: %v: %s", args, err, errs)
	}
	link, _ := printed["link"].(string)
	_, enc, ok := strings.Cut(link, param)
	if !ok {
		t.Fatalf("%v: link %q carries no %s", args, link, param)
	}
	res, err := recompute(enc)
	if err != nil {
		t.Fatalf("%v: link %q: %v", args, link, err)
	}
	var b bytes.Buffer
	if err := core.WriteJSON(&b, res); err != nil {
		t.Fatal(err)
	}
	var again map[string]any
	if err := json.Unmarshal(b.Bytes(), &again); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"link", "link_note"} {
		delete(again, k)
		delete(printed, k)
	}
	if a, p := jsonString(again), jsonString(printed); a != p {
		t.Errorf("%v: the link's result differs from the printed one:\n%s\nwant\n%s", args, a, p)
	}
}

func jsonString(v any) string { b, _ := json.Marshal(v); return string(b) }
