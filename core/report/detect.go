package report

import (
	"bytes"
	"strings"
)

// DetectFormat names the format of a report from its first bytes (Read
// gives it 64 KB), or "" when it cannot tell:
//   - XML by its root element: <testsuites> or <testsuite> is JUnit,
//     <test-run> and <test-results> NUnit, <TestRun> a TRX file,
//     <assemblies> or <assembly> xUnit.net;
//   - one JSON document by its top-level keys: Jest's numTotalTests and
//     testResults, Playwright's config and suites, Mocha's stats with tests,
//     mochawesome's stats with a results array, CTRF's results with a tool,
//     RSpec's examples and summary;
//   - JSON lines by the keys of the first one: "Action" is go test -json,
//     "nodeid" the JSONL trial ledger, and so is "when":"run" (flakegate run's
//     record of a run that failed, when it is the ledger's first line);
//   - TAP by a "TAP version" line, a plan ("1..N") or a test point.
//
// A byte order mark, leading blank lines, and non-JSON lines before the
// first JSON line (go test output mixed with stderr) are skipped.
func DetectFormat(head []byte) string {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) > 0 && t[0] == '<' {
		return xmlFormat(xmlRoot(t))
	}
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) && bytes.Contains(head, []byte("header.json")) || bytes.Contains(head[:min(len(head), 4096)], []byte("_journal/start.json")) && bytes.HasPrefix(head, []byte("PK")) {
		return FormatInspect // an inspect_ai .eval archive
	}
	if len(t) > 0 && t[0] == '{' {
		if f := docFormat(topKeys(t)); f != "" {
			return f
		}
	}
	if isTAP(t) {
		return FormatTAP
	}
	if countsKind(csvHeader(t)) != "" {
		return FormatCounts
	}
	for len(head) > 0 {
		var line []byte
		line, head, _ = bytes.Cut(head, []byte("\n"))
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		switch {
		case bytes.Contains(line, []byte(`"Action"`)):
			return FormatGoTest
		case bytes.Contains(line, []byte(`"nodeid"`)), bytes.Contains(line, []byte(`"when":"run"`)):
			return FormatLedger
		case bytes.Contains(line, []byte(`"doc_id"`)):
			return FormatLMEval
		}
		return ""
	}
	return ""
}

// xmlFormat is the format of an XML root element.
func xmlFormat(root string) string {
	switch root {
	case "testsuites", "testsuite":
		return FormatJUnit
	case "test-run", "test-results":
		return FormatNUnit
	case "TestRun":
		return FormatTRX
	case "assemblies", "assembly":
		return FormatXUnit
	}
	return ""
}

// xmlRoot is the local name of the first element of an XML text, past the
// declaration, comments, processing instructions and a DOCTYPE; "" when
// the head holds none.
func xmlRoot(t []byte) string {
	for {
		i := bytes.IndexByte(t, '<')
		if i < 0 || i+1 >= len(t) {
			return ""
		}
		t = t[i+1:]
		switch {
		case bytes.HasPrefix(t, []byte("!--")):
			end := bytes.Index(t, []byte("-->"))
			if end < 0 {
				return ""
			}
			t = t[end+3:]
			continue
		case t[0] == '?' || t[0] == '!':
			continue
		}
		end := bytes.IndexAny(t, " \t\r\n/>")
		if end < 0 {
			return ""
		}
		name := string(t[:end])
		if k := strings.IndexByte(name, ':'); k >= 0 {
			name = name[k+1:]
		}
		return name
	}
}

// topKeys lists the keys of the top-level object of a JSON text, as far as
// the head goes, and for each whether its value is an object ('{'), an
// array ('[') or another kind ('v').
func topKeys(t []byte) map[string]byte {
	keys := map[string]byte{}
	j := newJSONLine(t, 1, "JSON").python() // the eval logs' NaN must not hide their keys
	j.object(func(key string) error {
		k, err := j.kind()
		if err != nil {
			return err
		}
		switch k {
		case "object":
			keys[key] = '{'
			if key == "results" {
				// CTRF's results hold "tool"; promptfoo's "version".
				return j.object(func(sub string) error {
					keys["results."+sub] = 'v'
					return j.skip()
				})
			}
		case "array":
			keys[key] = '['
		default:
			keys[key] = 'v'
		}
		return j.skip()
	})
	return keys
}

// docFormat names a JSON report format by its top-level keys.
func docFormat(k map[string]byte) string {
	has := func(names ...string) bool {
		for _, n := range names {
			if _, ok := k[n]; !ok {
				return false
			}
		}
		return true
	}
	switch {
	case has("testResults") && (has("numTotalTests") || has("numPassedTests")):
		return FormatJest
	case has("eval", "status") && (has("samples") || has("results") || has("version")):
		return FormatInspect
	case has("evalId") || k["results"] == '{' && has("results.version") && has("results.stats"):
		return FormatPromptfoo
	case has("config", "suites"):
		return FormatPlaywright
	case has("stats") && k["results"] == '[':
		return FormatMochawesome
	case has("stats") && (has("tests") || has("passes") || has("failures")):
		return FormatMocha
	case k["results"] == '{' && has("results.tool"):
		return FormatCTRF
	case has("examples") && (has("summary") || has("summary_line") || has("version")):
		return FormatRSpec
	}
	return ""
}

// isTAP reports whether a text starts as TAP does: a version line, a plan
// or a test point, after comments and blank lines.
func isTAP(t []byte) bool {
	for len(t) > 0 {
		var line []byte
		line, t, _ = bytes.Cut(t, []byte("\n"))
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0 || line[0] == '#':
			continue
		case bytes.HasPrefix(line, []byte("TAP version ")):
			return true
		case bytes.HasPrefix(line, []byte("1..")):
			return true
		case bytes.HasPrefix(line, []byte("ok ")), bytes.Equal(line, []byte("ok")),
			bytes.HasPrefix(line, []byte("not ok")):
			return true
		}
		return false
	}
	return false
}

// notAReport words the error for a file no reader takes, naming what it is
// when that can be told.
func notAReport(head []byte) string {
	const reads = "flakegate reads JUnit XML, NUnit, TRX and xUnit.net XML, go test -json, TAP, the JSON of Jest, Vitest, Mocha, mochawesome, Playwright, CTRF and RSpec, and the logs of inspect_ai, lm-evaluation-harness and promptfoo (or name the format)"
	if what := recognise(head); what != "" {
		return "this is " + what + "; " + reads
	}
	return "not a report flakegate reads: " + reads
}

// recognise names a format flakegate does not read, from its first bytes.
func recognise(head []byte) string {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	t := bytes.TrimLeft(head, " \t\r\n")
	first := t
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	switch {
	case len(t) == 0:
		return ""
	case t[0] == '<':
		switch root := xmlRoot(t); root {
		case "html", "HTML":
			return "an HTML page (a report meant for people; look for the tool's XML or JSON output)"
		case "testng-results":
			return "a TestNG results file (testng-results.xml; the JUnit files TestNG writes under junitreports/ are read)"
		case "Catch", "Catch2TestRun":
			return "a Catch2 XML report (run it with --reporter junit)"
		case "coverage", "report":
			return "a coverage report, not test results"
		case "checkstyle":
			return "a Checkstyle report, not test results"
		case "Site":
			return "a CTest dashboard file (Test.xml; run ctest with --output-junit)"
		case "":
			return ""
		default:
			return "an XML file whose root element is <" + root + ">"
		}
	case t[0] == '{' || t[0] == '[':
		switch {
		case bytes.Contains(first, []byte(`"protocolVersion"`)):
			return "a Dart JSON report (dart test --reporter json)"
		case bytes.Contains(first, []byte(`"$report_type"`)):
			return "a pytest report log (--report-log; use --junitxml)"
		case bytes.Contains(first, []byte(`"type"`)) && bytes.Contains(first, []byte(`"event"`)):
			return "a Rust libtest JSON stream (cargo test -- --format json; cargo nextest writes JUnit)"
		case bytes.Contains(t, []byte(`"runs"`)) && bytes.Contains(t, []byte(`sarif`)):
			return "a SARIF file (code analysis results, not tests)"
		case t[0] == '[' && bytes.Contains(t, []byte(`"elements"`)) && bytes.Contains(t, []byte(`"keyword"`)):
			return "a Cucumber JSON report (use its JUnit formatter)"
		case bytes.Contains(t, []byte(`"historyId"`)) && bytes.Contains(t, []byte(`"uuid"`)):
			return "an Allure result file"
		}
		k := topKeys(t)
		if _, ok := k["stats"]; ok {
			return "a Mocha JSON report with only its stats (no test results to count)"
		}
		return ""
	case bytes.HasPrefix(first, []byte("=== RUN")) || bytes.HasPrefix(first, []byte("--- ")) || bytes.HasPrefix(first, []byte("PASS")) || bytes.HasPrefix(first, []byte("FAIL")):
		return "go test's plain text output (run go test -json)"
	case bytes.HasPrefix(t, []byte("PK\x03\x04")):
		return "a zip archive"
	}
	return ""
}
