package report

import (
	"encoding/xml"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// trxResult is one leaf UnitTestResult of a TRX file.
type trxResult struct {
	testID, name, outcome string
}

// readTRX reads a VSTest .trx file (dotnet test --logger trx, vstest.console
// /logger:trx) as one run. Each UnitTestResult without InnerResults is a
// trial: a data-driven test's parent only sums its rows. Passed (and
// PassedButRunAborted, Warning, Completed) passes; Failed, Error, Timeout
// and Aborted fail; NotExecuted, Inconclusive, NotRunnable, Pending and
// the like are no trial. A result's name is its testName, prefixed with its
// class from TestDefinitions when the testName is the method alone (MSTest
// writes it so; the xUnit and NUnit adapters write full names).
func readTRX(x *xmlStream, arm, run string, l *ledger.Ledger) error {
	var results []trxResult
	var stack []int                // open UnitTestResults: index in results, or -1 once known to be a parent
	classes := map[string]string{} // testId -> class name
	unitTest := ""                 // id of the UnitTest definition being read
	err := x.walk(xmlKind{name: "a TRX file", roots: []string{"TestRun"}}, func(tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "UnitTestResult":
				results = append(results, trxResult{testID: attr(t, "testId"), name: attr(t, "testName"), outcome: attr(t, "outcome")})
				if results[len(results)-1].name == "" {
					line, col := x.pos()
					return core.PosErrorf(core.Invalid, line, col, "a <UnitTestResult> without a testName")
				}
				stack = append(stack, len(results)-1)
			case "InnerResults":
				if n := len(stack); n > 0 && stack[n-1] >= 0 {
					results[stack[n-1]].outcome = "" // a parent: its rows are the trials
				}
			case "UnitTest":
				unitTest = attr(t, "id")
			case "TestMethod":
				if c := attr(t, "className"); unitTest != "" && c != "" {
					if i := strings.IndexByte(c, ','); i >= 0 {
						c = c[:i] // assembly-qualified: "Ns.Class, Assembly, Version=..."
					}
					classes[unitTest] = strings.TrimSpace(c)
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "UnitTestResult":
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			case "UnitTest":
				unitTest = ""
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, res := range results {
		name := res.name
		if c := classes[res.testID]; c != "" && !strings.HasPrefix(name, c+".") {
			name = c + "." + name
		}
		switch res.outcome {
		case "Passed", "PassedButRunAborted", "Warning", "Completed":
			l.AddTrial(arm, run, name, true)
		case "Failed", "Error", "Timeout", "Aborted":
			if res.outcome == "Error" {
				l.AddSideFailure(arm, run, name, "error")
			}
			l.AddTrial(arm, run, name, false)
		}
	}
	if len(results) == 0 {
		warnf(l, "run %s: the TRX file has no test results", run)
	}
	return nil
}
