package compare_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// readLogs reads side A's and side B's logs with the report readers, as
// flakegate compare does.
func readLogs(t *testing.T, a, b []string) *compare.Result {
	t.Helper()
	l := ledger.New()
	for _, side := range []struct {
		arm   string
		files []string
	}{{ledger.ArmBaseline, a}, {ledger.ArmPatched, b}} {
		for _, name := range side.files {
			f, err := os.Open(filepath.Join("testdata", "logs", name))
			if err != nil {
				t.Fatal(err)
			}
			err = report.Read(f, report.Options{Arm: side.arm, Run: name}, l)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	res, err := compare.CompareLedger(l, compare.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestInspectLogs compares two inspect_ai JSON logs of 8 samples at 3
// epochs (testdata/logs/inspect-{a,b}.json, written in inspect_ai's log
// format). Passes of 3 per sample: A 3 2 1 0 3 2 0 0, B 3 3 2 1 3 0 3 3.
// By hand: d = 0, ⅓, ⅓, ⅓, 0, −⅔, 1, 1; mean 7/24 = 0.291667; Σd² = 25/9,
// s² = (25/9 − 8·(7/24)²)/7 = 0.299603, SE = √(s²/8) = 0.193521, t_.975,7 =
// 2.364624, interval −0.165938 to 0.749271. Improved 5 (q2 q3 q4 q7 q8),
// worsened 1 (q6). Noise: p(1−p) is 2/9 at ⅓ and ⅔, so W = (5·2/9)/2/8 =
// 5/72, Q = s² − W = 0.230159, S = 3/2·(10/9)/8 = 15/72.
func TestInspectLogs(t *testing.T) {
	res := readLogs(t, []string{"inspect-a.json"}, []string{"inspect-b.json"})
	if res.Questions != 8 || *res.A.Epochs != 3 || *res.B.Epochs != 3 {
		t.Fatalf("questions %d epochs %v %v", res.Questions, res.A.Epochs, res.B.Epochs)
	}
	if !within(res.Diff, 7.0/24, 1e-15) || !within(res.SE, 0.193521, 5e-7) || !within(res.Low, -0.165938, 5e-6) || !within(res.High, 0.749271, 5e-6) {
		t.Errorf("diff %v se %v interval [%v, %v]", res.Diff, res.SE, res.Low, res.High)
	}
	if res.Improved != 5 || res.Worsened != 1 || res.Unchanged != 2 || res.McNemar != nil {
		t.Errorf("improved %d worsened %d unchanged %d mcnemar %v", res.Improved, res.Worsened, res.Unchanged, res.McNemar)
	}
	nz := res.Noise
	if nz == nil || !within(nz.AnswerVariance, 5.0/72, 1e-15) || !within(nz.QuestionVariance, 0.299603-5.0/72, 5e-7) || !within(nz.TrialVariance, 15.0/72, 1e-15) {
		t.Errorf("noise %+v", nz)
	}
	// the largest changes first: q7 and q8 (0 → 1), then the thirds in A's order
	want := []string{"7", "8", "2", "3", "4", "6"}
	for i, f := range res.Flips {
		if f.ID != want[i] {
			t.Errorf("flip %d is %s, want %s", i, f.ID, want[i])
		}
	}
}

// TestLMEvalLogs compares two lm-evaluation-harness --log_samples files of
// 20 docs (testdata/logs/samples_arith_gen_*.jsonl, the strict-match
// filter counts): A right on docs 0–11, B on 0–9 and 12–17. By hand: 6
// went from wrong to right (12–17), 2 from right to wrong (10, 11); diff
// 4/20 = 0.2; McNemar on 6 and 2: P(X <= 2) = (1+8+28)/2⁸ = 37/256, p =
// 74/256 = 0.2890625, mid-p = (37+9)/256 = 0.1796875; s² = (8 − 20·0.04)/19
// = 0.378947, SE = 0.137649, t_.975,19 = 2.093024, interval −0.088104 to
// 0.488104.
func TestLMEvalLogs(t *testing.T) {
	res := readLogs(t, []string{"samples_arith_gen_2026-12-01T10-00-00.000001.jsonl"}, []string{"samples_arith_gen_2026-12-02T10-00-00.000001.jsonl"})
	m := res.McNemar
	if res.Questions != 20 || m == nil || m.WrongToRight != 6 || m.RightToWrong != 2 || m.PValue != 74.0/256 || m.MidP != 46.0/256 {
		t.Fatalf("questions %d mcnemar %+v", res.Questions, m)
	}
	if !within(res.Diff, 0.2, 1e-15) || !within(res.SE, 0.137649, 5e-7) || !within(res.Low, -0.088104, 5e-6) || !within(res.High, 0.488104, 5e-6) {
		t.Errorf("diff %v se %v interval [%v, %v]", res.Diff, res.SE, res.Low, res.High)
	}
	if !within(res.A.Accuracy, 0.6, 1e-15) || !within(res.B.Accuracy, 0.8, 1e-15) {
		t.Errorf("accuracy %v %v", res.A.Accuracy, res.B.Accuracy)
	}
}

// TestPromptfooLogs compares two promptfoo outputs of 6 tests, each file
// from another provider (testdata/logs/promptfoo-{a,b}.json): the reader
// names a scenario "capital 1 · openai:gpt-4o-mini", so no id matches and
// the questions are paired without the provider, with a warning. A passes
// 1 3 6, B 1 2 3 4. By hand: wrong to right 2 (tests 2, 4), right to wrong
// 1 (test 6); McNemar on 2 and 1: p = min(1, 2·4/8) = 1, mid-p = 4/8 + 1/8
// = 0.625; diff 1/6.
func TestPromptfooLogs(t *testing.T) {
	res := readLogs(t, []string{"promptfoo-a.json"}, []string{"promptfoo-b.json"})
	m := res.McNemar
	if res.Questions != 6 || m == nil || m.WrongToRight != 2 || m.RightToWrong != 1 || m.PValue != 1 || m.MidP != 0.625 {
		t.Fatalf("questions %d mcnemar %+v warnings %q", res.Questions, m, res.Warnings)
	}
	if !within(res.Diff, 1.0/6, 1e-15) || len(res.Warnings) == 0 || res.A.OnlyCount+res.B.OnlyCount != 0 {
		t.Errorf("diff %v warnings %q", res.Diff, res.Warnings)
	}
	if res.Flips[0].ID != "capital 2 · openai:gpt-4o-mini" {
		t.Errorf("flips are named by side A's ids: %+v", res.Flips)
	}
}
