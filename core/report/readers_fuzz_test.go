package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/internal/testfile"

	"github.com/flakegate/flakegate/core/ledger"
)

// fuzzFormat reads s in the format picked by which, and checks that the
// reader either counts something possible or says what and where.
func fuzzFormat(t *testing.T, formats []string, which uint8, s string) {
	l := ledger.New()
	err := Read(strings.NewReader(s), Options{Format: formats[int(which)%len(formats)]}, l)
	checkReportErr(t, err)
	if err == nil {
		checkLedger(t, l)
	}
}

// FuzzReadXMLFormats fuzzes the NUnit, TRX and xUnit.net readers.
func FuzzReadXMLFormats(f *testing.F) {
	formats := []string{FormatNUnit, FormatTRX, FormatXUnit}
	for i, dir := range []string{"nunit", "trx", "xunit"} {
		for _, s := range samples(f, "testdata/reports/"+dir+"/*.*", 4000) {
			f.Add(uint8(i), s)
		}
	}
	f.Add(uint8(1), `<TestRun><Results><UnitTestResult testName="a" outcome="Failed"><InnerResults><UnitTestResult testName="a1" outcome="Passed"/></InnerResults></UnitTestResult></Results></TestRun>`)
	f.Fuzz(func(t *testing.T, which uint8, s string) { fuzzFormat(t, formats, which, s) })
}

// FuzzReadTAP fuzzes the TAP reader.
func FuzzReadTAP(f *testing.F) {
	for _, s := range samples(f, "testdata/reports/tap/*.tap", 4000) {
		f.Add(s)
	}
	f.Add("TAP version 14\n1..2\n# Subtest: g\n    ok 1 - a\n    1..1\nok 1 - g\nnot ok 2 # TODO x\nBail out! no")
	f.Fuzz(func(t *testing.T, s string) { fuzzFormat(t, []string{FormatTAP}, 0, s) })
}

// FuzzReadJSONFormats fuzzes the Jest, Mocha, mochawesome, Playwright,
// CTRF and RSpec readers.
func FuzzReadJSONFormats(f *testing.F) {
	formats := []string{FormatJest, FormatMocha, FormatMochawesome, FormatPlaywright, FormatCTRF, FormatRSpec}
	for i, pat := range []string{"jest/*.json", "mocha/mocha.json", "mocha/mochawesome.json", "playwright/*.json", "ctrf/*.json", "rspec/*.json"} {
		for _, s := range samples(f, "testdata/reports/"+pat, 3000) {
			f.Add(uint8(i), s)
		}
	}
	f.Add(uint8(1), `{"tests":[{"fullTitle":"a","currentRetry":2,"err":{"message":"x"}}],"pending":[],"failures":[{"fullTitle":"\"before all\" hook"}]}`)
	f.Fuzz(func(t *testing.T, which uint8, s string) { fuzzFormat(t, formats, which, s) })
}

// FuzzJSONReader checks the readers' streaming JSON reader against the
// core's scanner reading the same text in memory (core/jsonscan, itself
// fuzzed against encoding/json): it accepts exactly what that accepts, and
// refuses the rest at the same line and column; a string it keeps is the
// one encoding/json decodes.
func FuzzJSONReader(f *testing.F) {
	for _, s := range samples(f, "testdata/reports/*/*.json", 2000) {
		f.Add(s)
	}
	f.Add(`{"a": "\ud83d\ude00 \u00e9", "b": [1, -0.5e+3, true, null], "c": {}}`)
	f.Add(`["\ud800", "x\u0000"]`)
	f.Add(`{"score": NaN, "a": 1, "a": 2}`)
	f.Fuzz(func(t *testing.T, s string) {
		j := newJSONReader(strings.NewReader(s), "document")
		err := j.skip()
		if err == nil {
			err = j.end()
		}
		if err != nil {
			checkReportErr(t, err)
		}
		want := jsonscan.Check([]byte(s), "document")
		if (err == nil) != (want == nil) {
			t.Fatalf("reader says %v, the scanner in memory %v", err, want)
		}
		if e, ok := want.(*jsonscan.Error); ok {
			if ce, ok := err.(*core.Error); !ok || ce.Line != e.Line || ce.Column != e.Column {
				t.Fatalf("reader says %v, the scanner in memory %v", err, want)
			}
		}
		// A top-level string decodes as encoding/json decodes it.
		var text string
		if json.Unmarshal([]byte(s), &text) == nil && !bytes.ContainsRune([]byte(text), '\uFFFD') {
			got, err := newJSONReader(strings.NewReader(s), "document").text("a string")
			if err != nil || got != text {
				t.Fatalf("text() = %q, %v; encoding/json gives %q", got, err, text)
			}
		}
	})
}

func samples(f *testing.F, pattern string, limit int) []string {
	var out []string
	files, _ := globFiles(pattern)
	for _, p := range files {
		raw := readAll(f, p)
		out = append(out, string(raw[:min(len(raw), limit)]))
	}
	return out
}

func globFiles(pattern string) ([]string, error) { return filepath.Glob(pattern) }

func readAll(f *testing.F, path string) []byte {
	raw := testfile.Read(f, path)
	return raw
}

// FuzzReadEvalLogs fuzzes the inspect_ai (JSON), lm-evaluation-harness,
// promptfoo and samples readers.
func FuzzReadEvalLogs(f *testing.F) {
	formats := []string{FormatInspect, FormatLMEval, FormatPromptfoo, FormatSamples, FormatCounts}
	for i, pat := range []string{"inspect/*.json", "lmeval/*.jsonl", "promptfoo/*.json"} {
		for _, s := range samples(f, "testdata/reports/"+pat, 3000) {
			f.Add(uint8(i), s)
		}
	}
	f.Add(uint8(3), "id,run,score\na,1,C\nb,1,0.5\n")
	f.Add(uint8(3), `{"id":"a","score":"P"}`)
	f.Add(uint8(4), "test,arm,passed,trials\nt,baseline,1,2\n")
	f.Add(uint8(4), "test,fails,runs\nt,1,3\n")
	f.Fuzz(func(t *testing.T, which uint8, s string) { fuzzFormat(t, formats, which, s) })
}

// FuzzReadEvalArchive fuzzes the .eval (zip) reader with damaged archives.
func FuzzReadEvalArchive(f *testing.F) {
	for _, s := range samples(f, "testdata/reports/inspect/*.eval", 1<<20) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { fuzzFormat(t, []string{FormatInspect}, 0, s) })
}

// FuzzAttrNormalizer: attribute-value normalization gives the same bytes
// however the input is split into reads, never more bytes than it got,
// and leaves everything outside quoted values as it was when there are no
// quotes at all.
func FuzzAttrNormalizer(f *testing.F) {
	for _, s := range samples(f, "testdata/reports/junit/attr_*.xml", 4000) {
		f.Add(uint8(3), s)
	}
	f.Add(uint8(1), "<a b='x\r\ny'><!-- 'c\n' --><![CDATA[ \"d\t ]]><?p \"e\n\"?></a>")
	f.Fuzz(func(t *testing.T, size uint8, s string) {
		read := func(n int) string {
			a := &attrNormalizer{r: strings.NewReader(s)}
			var out []byte
			buf := make([]byte, n)
			for {
				k, err := a.Read(buf)
				out = append(out, buf[:k]...)
				if err != nil {
					return string(out)
				}
			}
		}
		whole, split := read(len(s)+1), read(int(size)%16+1)
		if whole != split {
			t.Fatalf("reads of %d bytes give %q, one read %q", int(size)%16+1, split, whole)
		}
		if len(whole) > len(s) {
			t.Fatalf("%d bytes out of %d", len(whole), len(s))
		}
		if !strings.ContainsAny(s, `"'`) && whole != s {
			t.Fatalf("no quoted value, yet %q became %q", s, whole)
		}
	})
}
