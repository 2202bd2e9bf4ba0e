package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/share"
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
		args := append(append([]string{"aa", "-json", "-site", "https://flakegate.example"}, opts...), "testdata/base.csv", "testdata/cand.csv")
		_, out, errs := cli(t, "", args...)
		var printed map[string]any
		if err := json.Unmarshal([]byte(out), &printed); err != nil {
			t.Fatalf("%v: %v: %s", opts, err, errs)
		}
		link, _ := printed["link"].(string)
		_, enc, ok := strings.Cut(link, "aa=")
		s, err := share.DecodeAA(enc)
		if !ok || err != nil {
			t.Fatalf("%v: link %q: %v", opts, link, err)
		}
		in, err := s.Input()
		if err != nil {
			t.Fatal(err)
		}
		res, err := aa.Check(s.Baseline, s.Candidate, in.Options)
		if err != nil {
			t.Fatal(err)
		}
		res.Link = link
		res.LinkNote, _ = printed["link_note"].(string)
		var b bytes.Buffer
		core.WriteJSON(&b, res)
		var again map[string]any
		json.Unmarshal(b.Bytes(), &again)
		if a, p := jsonString(again), jsonString(printed); a != p {
			t.Errorf("%v: the link's check differs from the printed result:\n%s\nwant\n%s", opts, a, p)
		}
	}
}

func jsonString(v any) string { b, _ := json.Marshal(v); return string(b) }

// compare -site links to the comparison with the options given: the
// comparison of the link's questions with the link's options is the
// result -json prints.
func TestCompareLinkOptions(t *testing.T) {
	for _, opts := range [][]string{
		nil,
		{"-cluster", "passage", "-effect", "5%", "-level", "0.9", "-power", "0.9", "-max-listed", "3"},
	} {
		args := append(append([]string{"compare", "-json", "-site", "https://flakegate.example", "-format", "samples", "-score", "correct"}, opts...),
			"testdata/compare/race-a.jsonl", "testdata/compare/race-b.jsonl")
		_, out, errs := cli(t, "", args...)
		var printed map[string]any
		if err := json.Unmarshal([]byte(out), &printed); err != nil {
			t.Fatalf("%v: %v: %s", opts, err, errs)
		}
		link, _ := printed["link"].(string)
		_, enc, _ := strings.Cut(link, "compare=")
		raw, err := share.Unpack(enc)
		var s share.CompareState
		if err == nil {
			err = json.Unmarshal(raw, &s)
		}
		if err == nil {
			err = s.Check()
		}
		if err != nil {
			t.Fatalf("%v: link %q: %v", opts, link, err)
		}
		a, b, opt := s.Sides()
		res, err := compare.Compare(a, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		res.Link = link
		res.LinkNote, _ = printed["link_note"].(string)
		var buf bytes.Buffer
		core.WriteJSON(&buf, res)
		var again map[string]any
		json.Unmarshal(buf.Bytes(), &again)
		if a, p := jsonString(again), jsonString(printed); a != p {
			t.Errorf("%v: the link's comparison differs from the printed result:\n%s\nwant\n%s", opts, a, p)
		}
	}
}
