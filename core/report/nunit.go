package report

import (
	"encoding/xml"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readNUnit reads NUnit 3 XML (root <test-run>, nunit3-console --result,
// NUnit's "Test Result XML Format") or NUnit 2 XML (root <test-results>)
// as one run. A test-case's name is its fullname (NUnit 3) or name
// (NUnit 2, already full).
//
// NUnit 3: result Passed or Warning passes; Failed fails, and counts apart
// as an error when its label is Error, except when its site is SetUp or
// Parent: the test's SetUp or its fixture's OneTimeSetUp failed and the
// body never ran (a setup failure, no trial). Skipped and Inconclusive are
// no trial. NUnit's [Retry] keeps only the last attempt.
// NUnit 2: an executed test-case with success="True" passes, another
// fails (result Error counts apart as an error); cases not executed are no
// trial.
func readNUnit(x *xmlStream, arm, run string, l *ledger.Ledger) error {
	cases := 0
	err := x.walkStarts(xmlKind{name: "an NUnit report", roots: []string{"test-run", "test-results"}}, func(t xml.StartElement) error {
		if t.Name.Local != "test-case" {
			return nil
		}
		line, col := x.pos()
		name := attr(t, "fullname")
		if name == "" {
			name = attr(t, "name")
		}
		if name == "" {
			return core.PosErrorf(core.Invalid, line, col, "a <test-case> without a name or fullname")
		}
		cases++
		if x.root == "test-run" {
			switch attr(t, "result") {
			case "Passed", "Warning":
				l.AddTrial(arm, run, name, true)
			case "Failed":
				switch attr(t, "site") {
				case "SetUp", "Parent":
					l.AddSideFailure(arm, run, name, "setup")
				default:
					if attr(t, "label") == "Error" {
						l.AddSideFailure(arm, run, name, "error")
					}
					l.AddTrial(arm, run, name, false)
				}
			}
		} else if attr(t, "executed") == "True" {
			switch res := attr(t, "result"); {
			case res == "Ignored" || res == "Skipped" || res == "NotRunnable" || res == "Inconclusive" || res == "NotRun":
			case attr(t, "success") == "True" || res == "Success":
				l.AddTrial(arm, run, name, true)
			default:
				if res == "Error" {
					l.AddSideFailure(arm, run, name, "error")
				}
				l.AddTrial(arm, run, name, false)
			}
		}
		return x.skip()
	})
	if err != nil {
		return err
	}
	if cases == 0 {
		warnf(l, "run %s: the NUnit report has no test cases", run)
	}
	return nil
}
