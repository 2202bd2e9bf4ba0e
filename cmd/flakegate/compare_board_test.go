package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/testfile"
)

// boardDir holds four models' samples files: 120 questions in 3 subjects,
// one answer each, drawn (seed 2026/1206) with chance logistic(ability −
// difficulty), abilities 1.6, 1.4, 0.9 and 0.1 for alpha, beta, gamma and
// delta, the difficulties standard normal and shared.
const boardDir = "testdata/board/"

var boardLogs = []string{boardDir + "alpha.jsonl", boardDir + "beta.jsonl", boardDir + "gamma.jsonl", boardDir + "delta.jsonl"}

// TestBoardGolden holds compare's leaderboard as text, Markdown and JSON
// to testdata/board/*.golden (go test -update rewrites them; check by eye:
// core/compare's tests check the figures).
func TestBoardGolden(t *testing.T) {
	samples := []string{"compare", "-format", "samples", "-score", "correct"}
	args := func(extra ...string) []string {
		return append(append(append([]string{}, samples...), extra...), boardLogs...)
	}
	checkGoldens(t, "testdata/board", []goldenCase{
		{"board.txt", args("-category", "subject", "-bh"), exitOK},
		{"board.md", args("-markdown"), exitOK},
		{"board.json", args("-json", "-category", "subject"), exitOK},
		{"side.txt", append(append([]string{}, samples...), "-side", "a="+boardLogs[0], "-side", "b="+boardLogs[1], "-side", "a="+boardLogs[0]), exitOK},
	})
}

// TestBoardPairIsCompare: each pair's row of the leaderboard's -json has
// the figures of `compare -json Lower Higher` on the same logs: the
// difference, its interval and McNemar's p.
func TestBoardPairIsCompare(t *testing.T) {
	samples := []string{"compare", "-json", "-format", "samples", "-score", "correct"}
	code, out, errs := cli(t, "", append(samples, boardLogs...)...)
	var board struct {
		Pairs []struct {
			Higher, Lower   string
			Diff, Low, High float64
			PValue          float64 `json:"p_value"`
		} `json:"pairs"`
	}
	if err := json.Unmarshal([]byte(out), &board); code != exitOK || err != nil || len(board.Pairs) != 6 {
		t.Fatalf("exit %d, %v, %s", code, err, errs)
	}
	for _, p := range board.Pairs {
		var two struct {
			Diff, Low, High float64
			McNemar         struct {
				PValue float64 `json:"p_value"`
			} `json:"mcnemar"`
		}
		code, out, errs := cli(t, "", append(samples, boardDir+p.Lower+".jsonl", boardDir+p.Higher+".jsonl")...)
		if err := json.Unmarshal([]byte(out), &two); code != exitOK || err != nil {
			t.Fatalf("exit %d, %v, %s", code, err, errs)
		}
		if two.Diff != p.Diff || two.Low != p.Low || two.High != p.High || two.McNemar.PValue != p.PValue {
			t.Errorf("%s over %s: board %+v, compare %+v", p.Higher, p.Lower, p, two)
		}
	}
}

// TestBoardRefusals: usage and input errors of many models exit 2 with a
// message that says what to do.
func TestBoardRefusals(t *testing.T) {
	a, b, c := boardLogs[0], boardLogs[1], boardLogs[2]
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-bh", a, b}, "-bh and -category are for three or more models"},
		{[]string{a, b, c, "-a", a}, "-a and -b compare two sides"},
		{[]string{"-side", "x=" + a, b, c, "-format", "samples"}, "as arguments or with -side, not both"},
		{[]string{"-side", "x=" + a}, "-side names one model, \"x\""},
		{[]string{"-side", "x"}, "want NAME=FILE"},
		{[]string{a, a, b}, "two logs are named \"alpha\""},
		{[]string{"-cluster", "subject", a, b, c}, "-cluster is for two models"},
		{[]string{"-format", "samples", "-score", "correct", a, b, "testdata/board/missing.jsonl"}, "missing.jsonl: no such file"},
		{[]string{"-format", "samples", "-score", "correct", "-category", "nope", a, b, c}, "alpha.jsonl:1:1: the row has no nope"},
		{[]string{"-format", "samples", "-score", "correct", a, b, "testdata/compare/race-a.jsonl"}, "the models have 0 questions in common"},
	} {
		code, _, errs := cli(t, "", append([]string{"compare"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.msg)
		}
	}
}

// TestBoardSameBytesAsAPI: the CLI's -json is the API's answer, byte for
// byte, link included (the corpus's site, http://example.com), for the same
// logs (functions/api's corpus case compare-board, one
// part a model named as the CLI names each file).
func TestBoardSameBytesAsAPI(t *testing.T) {
	golden := testfile.Read(t, "../../functions/api/testdata/golden/compare-board.txt")
	_, body, ok := strings.Cut(string(golden), "\n\n")
	if !ok {
		t.Fatal("no body in the API's golden answer")
	}
	code, out, errs := cli(t, "", append([]string{"compare", "-json", "-site", "http://example.com", "-format", "samples", "-score", "correct", "-category", "subject", "-bh"}, boardLogs...)...)
	if code != exitOK || out != body {
		t.Errorf("exit %d (%s); CLI and API differ:\n%s\n---\n%s", code, errs, out, body)
	}
}

// TestBoardLink: -site prints the leaderboard's link, whose state is the
// models' questions (share.DecodeBoard); 3 models of 3,000 questions,
// each right or wrong by a seeded coin, take more than the link's 8 KiB:
// the result then has no link and its note says why, in -json and in the
// text.
func TestBoardLink(t *testing.T) {
	samples := []string{"compare", "-format", "samples", "-score", "correct", "-site", "https://fg.example"}
	code, out, errs := cli(t, "", append(append(samples, "-json"), boardLogs...)...)
	var res compare.Board
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("exit %d: %s", code, errs)
	}
	u, err := url.Parse(res.Link)
	if err != nil || u.Host != "fg.example" || u.Path != share.ComparePath || res.LinkNote != "" {
		t.Fatalf("link %q, note %q", res.Link, res.LinkNote)
	}
	s, err := share.DecodeBoard(u.Query().Get(share.BoardKey))
	if err != nil || len(s.Models) != 4 || s.Models[0].Name != "alpha" || len(s.Models[0].Questions) != 120 {
		t.Fatalf("the link's state: %v, %d models", err, len(s.Models))
	}

	dir := t.TempDir()
	r := rand.New(rand.NewPCG(2026, 1206))
	var big []string
	for _, m := range []string{"a", "b", "c"} {
		var b strings.Builder
		for q := range 3000 {
			fmt.Fprintf(&b, "{\"id\": \"q%04d\", \"correct\": %v}\n", q, r.IntN(2) == 1)
		}
		big = append(big, filepath.Join(dir, m+".jsonl"))
		if err := os.WriteFile(big[len(big)-1], []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs = cli(t, "", append(append(samples, "-json"), big...)...)
	res = compare.Board{}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || res.Link != "" || !strings.Contains(res.LinkNote, "over the 8,192-byte limit") {
		t.Fatalf("exit %d (%s): link %q, note %q", code, errs, res.Link, res.LinkNote)
	}
	if _, text, _ := cli(t, "", append(samples, big...)...); !strings.Contains(text, res.LinkNote) {
		t.Errorf("the text does not say why there is no link:\n%s", text)
	}
}
