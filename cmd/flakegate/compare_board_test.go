package main

import (
	"encoding/json"
	"strings"
	"testing"

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
// byte, for the same logs (functions/api's corpus case compare-board, one
// part a model named as the CLI names each file).
func TestBoardSameBytesAsAPI(t *testing.T) {
	golden := testfile.Read(t, "../../functions/api/testdata/golden/compare-board.txt")
	_, body, ok := strings.Cut(string(golden), "\n\n")
	if !ok {
		t.Fatal("no body in the API's golden answer")
	}
	code, out, errs := cli(t, "", append([]string{"compare", "-json", "-format", "samples", "-score", "correct", "-category", "subject", "-bh"}, boardLogs...)...)
	if code != exitOK || out != body {
		t.Errorf("exit %d (%s); CLI and API differ:\n%s\n---\n%s", code, errs, out, body)
	}
}
