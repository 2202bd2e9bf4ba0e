package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/testfile"
)

// logsDir holds eval logs written in each harness's format; core/compare's
// logs_test.go checks their comparisons by hand.
const logsDir = "../../core/compare/testdata/logs/"

// TestCompareGolden holds flakegate compare's text, Markdown and JSON to
// testdata/compare/*.golden (go test -update rewrites them; check by eye).
// The figures are core/compare's, checked by hand there: lm-eval 20 docs,
// 6 wrong to right and 2 right to wrong, McNemar p = 74/256; inspect_ai
// 8 samples at 3 epochs, B − A = 7/24. The race files are a samples JSONL
// of 60 questions on 10 passages (6 each), one answer a side.
func TestCompareGolden(t *testing.T) {
	lmA, lmB := logsDir+"samples_arith_gen_2026-12-01T10-00-00.000001.jsonl", logsDir+"samples_arith_gen_2026-12-02T10-00-00.000001.jsonl"
	race := "testdata/compare/race-"
	// compare only informs: its exit status is 0.
	checkGoldens(t, "testdata/compare", []goldenCase{
		{"lmeval.txt", []string{"compare", lmA, lmB}, exitOK},
		{"inspect.md", []string{"compare", "-markdown", logsDir + "inspect-a.json", logsDir + "inspect-b.json"}, exitOK},
		{"promptfoo.txt", []string{"compare", "-a", logsDir + "promptfoo-a.json", "-b", logsDir + "promptfoo-b.json"}, exitOK},
		{"race-cluster.json", []string{"compare", "-json", "-format", "samples", "-score", "correct", "-cluster", "passage", race + "a.jsonl", race + "b.jsonl"}, exitOK},
		{"race-cluster.txt", []string{"compare", "-format", "samples", "-score", "correct", "-cluster", "passage", "-effect", "0.05", race + "a.jsonl", race + "b.jsonl"}, exitOK},
		{"promptfoo-site.md", []string{"compare", "-markdown", "-site", "https://flakegate.example", logsDir + "promptfoo-a.json", logsDir + "promptfoo-b.json"}, exitOK},
	})
}

// TestCompareJSON: -json is the core's result: the McNemar counts of the
// lm-eval logs (6 and 2) and two epochs a side when each side has two
// files of one run (the same log twice).
func TestCompareJSON(t *testing.T) {
	lmA, lmB := logsDir+"samples_arith_gen_2026-12-01T10-00-00.000001.jsonl", logsDir+"samples_arith_gen_2026-12-02T10-00-00.000001.jsonl"
	var got struct {
		Questions int `json:"questions"`
		A         struct {
			Epochs *int `json:"epochs"`
		} `json:"a"`
		McNemar *struct {
			WrongToRight int `json:"wrong_to_right"`
			RightToWrong int `json:"right_to_wrong"`
		} `json:"mcnemar"`
		Noise    *struct{} `json:"noise"`
		Warnings []string  `json:"warnings"`
	}
	code, out, errs := cli(t, "", "compare", "-json", lmA, lmB)
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil {
		t.Fatalf("exit %d, %v; stderr %s", code, err, errs)
	}
	if got.Questions != 20 || got.McNemar == nil || got.McNemar.WrongToRight != 6 || got.McNemar.RightToWrong != 2 || got.Warnings == nil {
		t.Errorf("%s", out)
	}
	code, out, _ = cli(t, "", "compare", "-json", "-a", lmA, "-a", lmA, "-b", lmB, "-b", lmB)
	got.McNemar, got.Noise = nil, nil
	if err := json.Unmarshal([]byte(out), &got); code != exitOK || err != nil || got.A.Epochs == nil || *got.A.Epochs != 2 || got.McNemar != nil || got.Noise == nil {
		t.Errorf("two files a side: exit %d, %s", code, out)
	}
}

// TestCompareRefusals: usage and input errors exit 2 with a message that
// says what to do, naming the file.
func TestCompareRefusals(t *testing.T) {
	lmA := logsDir + "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl"
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{lmA}, "give two eval logs, A then B"},
		{[]string{"-a", lmA}, "give eval logs of both sides"},
		{[]string{lmA, lmA, "-b", lmA}, "not both"},
		{[]string{"-", "-"}, "only one input can be standard input"},
		{[]string{"-effect", "0", lmA, lmA}, "effect: must be a fraction from 0.0001 to 1"},
		{[]string{lmA, logsDir + "promptfoo-b.json"}, "the two sides have 0 questions in common; a comparison needs 2 or more, paired by id (side A's ids: 0, 1, 2; side B's: capital 1 · anthropic:claude-3-5-haiku"},
		{[]string{"-cluster", "passage", lmA, lmA}, "cluster: reads a field of each row of a samples file (JSONL or CSV, one row per sample); this file is in the lm-evaluation-harness format"},
		{[]string{lmA, "testdata/compare/missing.json"}, "missing.json: no such file"},
		{[]string{"-format", "samples", "-score", "correct", "-cluster", "nope", "testdata/compare/race-a.jsonl", "testdata/compare/race-b.jsonl"}, "race-a.jsonl:1:1: the row has no nope"},
	} {
		code, _, errs := cli(t, "", append([]string{"compare"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errs, tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.msg)
		}
	}
}

// TestCompareSameBytesAsAPI: the CLI's -json is the API's answer, byte for
// byte, for the same logs (functions/api's corpus case compare-cluster,
// served on http://example.com with the calculator beside it).
func TestCompareSameBytesAsAPI(t *testing.T) {
	golden := testfile.Read(t, "../../functions/api/testdata/golden/compare-cluster.txt")
	_, body, ok := strings.Cut(string(golden), "\n\n")
	if !ok {
		t.Fatal("no body in the API's golden answer")
	}
	code, out, errs := cli(t, "", "compare", "-json", "-site", "http://example.com", "-format", "samples", "-score", "correct", "-cluster", "passage",
		"testdata/compare/race-a.jsonl", "testdata/compare/race-b.jsonl")
	if code != exitOK || out != body {
		t.Errorf("exit %d (%s); CLI and API differ:\n%s\n---\n%s", code, errs, out, body)
	}
}
