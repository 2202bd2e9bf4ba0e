package page

import (
	"strconv"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderLedgerAnswer is the answer when files (or a link's ledger) are
// judged: the reports' own verdict leads, as `flakegate ledger` answers,
// and the counts above are not judged.
func (c *Decide) renderLedgerAnswer() app.UI {
	l := c.ledger
	kind := "good"
	if l.Blocks {
		kind = "bad"
	}
	terms := []words.Term{}
	seen := map[string]bool{}
	for _, t := range l.Tests {
		if !seen[t.Verdict] {
			seen[t.Verdict] = true
			terms = append(terms, words.VerdictTerm(t.Verdict))
		}
		if !seen[t.Gate] {
			seen[t.Gate] = true
			terms = append(terms, words.GateTerm(t.Gate))
		}
	}
	terms = append(terms, words.TermWilson)
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		answerBox("answer", kind, words.LedgerAnswer(l), []string{
			"Judged: every test of the files below, with the settings above; the pass counts are not used while files are loaded."}),
		termList(terms),
	)
}

func (c *Decide) renderLedger() app.UI {
	read := func(arm string) func(ctx app.Context, files []dropped) {
		return func(ctx app.Context, files []dropped) {
			readFiles(ctx, files, func(err error) { c.bookErr, c.ledgerErr = err, err },
				func(ctx app.Context, got []droppedFile) { c.AddFiles(ctx, arm, got) })
		}
	}
	return app.Section().Class("ledger").Aria("label", "Every test").Body(
		app.H2().Text("Every test of a ledger or of test reports"),
		app.P().Text("Drop the test reports of the runs before the patch and of the runs after it, several files each if you like: "+
			"JUnit XML, go test -json, TRX, NUnit, xUnit.net, TAP, Jest, Mocha, Playwright, CTRF, RSpec or eval logs, each file one run. "+
			"A flakegate ledger (JSONL with arm, run, nodeid, when, outcome) holds both arms. "+
			"Every test gets its verdict with the settings above. Nothing leaves this page."),
		app.Div().Class("inputs").Body(
			dropFiles("ledger", "Baseline: reports or a ledger", reportTypes, true, read(ledger.ArmBaseline)),
			dropFiles("patched-reports", "Patched: reports", reportTypes, true, read(ledger.ArmPatched)),
		),
		app.If(len(c.files) > 0, func() app.UI {
			return fileList("ledger-files", c.files, true)
		}).ElseIf(c.book != nil, func() app.UI {
			return app.P().Class("loaded").ID("ledger-files").Text("The ledger from the link.")
		}),
		app.If(c.book != nil || len(c.files) > 0, func() app.UI {
			return app.Button().Type("button").ID("clear-ledger").Class("secondary").Text("Clear the files").OnClick(func(ctx app.Context, e app.Event) { c.ClearLedger(ctx) })
		}),
		app.If(c.ledgerErr != nil, func() app.UI {
			return app.P().Class("error").Role("alert").DataSet("error", "ledger").Text(errString(c.ledgerErr))
		}),
		app.If(c.bookLong > 0, func() app.UI {
			return app.P().Class("notice").Role("status").ID("ledger-no-link").Text(words.LedgerTooLong(c.bookLong))
		}),
		app.If(c.ledgerWaits(), func() app.UI {
			return app.P().Class("hint").Role("status").ID("ledger-waits").Text("The tests are tabulated again once the settings above are valid.")
		}),
		app.If(c.ledger != nil, func() app.UI { return renderLedgerTable(c.ledger) }),
	)
}

// reportTypes are the file types a picker of test reports offers.
const reportTypes = ".xml,.json,.jsonl,.txt,.trx,.tap,.eval,.csv"

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// ledgerColumns head the per-test table; on a phone each cell is a line
// of a card.
var ledgerColumns = []string{"Test", "Verdict", "Gate", "Baseline", "Patched", "Setup / teardown failures", "Notes"}

func renderLedgerTable(l *ledger.Result) app.UI {
	cell := cardCells(ledgerColumns)
	return app.Div().DataSet("scope", "ledger").Body(
		hidden().Body(fieldBool("blocks", l.Blocks, "some test blocks", "no test blocks")),
		app.P().Body(
			app.Span().DataSet("scope", "runs").Body(
				fieldInt("baseline", int64(l.Runs.Baseline)), app.Text(" baseline "+plural(int64(l.Runs.Baseline), "run")+", "),
				fieldInt("patched", int64(l.Runs.Patched)), app.Text(" patched "+plural(int64(l.Runs.Patched), "run")+"; "),
			),
			app.Text("at least "), fieldInt("min_trials", l.MinTrials), app.Text(" "+plural(l.MinTrials, "trial")+" per arm, "),
			fieldNum("confidence", l.Confidence, words.Level(l.Confidence)), app.Text(" intervals, property check "),
			fieldStrText("property", l.Property, propertyWords(l.Property)), app.Text("."),
		),
		app.Div().Class("table-wrap").Body(app.Table().Class("cards").Body(
			app.Caption().Text("Every test"),
			app.THead().Body(app.Tr().Body(app.Range(ledgerColumns).Slice(func(i int) app.UI { return th(ledgerColumns[i]) }))),
			app.TBody().Body(app.Range(l.Tests).Slice(func(i int) app.UI {
				t := l.Tests[i]
				sf := t.SideFailures
				return app.Tr().DataSet("scope", "tests."+strconv.Itoa(i)).Body(
					cell(0, "id", fieldStr("nodeid", t.NodeID)),
					cell(1, "", fieldStrText("verdict", t.Verdict, words.VerdictWords(t.Verdict))),
					cell(2, "", fieldStrText("gate", t.Gate, words.GateWords(t.Gate)), hidden().Body(
						fieldBool("blocks", t.Blocks, "blocks", "passes"), fieldStr("action", t.Action))),
					ledgerArm(3, "baseline", t.Baseline),
					ledgerArm(4, "patched", t.Patched),
					cell(5, "",
						fieldInt("setup_failures", t.SetupFailures), app.Text(" / "), fieldInt("teardown_failures", t.TeardownFailures),
						hidden().DataSet("scope", "side_failures").Body(
							sides("baseline", sf.Baseline), sides("patched", sf.Patched)),
					),
					cell(6, "notes", warnings(t.Warnings)),
				)
			})),
		)),
		warnings(l.Warnings),
	)
}

func sides(arm string, s ledger.SideFailures) app.UI {
	return app.Span().DataSet("scope", arm).Body(
		app.Text(arm+": setup "), fieldInt("setup", s.Setup), app.Text(", teardown "), fieldInt("teardown", s.Teardown),
		app.Text(", errors "), fieldInt("errors", s.Errors), app.Text(". "),
	)
}

func ledgerArm(col int, name string, a gate.Arm) app.UI {
	return app.Td().DataSet("scope", name).DataSet("label", ledgerColumns[col]).Body(
		fieldInt("passed", a.Passed), app.Text("/"), fieldInt("trials", a.Trials), app.Text(" · "),
		fieldOptNum("rate", a.Rate, words.Percent), app.Text(" ["), fieldNum("lower", a.Lower, words.Percent(a.Lower)), app.Text(", "),
		fieldNum("upper", a.Upper, words.Percent(a.Upper)), app.Text("]"),
	)
}

// countNotJudged is a count's input while files are judged: disabled,
// empty, and saying why, so that no count nobody typed looks judged.
func countNotJudged(f field) app.UI {
	id := "in-" + f.Key
	return app.Div().Class("field", "not-judged").Body(
		app.Label().For(id).Text(f.Label),
		app.Input().ID(id).Name(f.Key).Type("text").Value("").Disabled(true).
			Placeholder("not used: the files are judged").Aria("describedby", "hint-"+f.Key),
		app.Small().ID("hint-"+f.Key).Class("hint").Text("The test reports below are judged; clear the files to compare counts."),
	)
}
