package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// Report formats Read reads.
const (
	FormatAuto        = ""            // detect from the content
	FormatLedger      = "ledger"      // the per-trial JSONL ledger (arm and run in each row)
	FormatGoTest      = "gotest"      // a go test -json (test2json) stream
	FormatJUnit       = "junit"       // JUnit XML: pytest, Surefire, Gradle, gotestsum, ctest, googletest, Jest, Playwright, ...
	FormatNUnit       = "nunit"       // NUnit 3 (test-run) or NUnit 2 (test-results) XML
	FormatTRX         = "trx"         // VSTest's .trx (dotnet test --logger trx)
	FormatXUnit       = "xunit"       // xUnit.net v2 (and v1) XML
	FormatTAP         = "tap"         // TAP 12, 13 or 14: node --test, prove, tap
	FormatJest        = "jest"        // jest --json, vitest --reporter=json
	FormatMocha       = "mocha"       // mocha --reporter json
	FormatMochawesome = "mochawesome" // mochawesome's JSON
	FormatPlaywright  = "playwright"  // Playwright's JSON reporter
	FormatCTRF        = "ctrf"        // the Common Test Report Format
	FormatRSpec       = "rspec"       // rspec --format json
	FormatInspect     = "inspect"     // an inspect_ai eval log, .json or .eval
	FormatLMEval      = "lmeval"      // lm-evaluation-harness --log_samples rows
	FormatPromptfoo   = "promptfoo"   // promptfoo eval --output results.json
	FormatSamples     = "samples"     // JSONL or CSV, one row per sample, fields named in EvalOptions
	FormatCounts      = "counts"      // a warehouse's sums: test,arm,passed,trials or test,fails,runs
)

// Formats lists every format name Read takes.
var Formats = []string{FormatLedger, FormatGoTest, FormatJUnit, FormatNUnit, FormatTRX, FormatXUnit, FormatTAP,
	FormatJest, FormatMocha, FormatMochawesome, FormatPlaywright, FormatCTRF, FormatRSpec,
	FormatInspect, FormatLMEval, FormatPromptfoo, FormatSamples, FormatCounts}

// Options say how to read one report file.
type Options struct {
	// Format is one of Formats, or FormatAuto (also "auto") to detect it
	// from the content.
	Format string
	// Arm is the arm every trial of the file belongs to: ledger.ArmBaseline
	// (the default when empty) or ledger.ArmPatched. A seed ledger names its
	// arms in its rows, and Arm is ignored for it.
	Arm string
	// Run names the run the file is; when empty, runs are numbered per arm
	// ("baseline-1", "baseline-2", ...). A seed ledger names its runs in its
	// rows, and Run is ignored.
	Run string
	// Eval says how to read an eval harness's log (inspect, lmeval,
	// promptfoo, samples): one log is one run, one sample one scenario.
	Eval EvalOptions
	// Durations, when set, is called with a test's name (as the ledger
	// names it) and the seconds one of its counted attempts ran, where the
	// report says: go test -json's Elapsed on a test's pass or fail event,
	// and JUnit's time attribute on a testcase that is a trial. Other
	// formats, and attempts without a time, make no call. Seconds are
	// finite and >= 0.
	Durations func(test string, seconds float64)
}

// detectBytes is how much of a report DetectFormat sees.
const detectBytes = 64 << 10

// Read reads one report file into l, in opt.Format or, when that is empty,
// the format DetectFormat names. Each file but a seed ledger is one run of
// opt.Arm: every attempt of a test in it is a trial, and a retry that
// passed never hides the attempts that failed before it.
// Errors are *Error values with the line and column of the fault; the
// caller adds the file name with core.WithFile.
//
// What counts as a trial, per format:
//   - seed ledger: each call row, the last one of a test in a run standing;
//     passed only when outcome is "passed". Failed setup and teardown rows
//     are counted apart.
//   - go test -json: each pass or fail event of a test or subtest; with
//     -count=N a test has N trials in the run. A skip is no trial. A test
//     that starts and never reports (a panic elsewhere, a timeout, a stream
//     cut short) is a failed trial and a warning. A package that fails to
//     build, or fails before any of its tests reports, has no trials and is
//     a warning; the other packages' tests still count. A file in which no
//     test ran at all is core.Unusable.
//   - JUnit: each <testcase> is a trial (passed unless it has <failure> or
//     <error>); each Surefire <flakyFailure>, <flakyError>, <rerunFailure> or
//     <rerunError> is one more failed trial, before the passing or failing
//     attempt the testcase reports. <skipped> is no trial, nor is a testcase
//     whose status or result says it did not run (ctest's "disabled" and
//     "notrun", googletest's "suppressed" and "skipped"). <error> is a
//     failed trial counted apart as an error, except pytest's setup errors
//     ("failed on setup", before 6.0 "test setup failure": no trial, a setup
//     failure) and teardown errors ("failed on teardown", "test teardown
//     failure": a teardown failure beside the body's own outcome; the second
//     testcase pytest writes when body and teardown both failed is no new
//     trial). A testcase without a name is named after its class and place,
//     "(unnamed #1)", with a warning.
//   - NUnit 3: each test-case with result Passed, Warning (passes) or
//     Failed, except a failure whose site is SetUp or Parent (a setup
//     failure: the body never ran). NUnit 2: each executed test-case.
//   - TRX: each UnitTestResult without inner results (a data-driven test's
//     rows are its trials): Passed passes; Failed, Error, Timeout and
//     Aborted fail; NotExecuted, Inconclusive and the like are no trial.
//   - xUnit.net: each test with result Pass or Fail.
//   - TAP: each test point that has no subtests, except # SKIP and # TODO;
//     a point without a number has the harness's counter's.
//   - Jest and Vitest JSON: each attempt of a passed or failed test (Jest's
//     invocations, Vitest's one failure message per failed attempt), named
//     "file › full name" with the file relative to the report's common
//     folder; a file that failed to run is a setup failure.
//   - Mocha JSON: each attempt (currentRetry failed ones before the last);
//     a failed hook is a setup failure. mochawesome: each passed or failed
//     test (it keeps no retries).
//   - Playwright JSON: every entry of a test's results[] (each retry) that
//     was neither skipped nor interrupted, passed when its status is the
//     test's expectedStatus (a test.fail() test passes by failing).
//   - CTRF: each attempt of a passed or failed test (retryAttempts, or
//     retries failed attempts before the last).
//   - RSpec JSON: each passed or failed example.
//   - eval logs (inspect_ai .json and .eval, lm-evaluation-harness samples,
//     promptfoo output, samples files): one log is one run, each sample a
//     scenario and each of its epochs or repeats a trial, passed when the
//     harness scored it correct (opt.Eval says which score and where a
//     number passes). A promptfoo result that failed with an error is also
//     counted apart as an error; its red-team strategies are scenarios apart.
//
// Text in UTF-16 (with a byte order mark, or starting with an ASCII
// character) is read as such; XML may also declare ISO-8859-1, US-ASCII or
// windows-1252.
func Read(r io.Reader, opt Options, l *ledger.Ledger) error {
	switch opt.Arm {
	case "":
		opt.Arm = ledger.ArmBaseline
	case ledger.ArmBaseline, ledger.ArmPatched:
	default:
		return core.FieldErrorf("arm", "must be baseline or patched, got %q", opt.Arm)
	}
	br := detectPool.Get().(*bufio.Reader)
	br.Reset(utf8Text(r))
	defer func() {
		br.Reset(nil)
		detectPool.Put(br)
	}()
	format := opt.Format
	switch format {
	case FormatAuto, "auto":
		head, err := br.Peek(detectBytes)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
		if format = DetectFormat(head); format == "" && opt.Eval.ID != "" {
			format = FormatSamples // a samples file cannot be told from its content
		}
		if format == "" {
			if len(bytes.TrimSpace(head)) == 0 {
				return &core.Error{Kind: core.Invalid, Line: 1, Column: 1, Msg: "the report is empty"}
			}
			return &core.Error{Kind: core.Invalid, Line: 1, Column: 1, Msg: notAReport(head)}
		}
	case FormatLedger:
	default:
		if readers[format] == nil && evalReaders[format] == nil {
			return core.FieldErrorf("format", "must be one of %s (or empty to detect), got %q", strings.Join(Formats, ", "), opt.Format)
		}
	}
	if format == FormatLedger {
		return ReadLedger(br, l)
	}
	run := opt.Run
	if run == "" {
		run = l.NextRun(opt.Arm)
	}
	if opt.Durations != nil {
		switch format {
		case FormatGoTest:
			return readGoTest(br, opt.Arm, run, l, opt.Durations)
		case FormatJUnit:
			return readJUnit(br, opt.Arm, run, l, opt.Durations)
		}
	}
	if read := evalReaders[format]; read != nil {
		return read(br, opt, run, l)
	}
	return readers[format](br, opt.Arm, run, l)
}

// detectPool holds the readers of detectBytes that Read reads through: a
// multipart request of many small reports reuses them instead of taking
// 64 KB more for each part.
var detectPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, detectBytes) }}

// evalReaders read one eval harness log as one run.
var evalReaders = map[string]func(r *bufio.Reader, opt Options, run string, l *ledger.Ledger) error{
	FormatInspect:   readInspect,
	FormatLMEval:    readLMEval,
	FormatPromptfoo: readPromptfoo,
	FormatSamples:   readSamples,
}

// readers read one file of a format as one run of an arm.
var readers = map[string]func(r *bufio.Reader, arm, run string, l *ledger.Ledger) error{
	FormatGoTest:      func(r *bufio.Reader, arm, run string, l *ledger.Ledger) error { return readGoTest(r, arm, run, l, nil) },
	FormatJUnit:       func(r *bufio.Reader, arm, run string, l *ledger.Ledger) error { return readJUnit(r, arm, run, l, nil) },
	FormatNUnit:       xmlReport(readNUnit),
	FormatTRX:         xmlReport(readTRX),
	FormatXUnit:       xmlReport(readXUnit),
	FormatTAP:         readTAP,
	FormatJest:        jsonReport("Jest JSON report", readJest),
	FormatMocha:       jsonReport("Mocha JSON report", readMocha),
	FormatMochawesome: jsonReport("mochawesome report", readMochawesome),
	FormatPlaywright:  jsonReport("Playwright JSON report", readPlaywright),
	FormatCTRF:        jsonReport("CTRF report", readCTRF),
	FormatRSpec:       jsonReport("RSpec JSON report", readRSpec),
	FormatCounts:      readCounts,
}

// jsonReport is the reader of a JSON report that read reads from its
// JSON, what naming the report in refusals ("Jest JSON report").
func jsonReport(what string, read func(j *jsonReader, arm, run string, l *ledger.Ledger) error) func(r *bufio.Reader, arm, run string, l *ledger.Ledger) error {
	return func(r *bufio.Reader, arm, run string, l *ledger.Ledger) error {
		return read(newJSONReader(r, what), arm, run, l)
	}
}

// xmlReport is the reader of an XML report that read reads from its
// elements.
func xmlReport(read func(x *xmlStream, arm, run string, l *ledger.Ledger) error) func(r *bufio.Reader, arm, run string, l *ledger.Ledger) error {
	return func(r *bufio.Reader, arm, run string, l *ledger.Ledger) error {
		return read(newXMLStream(r), arm, run, l)
	}
}

// LimitReader returns a reader of r that fails with a core.TooLarge *Error once
// more than max bytes have been read, so that a report over a size limit is
// refused rather than silently cut short. The readers pass the error on
// unchanged.
func LimitReader(r io.Reader, max int64) io.Reader { return &limitReader{r: r, left: max, max: max} }

type limitReader struct {
	r         io.Reader
	left, max int64
}

func (lr *limitReader) Read(p []byte) (int, error) {
	if lr.left < 0 {
		return 0, lr.err()
	}
	if int64(len(p)) > lr.left+1 {
		p = p[:lr.left+1]
	}
	n, err := lr.r.Read(p)
	lr.left -= int64(n)
	if lr.left < 0 {
		return 0, lr.err()
	}
	return n, err
}

func (lr *limitReader) err() error {
	return &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf("the report is larger than the limit of %d bytes", lr.max)}
}

// utf8Text returns r as UTF-8: a UTF-16 file (with a byte order mark, or
// starting with an ASCII character in UTF-16) is transcoded; anything else
// is passed through.
func utf8Text(r io.Reader) io.Reader {
	br := bufio.NewReaderSize(r, 512)
	head, _ := br.Peek(4)
	order, bom := utf16Order(head)
	if order == "" {
		return br
	}
	br.Discard(bom)
	return newUTF16Reader(br, order)
}

func warnf(l *ledger.Ledger, format string, args ...any) { l.Warn(fmt.Sprintf(format, args...)) }

// repeated lists, sorted, the names seen counts more than once.
func repeated(seen map[string]int) []string {
	var twice []string
	for name, n := range seen {
		if n > 1 {
			twice = append(twice, name)
		}
	}
	sort.Strings(twice)
	return twice
}
