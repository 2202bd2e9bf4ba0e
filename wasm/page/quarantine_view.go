package page

import (
	"strconv"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func (c *Quarantine) Render() app.UI {
	c.opening(c.open)
	return c.shell("/quarantine", "Quarantine on evidence",
		"When has a quarantined flaky test proven it may leave? Not after a timer or a fixed streak: once its runs since the quarantine started, failures included, prove its failure rate below a target, however often it is checked.",
		examples(quarantineExamples, c.Open),
		c.inputs("quarantine-form", quarantineFields, c.err, nil, c.SetField, nil),
		c.renderInputs(),
		formError(c.err, quarantineFields),
		app.If(c.res != nil || c.rule != nil, func() app.UI { return c.renderAnswer() }),
		app.If(c.res != nil, func() app.UI { return renderCheck(c.res) }),
		app.If(c.rule != nil, func() app.UI { return c.renderRule() }),
		app.If(c.res != nil || c.rule != nil, func() app.UI { return c.shareSection(c.markdown) }),
	)
}

// renderInputs is the registry's and the reports' drop zones, what was
// read, and why a file was not.
func (c *Quarantine) renderInputs() app.UI {
	read := func(ctx app.Context, files []dropped, done func(ctx app.Context, got []droppedFile)) {
		readFiles(ctx, files, func(err error) { c.reportErr = err }, done)
	}
	return app.Section().Class("registry").Aria("label", "Registry and reports").Body(
		app.H2().Text("A registry of quarantined tests, and the night's reports"),
		app.P().Text("Drop the registry file (quarantine.json, as flakegate quarantine add writes it) and the test reports of the night's runs "+
			"(JUnit XML, go test -json, TRX, NUnit, xUnit.net, TAP, Jest, Mocha, Playwright, CTRF, RSpec or eval logs, each file one run): "+
			"every test is checked on the date above as flakegate quarantine check checks it: still flaky, stale, released, expired or missing. Nothing leaves this page."),
		app.Div().Class("inputs").Body(
			dropZone("registry", "Registry file (JSON)", ".json,application/json", func(ctx app.Context, name string, blob app.Value) {
				read(ctx, []dropped{{name: name, blob: blob}}, func(ctx app.Context, got []droppedFile) {
					c.SetRegistry(ctx, got[0].name, got[0].data)
				})
			}),
			dropFiles("reports", "The night's test reports", reportTypes, true, func(ctx app.Context, files []dropped) {
				read(ctx, files, c.AddReports)
			}),
		),
		app.If(c.state != nil && c.state.Reports == nil && len(c.reports) == 0, func() app.UI {
			return app.P().Class("hint").ID("no-reports").Text("No reports yet: the registry is checked against its own evidence, so nothing new is counted and no test can be missing.")
		}),
		app.If(len(c.reports) > 0, func() app.UI {
			return fileList("report-files", c.reports, false)
		}).ElseIf(c.state != nil && c.state.Reports != nil, func() app.UI {
			return app.P().Class("loaded").ID("report-files").Text("The reports from the link: " + words.Nouns(c.state.Reports.Runs, "run") + ".")
		}),
		app.If(len(c.reports) > 0 || (c.state != nil && c.state.Reports != nil), func() app.UI {
			return app.Button().Type("button").ID("clear-reports").Class("secondary").Text("Clear the reports").OnClick(func(ctx app.Context, e app.Event) { c.ClearReports(ctx) })
		}),
		app.If(c.reportErr != nil, func() app.UI {
			return app.P().Class("error").Role("alert").DataSet("error", "reports").Text(errString(c.reportErr))
		}),
		app.If(c.resErr != nil, func() app.UI {
			return app.P().Class("error").Role("alert").DataSet("error", "registry").Text(errString(c.resErr))
		}),
		app.If(c.stateLong > 0, func() app.UI {
			return app.P().Class("notice").Role("status").ID("registry-no-link").Text(words.RegistryTooLong(c.stateLong))
		}),
	)
}

// renderAnswer is the answer first: the registry's check when there is
// one, else the release rule, in the sentence the Markdown opens with.
func (c *Quarantine) renderAnswer() app.UI {
	if r := c.res; r != nil {
		kind := "good"
		if r.Blocks {
			kind = "bad"
		}
		checked := "Checked " + r.Today + " against " + words.Nouns(r.Runs, "run") + " of new reports."
		if !r.Reports {
			checked = "Checked " + r.Today + " against the registry's own evidence: no new reports."
		}
		more := []string{checked}
		if t := words.QuarantineTally(r); t != "" {
			more = append(more, t)
		}
		return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
			answerBox("answer", kind, words.QuarantineAnswer(r), more),
		)
	}
	r := c.rule
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		answerBox("answer", "note", words.CleanRunsSentence(r), nil),
	)
}

func (c *Quarantine) renderRule() app.UI {
	r := c.rule
	body := []app.UI{
		app.H2().Text("The release rule"),
		app.P().Class("hint").Text("A clean run is a run the test passed. Every run since the quarantine started counts, failures included, and the count never restarts: a test that still fails at rate p or more is released at most 1 − c of the time, however often the registry is checked. At one look from one fixed start, m clean runs in a row prove a failure rate below p at confidence c when (1 − p)^m ≤ 1 − c."),
	}
	figures := []app.UI{
		fieldInt("clean_runs_checked", r.CleanRunsChecked), app.Text(" clean runs from the start of a quarantine release a test below "),
		fieldNum("below", r.Below, words.Level(r.Below)), app.Text(" at "),
		fieldNum("confidence", r.Confidence, words.Level(r.Confidence)), app.Text(" confidence, checked after every run ("),
		fieldInt("clean_runs", r.CleanRuns), app.Text(" in a row at one look)."),
	}
	if c.res == nil {
		// The answer above says it: the figures stay for the page's
		// readers, not said twice.
		body = append(body, hidden().Body(figures...))
	} else {
		body = append(body, app.P().Class("summary").Body(figures...))
	}
	body = append(body, warnings(r.Warnings))
	return app.Section().Class("rule").Aria("label", "Clean runs").DataSet("scope", "rule").Body(body...)
}

func hiddenFields(ui ...app.UI) app.UI { return hidden().Body(ui...) }

func renderCheck(r *quarantine.Result) app.UI {
	st := r.States
	return app.Div().DataSet("scope", "check").ID("check").Body(
		// The answer above says these in words.
		hiddenFields(fieldBool("blocks", r.Blocks, "blocks", "passes"), fieldStr("today", r.Today),
			fieldBool("reports", r.Reports, "with reports", "without reports"), fieldInt("runs", int64(r.Runs))),
		app.P().DataSet("scope", "states").Body(
			fieldInt("still_flaky", int64(st.StillFlaky)), app.Text(" still flaky, "),
			fieldInt("stale", int64(st.Stale)), app.Text(" stale, "),
			fieldInt("released", int64(st.Released)), app.Text(" released, "),
			fieldInt("expired", int64(st.Expired)), app.Text(" expired, "),
			fieldInt("missing", int64(st.Missing)), app.Text(" missing. Expired and missing tests block, and stale ones unless the test got better."),
		),
		app.Div().Class("table-wrap").Body(app.Table().Class("cards").Body(
			app.Caption().Text("Every quarantined test"),
			app.THead().Body(app.Tr().Body(app.Range(checkColumns).Slice(func(i int) app.UI { return th(checkColumns[i]) }))),
			app.TBody().Body(app.Range(r.Tests).Slice(func(i int) app.UI {
				return checkRow(i, r.Tests[i])
			})),
		)),
		app.Ul().Class("states").Body(app.Range(r.Tests).Slice(func(i int) app.UI {
			t := r.Tests[i]
			if t.State == quarantine.StateStillFlaky {
				return nil
			}
			return app.Li().Text(t.Test + ": " + words.QuarantineSentence(t) + ".")
		})),
		warnings(r.Warnings),
	)
}

// checkColumns head the registry's table; on a phone each row is a card,
// each cell labelled with its column.
var checkColumns = []string{"Test", "State", "Owner", "Claim", "Since the claim", "Clean runs", "Reruns (lane)", "Expires"}

func checkRow(i int, t quarantine.TestResult) app.UI {
	c, rel, b := t.Claim, t.Release, t.Budget
	return app.Tr().DataSet("scope", "tests."+strconv.Itoa(i)).Body(
		app.Td().DataSet("label", checkColumns[0]).Class("id").Body(fieldStr("test", t.Test),
			app.If(t.RenamedFrom != "", func() app.UI { return app.Small().Text(" (was " + t.RenamedFrom + ")") }),
			hiddenFields(fieldStr("renamed_from", t.RenamedFrom))),
		app.Td().DataSet("label", checkColumns[1]).Body(fieldStrText("state", t.State, words.TestStateWords(t)),
			hiddenFields(fieldBool("blocks", t.Blocks, "blocks", "does not block"), fieldBool("improving", t.Improving, "improving", "not improving"))),
		app.Td().DataSet("label", checkColumns[2]).Body(fieldStr("owner", t.Owner), app.Br(), app.Small().Body(fieldStr("reason", t.Reason))),
		app.Td().DataSet("label", checkColumns[3]).DataSet("scope", "claim").Body(
			fieldInt("passed", c.Passed), app.Text("/"), fieldInt("trials", c.Trials), app.Text(" · "),
			fieldNum("rate", c.Rate, words.Percent(c.Rate)), app.Text(" ["), fieldNum("lower", c.Lower, words.Percent(c.Lower)),
			app.Text(", "), fieldNum("upper", c.Upper, words.Percent(c.Upper)), app.Text("] on "), fieldStr("date", c.Date),
			hiddenFields(fieldNum("confidence", c.Confidence, words.Level(c.Confidence)))),
		app.Td().DataSet("label", checkColumns[4]).Body(
			checkArm("since", t.Since),
			app.If(t.Reported != nil, func() app.UI {
				return app.Small().Body(app.Br(), app.Text("new: "), checkArm("reported", *t.Reported))
			}).Else(func() app.UI { return hiddenFields(fieldNull("reported")) }),
			hiddenFields(fieldInt("runs", int64(t.Runs)), fieldBool("comparable", t.Comparable, "comparable", "too few to judge"))),
		app.Td().DataSet("label", checkColumns[5]).DataSet("scope", "release").Body(
			fieldInt("clean_runs_remaining", rel.Remaining), app.Text(" of "), fieldInt("clean_runs_needed", rel.Needed), app.Text(" to go"),
			app.Br(), app.Small().Body(app.Text("below "), fieldNum("below", rel.Below, words.Level(rel.Below)), app.Text(" at "),
				fieldNum("confidence", rel.Confidence, words.Level(rel.Confidence)), app.Text("; "),
				fieldInt("runs", rel.Runs), app.Text(" runs counted, "), fieldInt("failed", rel.Failed), app.Text(" with a failure")),
			hiddenFields(fieldInt("clean_runs", rel.Clean), fieldBool("proven", rel.Proven, "proven", "not yet"))),
		app.Td().DataSet("label", checkColumns[6]).DataSet("scope", "budget").Body(
			fieldOptInt("reruns", b.Reruns), app.Text(" ("), fieldStrText("lane", b.Lane, words.LaneWords(b.Lane)), app.Text(")"),
			hiddenFields(fieldNum("rate", b.Rate, words.Rate(b.Rate)), fieldStr("source", b.Source),
				fieldBool("reruns_overflow", b.RerunsOverflow, "beyond int64", "fits"),
				fieldOptNum("power", b.Power, words.Percent), fieldOptNum("power_one_short", b.PowerOneShort, words.Percent),
				fieldOptNum("gain", b.Gain, words.Percent), fieldNum("power_at_cap", b.PowerAtCap, words.Percent(b.PowerAtCap)),
				fieldOptNum("seconds", b.Seconds, words.Duration), fieldStr("action", b.Action),
				fieldBool("over_cap", b.OverCap, "over the cap", "within the cap"))),
		app.Td().DataSet("label", checkColumns[7]).Body(fieldStr("expires", t.Expires), app.Br(), app.Small().Body(daysLeft(t.DaysLeft)),
			hiddenFields(fieldStr("opened", t.Opened))),
	)
}

// checkArm renders passes of trials, the rate and its interval, under
// scope name.
func checkArm(name string, a gate.Arm) app.UI {
	return app.Span().DataSet("scope", name).Body(
		fieldInt("passed", a.Passed), app.Text("/"), fieldInt("trials", a.Trials), app.Text(" · "),
		fieldOptNum("rate", a.Rate, words.Percent), app.Text(" ["), fieldNum("lower", a.Lower, words.Percent(a.Lower)),
		app.Text(", "), fieldNum("upper", a.Upper, words.Percent(a.Upper)), app.Text("]"),
	)
}

// daysLeft renders the days to an expiry date in words: "12 days left",
// "last day", "expired 3 days ago".
func daysLeft(n int64) app.UI {
	v := strconv.FormatInt(n, 10)
	switch {
	case n < 0:
		return app.Data().DataSet("field", "days_left").Attr("value", v).Text("expired " + words.Nouns(-n, "day") + " ago")
	case n == 0:
		return app.Data().DataSet("field", "days_left").Attr("value", v).Text("last day")
	}
	return app.Data().DataSet("field", "days_left").Attr("value", v).Text(words.Nouns(n, "day") + " left")
}
