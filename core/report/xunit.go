package report

import (
	"encoding/xml"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readXUnit reads xUnit.net's XML (v2 and later: <assemblies> of
// <assembly> of <collection>; v1: <assembly> of <class>) as one run. Each
// <test> with result Pass or Fail is a trial; Skip and NotRun are not. A
// test's name is its name attribute, prefixed with its type when the name
// does not start with it (a DisplayName). Environmental errors (a fixture's
// cleanup failing, under <errors>) are outside any test: a warning.
func readXUnit(x *xmlStream, arm, run string, l *ledger.Ledger) error {
	tests, envErrors := 0, 0
	err := x.walkStarts(xmlKind{name: "an xUnit.net report", roots: []string{"assemblies", "assembly"}}, func(t xml.StartElement) error {
		switch t.Name.Local {
		case "error":
			envErrors++
		case "test":
			line, col := x.pos()
			name, typ := attr(t, "name"), attr(t, "type")
			if name == "" {
				return core.PosErrorf(core.Invalid, line, col, "a <test> without a name")
			}
			if typ != "" && name != typ && !strings.HasPrefix(name, typ+".") {
				name = typ + "." + name
			}
			tests++
			switch attr(t, "result") {
			case "Pass":
				l.AddTrial(arm, run, name, true)
			case "Fail":
				l.AddTrial(arm, run, name, false)
			}
			return x.skip()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if tests == 0 {
		warnf(l, "run %s: the xUnit.net report has no tests", run)
	}
	if envErrors > 0 {
		warnf(l, "run %s: %s outside any test (a fixture's or collection's cleanup), not counted", run, core.Nouns(envErrors, "error"))
	}
	return nil
}
