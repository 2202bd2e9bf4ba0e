package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
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
