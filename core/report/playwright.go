package report

import (
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readPlaywright reads Playwright's JSON reporter output (reporter "json")
// as one run. Every entry of a test's results[] is one attempt (retry 0,
// 1, ...), and each that ran to its end is a trial: not skipped, and not
// interrupted (the run was stopped under it: Ctrl-C, maxFailures). An
// attempt passes when its status is the test's expectedStatus ("passed"
// unless the test is marked test.fail(), which expects "failed": such a
// test passes by failing, as Playwright counts it). A test is named "[project] file › describe › title", as
// Playwright's list reporter names it (without the project when it has
// none). Errors outside any test (errors[]) are a warning.
func readPlaywright(j *jsonReader, arm, run string, l *ledger.Ledger) error {
	globalErrors, interrupted := 0, 0
	var suite func(path []string) error
	suite = func(path []string) error {
		var title string
		return j.members(func(key string) error {
			switch key {
			case "suites":
				return j.array(func(int) error { return suite(appendTitle(path, title)) })
			case "specs":
				return j.array(func(int) error { return playwrightSpec(j, appendTitle(path, title), arm, run, l, &interrupted) })
			}
			return j.skip()
		}, jsonField{"title", &title, "a suite title"})
	}
	err := j.object(func(key string) error {
		switch key {
		case "suites":
			return j.array(func(int) error { return suite(nil) })
		case "errors":
			return j.array(func(int) error { globalErrors++; return j.skip() })
		}
		return j.skip()
	})
	if err != nil {
		return err
	}
	if err := j.end(); err != nil {
		return err
	}
	if interrupted > 0 {
		warnf(l, "run %s: attempts interrupted when the run was stopped (no trials): %d", run, interrupted)
	}
	if globalErrors > 0 {
		warnf(l, "run %s: %s outside any test (global setup, a file that failed to load)", run, core.Nouns(globalErrors, "error"))
	}
	return nil
}

// appendTitle is path with title added, in a new slice; an empty title
// (the root suite) adds nothing.
func appendTitle(path []string, title string) []string {
	if title == "" {
		return path
	}
	return append(append([]string(nil), path...), title)
}

// playwrightAttempt is one attempt of a test that ran to its end.
type playwrightAttempt struct {
	project string
	passed  bool
}

// playwrightSpec reads one spec: its title and its tests, one per project.
// The keys come in any order, so tests are kept until the title is known.
func playwrightSpec(j *jsonReader, path []string, arm, run string, l *ledger.Ledger, interrupted *int) error {
	var title string
	var attempts []playwrightAttempt
	err := j.members(j.arrayAt(func(int) error {
		var err error
		attempts, err = playwrightTest(j, attempts, interrupted)
		return err
	}, "tests"), jsonField{"title", &title, "a test title"})
	if err != nil {
		return err
	}
	name := strings.Join(appendTitle(path, title), " › ")
	for _, a := range attempts {
		id := name
		if a.project != "" {
			id = "[" + a.project + "] " + name
		}
		l.AddTrial(arm, run, id, a.passed)
	}
	return nil
}

// playwrightTest reads one test of a spec (one project's run of it) and
// appends its attempts to attempts, counting the interrupted ones.
func playwrightTest(j *jsonReader, attempts []playwrightAttempt, interrupted *int) ([]playwrightAttempt, error) {
	var project, expected string
	var statuses []string
	err := j.members(j.arrayAt(func(int) error {
		var status string
		err := j.texts(jsonField{"status", &status, "a result status"})
		statuses = append(statuses, status)
		return err
	}, "results"), jsonField{"projectName", &project, "a project name"}, jsonField{"expectedStatus", &expected, "the expected status"})
	expected = cmpOr(expected, "passed")
	for _, s := range statuses {
		switch s {
		case "", "skipped":
		case "interrupted":
			*interrupted++
		default:
			attempts = append(attempts, playwrightAttempt{project, s == expected})
		}
	}
	return attempts, err
}
