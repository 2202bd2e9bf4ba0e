package report

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/testfile"
)

// readBytes reads one report from memory into a new ledger.
func readBytes(t *testing.T, raw []byte, opt Options) *ledger.Ledger {
	t.Helper()
	l := ledger.New()
	if err := Read(bytes.NewReader(raw), opt, l); err != nil {
		t.Fatal(err)
	}
	return l
}

// Jest groups results by file: two files' tests of one name are two tests,
// named after the file relative to the files' common folder, and a file
// that failed to run is a setup failure. Sample: jest 30.5.2 --json
// (sources/jest-files/SOURCE.md); the names and the broken file are what
// sources/jest-files/count.jq lists, not flakegate's output.
func TestJestFileIdentity(t *testing.T) {
	raw := testfile.Read(t, "testdata/reports/jest/jest-files.json")
	want := []string{ // count.jq's "tests"
		"api/util.test.js › util formats",
		"api/util.test.js › util parses",
		"ui/util.test.js › util formats",
		"ui/util.test.js › util parses",
	}
	// The same report from another checkout, on Windows: the names must not move.
	windows := bytes.ReplaceAll(raw, []byte(`"/home/user/project/`), []byte(`"C:\\builds\\ci\\project\\`))
	windows = bytes.ReplaceAll(windows, []byte(`api/util`), []byte(`api\\util`))
	windows = bytes.ReplaceAll(windows, []byte(`ui/util`), []byte(`ui\\util`))
	windows = bytes.ReplaceAll(windows, []byte(`ui/broken`), []byte(`ui\\broken`))
	for name, in := range map[string][]byte{"linux": raw, "windows": windows} {
		t.Run(name, func(t *testing.T) {
			l := readBytes(t, in, Options{})
			got := armCounts(l, ledger.ArmBaseline)
			names := slices.Sorted(func(yield func(string) bool) {
				for k := range got {
					if !yield(k) {
						return
					}
				}
			})
			if !slices.Equal(names, want) {
				t.Fatalf("tests %q, want %q", names, want)
			}
			if c := got["ui/util.test.js › util parses"]; c.Passed != 0 || c.Trials != 1 {
				t.Errorf("ui's parses: %d of %d, want 0 of 1 (Jest: 1 failed)", c.Passed, c.Trials)
			}
			if s := sides(l, ledger.ArmBaseline)["ui/broken.test.js"]; s.Setup != 1 {
				t.Errorf("the file that failed to run: %d setup failures, want 1", s.Setup)
			}
			if notes := strings.Join(l.Notes(), "\n"); !strings.Contains(notes, "ui/broken.test.js: Test suite failed to run") {
				t.Errorf("no warning naming the broken file: %q", notes)
			}
		})
	}
}

// A Playwright test marked test.fail() passes by failing, and an attempt the
// run interrupted is no trial. Sample: @playwright/test 1.65.1 with
// maxFailures 1 (sources/playwright-expected/SOURCE.md); the counts per
// test are the results[] statuses against expectedStatus, as listed there.
func TestPlaywrightExpectedStatus(t *testing.T) {
	l := readSample(t, "playwright/playwright-expected.json")
	got := armCounts(l, ledger.ArmBaseline)
	want := map[string]struct{ passed, trials int64 }{
		"expected.spec.js › passes":    {1, 1},
		"expected.spec.js › known bug": {1, 1}, // expectedStatus failed, status failed
		"expected.spec.js › fixed bug": {0, 2}, // expectedStatus failed, passed twice
	}
	for name, w := range want {
		if c := got[name]; c.Passed != w.passed || c.Trials != w.trials {
			t.Errorf("%s: %d of %d, want %d of %d", name, c.Passed, c.Trials, w.passed, w.trials)
		}
	}
	if c, ok := got["expected.spec.js › slow"]; ok {
		t.Errorf("the interrupted test has %d trials, want none", c.Trials)
	}
}

// promptfoo: a result that failed with an error is a failed trial counted
// apart as an error, and one red-team test in several strategies is several
// scenarios. Sample: promptfoo 0.121.20 (sources/promptfoo-redteam/SOURCE.md);
// the scenarios and their counts are count.jq's, the totals promptfoo's own
// line ("4 passed, 2 failed, 2 errors").
func TestPromptfooErrorsAndStrategies(t *testing.T) {
	l := readSample(t, "promptfoo/promptfoo-redteam.json")
	got := armCounts(l, ledger.ArmBaseline)
	side := sides(l, ledger.ArmBaseline)
	want := map[string]struct{ passed, trials, errors int64 }{
		"hate speech · base64 · target":    {0, 2, 2},
		"hate speech · jailbreak · target": {0, 2, 0},
		"hate speech · target":             {2, 2, 0},
		"weather · target":                 {2, 2, 0},
	}
	if len(got) != len(want) {
		t.Errorf("%d scenarios, want %d: %v", len(got), len(want), got)
	}
	for name, w := range want {
		c, s := got[name], side[name]
		if c.Passed != w.passed || c.Trials != w.trials || int64(s.Errors) != w.errors {
			t.Errorf("%s: %d of %d, %d errors; want %d of %d, %d errors", name, c.Passed, c.Trials, s.Errors, w.passed, w.trials, w.errors)
		}
	}
}

// XML attribute values are normalized as XML 1.0 section 3.3.3 says: a test
// named across a line break (CR LF, LF, a tab) has the name of its one-line
// report, and a character reference keeps its newline. The names and
// outcomes are what Python's expat parser (xml.etree, a conforming XML
// processor) reads from the two hand-written samples.
func TestXMLAttributeNormalization(t *testing.T) {
	want := map[string][2]int64{ // passed, trials
		"checkout.flow.pays with a card   when the cart is full": {1, 1},
		"checkout.flow.refunds     a payment":                    {0, 1},
		"checkout.flow.keeps\nthe newline":                       {1, 1},
	}
	for _, path := range []string{"junit/attr_wrapped.xml", "junit/attr_oneline.xml"} {
		got := armCounts(readSample(t, path), ledger.ArmBaseline)
		if len(got) != len(want) {
			t.Errorf("%s: tests %q, want %d", path, slices.Sorted(maps.Keys(got)), len(want))
		}
		for name, w := range want {
			if path == "junit/attr_oneline.xml" && strings.HasPrefix(name, "checkout.flow.refunds") {
				w = [2]int64{1, 1} // passes there
			}
			if c := got[name]; c.Passed != w[0] || c.Trials != w[1] {
				t.Errorf("%s: %q %d of %d, want %d of %d", path, name, c.Passed, c.Trials, w[0], w[1])
			}
		}
	}
}

// The normalizer keeps quotes inside comments, CDATA sections and
// processing instructions from starting a value, and reads the same
// whatever the size of each read.
func TestAttrNormalizerStates(t *testing.T) {
	in := "<?pi a=\"x\ny\"?><!-- it's\n --><r a='1\r\n2' b=\"\t\"><![CDATA[ \"q\n ]]><c d=\"e\rf\"/>t\nu</r>"
	want := "<?pi a=\"x\ny\"?><!-- it's\n --><r a='1 2' b=\" \"><![CDATA[ \"q\n ]]><c d=\"e f\"/>t\nu</r>"
	for _, size := range []int{1, 2, 3, 7, 1 << 10} {
		var out []byte
		a := &attrNormalizer{r: strings.NewReader(in)}
		buf := make([]byte, size)
		for {
			n, err := a.Read(buf)
			out = append(out, buf[:n]...)
			if err != nil {
				break
			}
		}
		if string(out) != want {
			t.Errorf("reads of %d: %q, want %q", size, out, want)
		}
	}
}

// TAP points without a number take the harness's own counter, in their
// block, until the numbers resume; bare "ok" lines are tests apart. Sample:
// a shell script's TAP (sources/tap/sh/checks.sh); prove 3.44 numbers the
// failed points 3 and 7 ("Failed tests: 3, 7"), and count_tap.py counts 6
// passed of 8 leaf points.
func TestTAPUnnumbered(t *testing.T) {
	got := armCounts(readSample(t, "tap/unnumbered.tap"), ledger.ArmBaseline)
	want := map[string][2]int64{
		"#1": {1, 1}, "#2": {1, 1}, "#3": {0, 1}, "described, no number": {1, 1}, "#5": {1, 1},
		"numbered again": {1, 1}, "inner › #1": {1, 1}, "inner › #2": {0, 1},
	}
	if len(got) != len(want) {
		t.Errorf("tests %q, want %d", slices.Sorted(maps.Keys(got)), len(want))
	}
	for name, w := range want {
		if c := got[name]; c.Passed != w[0] || c.Trials != w[1] {
			t.Errorf("%q: %d of %d, want %d of %d", name, c.Passed, c.Trials, w[0], w[1])
		}
	}
}

// lm-evaluation-harness: the metric that decides is one that is 0 or 1 in
// every row, never a continuous one whose first value happens to be 0. The
// truthfulqa_gen sample (written by hand to lm-eval's process_results_gen,
// sources/lm-eval/gen_truthfulqa.py) has bleu_max 0 in its first row; its
// bleu_acc is 1 in 7 of 20 rows (the generator's printed count, and jq's).
func TestLMEvalMetricChoice(t *testing.T) {
	const path = "testdata/reports/lmeval/samples_truthfulqa_gen_2026-12-03T10-00-00.000001.jsonl"
	raw := testfile.Read(t, path)
	l := readBytes(t, raw, Options{Format: FormatLMEval})
	if c := total(l); c.Passed != 7 || c.Trials != 20 {
		t.Errorf("%d of %d passed, want 7 of 20 (bleu_acc)", c.Passed, c.Trials)
	}
	notes := strings.Join(l.Notes(), "\n")
	for _, frag := range []string{`"bleu_acc"`, "rouge1_acc", "-score"} {
		if !strings.Contains(notes, frag) {
			t.Errorf("the warning does not name %s: %q", frag, notes)
		}
	}
	// Named, a continuous metric is read with its threshold.
	l = readBytes(t, raw, Options{Format: FormatLMEval, Eval: EvalOptions{Score: "rouge2_acc"}})
	if c := total(l); c.Passed != 16 || c.Trials != 20 {
		t.Errorf("rouge2_acc: %d of %d passed, want 16 of 20", c.Passed, c.Trials)
	}
	// Without the *_acc metrics nothing says pass or fail: refused, asking for a metric and threshold.
	var only []byte
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var row map[string]any
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatal(err)
		}
		var keep []any
		for _, m := range row["metrics"].([]any) {
			if !strings.HasSuffix(m.(string), "_acc") {
				keep = append(keep, m)
			} else {
				delete(row, m.(string))
			}
		}
		row["metrics"] = keep
		b, _ := json.Marshal(row)
		only = append(append(only, b...), '\n')
	}
	err := Read(bytes.NewReader(only), Options{Format: FormatLMEval}, ledger.New())
	if core.ErrorKind(err) != core.Unusable || !strings.Contains(err.Error(), "-score") || !strings.Contains(err.Error(), "-threshold") {
		t.Errorf("continuous metrics only: %v, want an unusable error asking for -score and -threshold", err)
	}
}
