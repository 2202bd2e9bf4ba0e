package report

import (
	"cmp"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// JUnit XML has no single schema; these are the shapes readJUnit accepts,
// each checked against a sample in testdata/reports/junit:
//
//   - <testsuites> holding <testsuite> elements (which may nest), or a lone
//     <testsuite>, holding <testcase name=… classname=…> elements;
//   - in a testcase: <failure>, <error>, <skipped>, and Maven Surefire's
//     rerun records <flakyFailure>, <flakyError> (failed attempts before a
//     passing one), <rerunFailure> and <rerunError> (failed reruns after a
//     first failure). Playwright writes the same four with includeRetries.
//
// Everything else (properties, system-out, attributes we do not use) is
// skipped without being kept in memory.

// junitCase is what one <testcase> says.
type junitCase struct {
	name, classname       string
	line, col             int
	failure, skipped      bool
	notRun                bool // status or result says it did not run (ctest, googletest)
	errs                  int  // <error> elements of the body
	setupErr, teardownErr bool
	retries               []bool // Surefire rerun records: true when an error
	time                  string // the time attribute: seconds, when a number
}

// readJUnit reads one JUnit XML file as one run of arm; dur, when not
// nil, is given the time attribute of each testcase that is a trial
// (Options.Durations).
func readJUnit(r io.Reader, arm, run string, l *ledger.Ledger, dur func(string, float64)) error {
	x := newXMLStream(r)
	pos := x.pos
	var suites []string // names of the enclosing testsuite elements
	cases := 0
	seen := map[string]int{}    // testcases per name in this file
	unnamed := map[string]int{} // testcases without a name, per class
	var unnamedAt []string
	prevID, prevFailed := "", false
	err := x.walk(xmlKind{name: "a JUnit XML report", empty: "a JUnit report", roots: []string{"testsuites", "testsuite"}}, func(tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "testsuites":
				suites = append(suites, "")
			case "testsuite":
				suites = append(suites, attr(t, "name"))
			case "testcase":
				c := junitCase{name: attr(t, "name"), classname: attr(t, "classname"), time: attr(t, "time")}
				c.line, c.col = pos()
				c.notRun = notRunStatus[attr(t, "status")] || notRunStatus[attr(t, "result")]
				if err := readJUnitCase(x, &c); err != nil {
					return err
				}
				suite := ""
				if len(suites) > 0 {
					suite = suites[len(suites)-1]
				}
				if c.name == "" {
					// Surefire 3 writes a JUnit 5 class-level failure
					// (@BeforeAll) this way, jest-junit a test whose title
					// is empty: name it after its class and its place.
					class := cmp.Or(c.classname, suite)
					unnamed[class]++
					c.name = fmt.Sprintf("(unnamed #%d)", unnamed[class])
					unnamedAt = append(unnamedAt, fmt.Sprintf("line %d", c.line))
				}
				id := junitName(c, suite)
				seen[id]++
				// pytest writes a failing body followed by a failing
				// teardown as two testcases of one name, the second holding
				// only the teardown's error: that is no second trial.
				split := id == prevID && prevFailed && c.teardownErr && !c.failure && c.errs == 0 && !c.skipped
				prevID, prevFailed = id, addJUnitCase(l, arm, run, id, c, split)
				if dur != nil && !split && !c.setupErr && (!(c.skipped || c.notRun) || c.failure || c.errs > 0) {
					if s, ok := seconds(strings.TrimSpace(c.time)); ok {
						dur(id, s)
					}
				}
				cases++
			default:
				return x.skip()
			}
		case xml.EndElement:
			if len(suites) > 0 {
				suites = suites[:len(suites)-1]
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if cases == 0 {
		warnf(l, "run %s: the JUnit report has no test cases", run)
	}
	if len(unnamedAt) > 0 {
		warnf(l, "run %s: %s without a name (%s), named after their class and place: \"(unnamed #1)\" and on",
			run, core.Nouns(len(unnamedAt), "testcase"), core.ListNames(unnamedAt))
	}
	if twice := repeated(seen); len(twice) > 0 {
		warnf(l, "run %s: tests that appear more than once in one JUnit file: %d (%s); each appearance is a trial (go test -count, a rerun, or Playwright projects without includeProjectInTestName)",
			run, len(twice), core.ListNames(twice))
	}
	return nil
}

// readJUnitCase reads the children of a <testcase> up to its end tag.
func readJUnitCase(x *xmlStream, c *junitCase) error {
	for {
		tok, err := x.next()
		if errors.Is(err, io.EOF) {
			return x.err(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "failure":
				c.failure = true
			case "error":
				msg := attr(t, "message")
				switch {
				case strings.Contains(msg, "failed on setup"), strings.Contains(msg, "error in setup"), msg == "test setup failure":
					c.setupErr = true // pytest 6+ "failed on setup with ...", pytest < 6 "test setup failure"
				case strings.Contains(msg, "failed on teardown"), strings.Contains(msg, "error in teardown"), msg == "test teardown failure":
					c.teardownErr = true
				default:
					c.errs++
				}
			case "skipped":
				c.skipped = true
			case "flakyFailure", "rerunFailure":
				c.retries = append(c.retries, false)
			case "flakyError", "rerunError":
				c.retries = append(c.retries, true)
			}
			if err := x.skip(); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		}
	}
}

// notRunStatus are the status and result attributes of a testcase that
// did not run although it has no <skipped> element: ctest writes
// status="disabled" and status="notrun", googletest status="notrun" with
// result="suppressed" for a DISABLED_ test and result="skipped" for
// GTEST_SKIP.
var notRunStatus = map[string]bool{"disabled": true, "notrun": true, "suppressed": true, "skipped": true}

// addJUnitCase records the trials of one testcase and reports whether its
// last trial failed. split is pytest's second half of a test whose body and
// teardown both failed: only the teardown failure is recorded.
//
// Surefire's records come in two orders: <flakyFailure>s are attempts that
// failed before the testcase's passing outcome, so they go first; a
// <failure> with <rerunFailure>s failed every time, so order does not
// matter. Playwright writes the same shape.
func addJUnitCase(l *ledger.Ledger, arm, run, id string, c junitCase, split bool) (failed bool) {
	if split {
		l.AddSideFailure(arm, run, id, "teardown")
		return false
	}
	for _, isErr := range c.retries {
		if isErr {
			l.AddSideFailure(arm, run, id, "error")
		}
		l.AddTrial(arm, run, id, false)
	}
	switch {
	case c.setupErr:
		l.AddSideFailure(arm, run, id, "setup")
		return false // the body never ran
	case (c.skipped || c.notRun) && !c.failure && c.errs == 0:
		if c.teardownErr {
			l.AddSideFailure(arm, run, id, "teardown")
		}
		return false
	}
	for range c.errs {
		l.AddSideFailure(arm, run, id, "error")
	}
	failed = c.failure || c.errs > 0
	l.AddTrial(arm, run, id, !failed)
	if c.teardownErr {
		l.AddSideFailure(arm, run, id, "teardown")
	}
	return failed
}

// junitName is a testcase's ledger name: its classname (or the enclosing
// testsuite's name), a dot, and its name; just the name when the classname
// is empty or the name already starts with it (Jest writes "describe test"
// for both).
func junitName(c junitCase, suite string) string {
	class := c.classname
	if class == "" {
		class = suite
	}
	if class == "" || c.name == class || strings.HasPrefix(c.name, class+" ") {
		return c.name
	}
	return class + "." + c.name
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}
