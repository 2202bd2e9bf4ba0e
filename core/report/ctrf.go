package report

import (
	"strings"

	"github.com/flakegate/flakegate/core/ledger"
)

// readCTRF reads a Common Test Report Format file (results.tests[]) as one
// run. Each test with status passed or failed is one trial per attempt:
// retryAttempts lists the attempts before the last (the CTRF examples,
// playwright-ctrf-json-reporter) or, when it has retries + 1 entries, all of
// them; without it, retries failed attempts come before the last. skipped,
// pending and other are no trial. A test is named after its suite (a
// string, or an array of titles) and its name.
func readCTRF(j *jsonReader, arm, run string, l *ledger.Ledger) error {
	err := j.member(func() error {
		return j.array(func(int) error { return ctrfTest(j, arm, run, l) })
	}, "results", "tests")
	if err != nil {
		return err
	}
	return j.end()
}

func ctrfTest(j *jsonReader, arm, run string, l *ledger.Ledger) error {
	line, col := j.at()
	var name, status string
	var suite []string
	retries := int64(-1)
	var attempts []string
	err := j.members(func(key string) error {
		var err error
		switch key {
		case "suite":
			k, kerr := j.kind()
			if kerr != nil {
				return kerr
			}
			if k == "array" {
				return j.array(func(int) error {
					s, err := j.text("a suite title")
					suite = append(suite, s)
					return err
				})
			}
			var s string
			s, err = j.text("the suite")
			if s != "" {
				suite = strings.Split(s, " > ")
			}
		case "retryAttempts":
			err = j.array(func(int) error {
				var st string
				err := j.texts(jsonField{"status", &st, "an attempt's status"})
				attempts = append(attempts, st)
				return err
			})
		default:
			err = j.skip()
		}
		return err
	}, jsonField{"name", &name, "the test's name"}, jsonField{"status", &status, "a status"},
		jsonField{"retries", &retries, "a whole number of retries"})
	if err != nil {
		return err
	}
	if name == "" {
		return j.errAt(line, col, "a test without a name")
	}
	if status != "passed" && status != "failed" {
		return nil
	}
	id := joinNonEmpty(append(suite, name), " > ")
	switch {
	case len(attempts) > 0 && int64(len(attempts)) == retries+1:
	case len(attempts) > 0:
		attempts = append(attempts, status)
	default:
		for range max(retries, 0) {
			attempts = append(attempts, "failed")
		}
		attempts = append(attempts, status)
	}
	for _, a := range attempts {
		if a == "passed" || a == "failed" {
			l.AddTrial(arm, run, id, a == "passed")
		}
	}
	return nil
}
