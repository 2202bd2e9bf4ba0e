package report

import (
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readJest reads `jest --json` output (and Vitest's `--reporter=json`,
// which has Jest's shape) as one run. Each test of testResults[].
// assertionResults[] with status passed or failed is one trial per
// attempt: Jest counts attempts in invocations (jest.retryTimes); Vitest
// writes no invocations but keeps one failureMessages entry per failed
// attempt. A passed test's earlier attempts failed. pending, skipped, todo
// and disabled tests are no trial.
//
// Jest groups results by test file, and the file is part of a test's
// identity: a test is named "file › full name", the file's path taken
// relative to the folder all of the report's files share (so the name is
// the same in every checkout, and two files' tests of one name stay apart).
// A test file that failed to run (a syntax error, a failing import: status
// failed and no test results) has no trials; it is a setup failure of the
// file, as jest-junit's <error> case and a failed NUnit OneTimeSetUp are,
// and a warning.
func readJest(j *jsonReader, arm, run string, l *ledger.Ledger) error {
	var files []jestFile
	err := j.member(func() error {
		return j.array(func(int) error {
			var f jestFile
			var status, message string
			tests := 0
			err := j.members(j.arrayAt(func(int) error {
				tests++
				t, err := readJestTest(j)
				if err == nil && t.attempts > 0 {
					f.tests = append(f.tests, t)
				}
				return err
			}, "assertionResults", "testResults"), jsonField{"name", &f.path, "the test file's path"}, jsonField{"testFilePath", &f.path, "the test file's path"},
				jsonField{"status", &status, "a status"},
				jsonField{"message", &message, "a message"}, jsonField{"failureMessage", &message, "a message"})
			if err == nil && tests == 0 && status == "failed" {
				f.broken = strings.TrimSpace(strings.TrimPrefix(firstLine(message), "●"))
				if f.broken == "" {
					f.broken = "no message"
				}
			}
			files = append(files, f)
			return err
		})
	}, "testResults")
	if err != nil {
		return err
	}
	if err := j.end(); err != nil {
		return err
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	root := commonDir(paths)
	var broken []string
	for _, f := range files {
		file := relPath(f.path, root)
		if f.broken != "" {
			l.AddSideFailure(arm, run, cmpOr(file, "(a test file)"), "setup")
			broken = append(broken, cmpOr(file, "a test file")+": "+f.broken)
		}
		for _, t := range f.tests {
			name := t.name
			if file != "" {
				name = file + " › " + name
			}
			// The attempts before the last failed.
			l.AddCounts(arm, run, name, 0, t.attempts-1)
			l.AddTrial(arm, run, name, t.passed)
		}
	}
	if len(broken) > 0 {
		warnf(l, "run %s: %s failed to run, so none of its tests has a trial (each counts as a setup failure): %s", run, core.Nouns(len(broken), "test file"), core.ListNames(broken))
	}
	if len(files) == 0 {
		warnf(l, "run %s: the Jest report has no test files", run)
	}
	return nil
}

// jestFile is one entry of a Jest report's testResults: a test file.
type jestFile struct {
	path   string     // as written: absolute, with / or \
	tests  []jestTest // passed and failed tests
	broken string     // why the file failed to run, or ""
}

// jestTest is one passed or failed test: its attempts, the last of which
// passed when passed is set.
type jestTest struct {
	name     string
	attempts int64
	passed   bool
}

// readJestTest reads one entry of assertionResults; a test that did not
// run has no attempts.
func readJestTest(j *jsonReader) (jestTest, error) {
	line, col := j.at()
	var full, title, status string
	var ancestors []string
	invocations, failures := int64(-1), int64(0)
	err := j.members(func(key string) error {
		var err error
		switch key {
		case "ancestorTitles":
			err = j.array(func(int) error {
				s, err := j.text("a title")
				ancestors = append(ancestors, s)
				return err
			})
		case "failureMessages":
			err = j.array(func(int) error {
				failures++
				return j.skip()
			})
		default:
			err = j.skip()
		}
		return err
	}, jsonField{"fullName", &full, "the test's full name"}, jsonField{"title", &title, "the test's title"}, jsonField{"status", &status, "a status"},
		jsonField{"invocations", &invocations, "a whole number of invocations"})
	if err != nil {
		return jestTest{}, err
	}
	t := jestTest{name: full, passed: status == "passed"}
	if t.name == "" {
		t.name = joinNonEmpty(append(ancestors, title), " ")
	}
	if t.name == "" {
		return t, j.errAt(line, col, "a test without a fullName or title")
	}
	switch status {
	case "passed", "failed":
	case "":
		return t, j.errAt(line, col, "the test %q has no status", t.name)
	default:
		return t, nil // pending, skipped, todo, disabled, focused: no trial
	}
	switch {
	case invocations >= 1:
		t.attempts = invocations
	case status == "passed":
		t.attempts = failures + 1 // Vitest: one message per failed attempt
	default:
		t.attempts = max(failures, 1)
	}
	return t, nil
}
