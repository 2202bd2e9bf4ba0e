package report

import (
	"bufio"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readJest reads `jest --json` output (and Vitest's `--reporter=json`,
// which has Jest's shape) as one run. Each test of testResults[].
// assertionResults[] with status passed or failed is one trial per
// attempt: Jest counts attempts in invocations (jest.retryTimes); Vitest
// writes no invocations but keeps one failureMessages entry per failed
// attempt. A passed test's earlier attempts failed. pending, skipped, todo
// and disabled tests are no trial. A test file that failed to run (a
// syntax error, a failing import) has no trials and is a warning.
func readJest(r *bufio.Reader, arm, run string, l *ledger.Ledger) error {
	j := newJSONReader(r, "Jest JSON report")
	var brokenFiles []string
	files := 0
	err := j.object(func(key string) error {
		if key != "testResults" {
			return j.skip()
		}
		return j.array(func(int) error {
			files++
			var file, status, message string
			tests := 0
			err := j.object(func(key string) error {
				var err error
				switch key {
				case "name", "testFilePath":
					file, err = j.text("the test file's path")
				case "status":
					status, err = j.text("a status")
				case "message", "failureMessage":
					message, err = j.text("a message")
				case "assertionResults", "testResults":
					err = j.array(func(int) error {
						tests++
						return readJestTest(j, arm, run, l)
					})
				default:
					err = j.skip()
				}
				return err
			})
			if err == nil && tests == 0 && status == "failed" {
				brokenFiles = append(brokenFiles, cmpOr(file, "a test file")+": "+firstLine(message))
			}
			return err
		})
	})
	if err != nil {
		return err
	}
	if err := j.end(); err != nil {
		return err
	}
	if len(brokenFiles) > 0 {
		warnf(l, "run %s: %s failed to run and have no trials: %s", run, core.Nouns(len(brokenFiles), "test file"), core.ListNames(brokenFiles))
	}
	if files == 0 {
		warnf(l, "run %s: the Jest report has no test files", run)
	}
	return nil
}

// readJestTest reads one entry of assertionResults.
func readJestTest(j *jsonReader, arm, run string, l *ledger.Ledger) error {
	line, col := j.at()
	var full, title, status string
	var ancestors []string
	invocations, failures := int64(-1), int64(0)
	err := j.object(func(key string) error {
		var err error
		switch key {
		case "fullName":
			full, err = j.text("the test's full name")
		case "title":
			title, err = j.text("the test's title")
		case "status":
			status, err = j.text("a status")
		case "invocations":
			invocations, err = j.integer("a whole number of invocations")
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
	})
	if err != nil {
		return err
	}
	name := full
	if name == "" {
		name = joinNonEmpty(append(ancestors, title), " ")
	}
	if name == "" {
		return j.errAt(line, col, "a test without a fullName or title")
	}
	var attempts int64
	switch status {
	case "passed", "failed":
	case "":
		return j.errAt(line, col, "the test %q has no status", name)
	default:
		return nil // pending, skipped, todo, disabled, focused: no trial
	}
	switch {
	case invocations >= 1:
		attempts = invocations
	case status == "passed":
		attempts = failures + 1 // Vitest: one message per failed attempt
	default:
		attempts = max(failures, 1)
	}
	for i := int64(1); i <= attempts; i++ {
		l.AddTrial(arm, run, name, status == "passed" && i == attempts)
	}
	return nil
}
