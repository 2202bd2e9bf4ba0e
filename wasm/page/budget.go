package page

import (
	"strconv"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// budgetFields are the budget form's fields: the schema's inputs
// (param.Budget), in its order and starting from its text, with the page's
// labels and hints.
var budgetFields = formFields(param.Budget.Fields, param.Budget.Starts(), map[string]field{
	"target":     {Label: "Target detection power", Hint: "a fraction in (0,1) or a percentage, e.g. 0.95 or 95%"},
	"cost":       {Label: "Runner seconds per run", Hint: "optional; seconds or a duration such as 8s or 1m30s; gives the runner time of each budget", Mode: "decimal"},
	"cap":        {Label: "Rerun cap of the gate", Hint: "reruns the merge gate allows today", Mode: "numeric"},
	"rates":      {Label: "Per-run failure rates", Hint: "fractions or percentages, separated by spaces or commas: 0.05 0.02 or 5%, 2%"},
	"observe":    {Label: "Observed failures / runs", Hint: "optional history such as 1/120; planned at the upper end of its interval"},
	"confidence": {Label: "Confidence of the observed interval", Hint: "a fraction in (0,1) or a percentage, e.g. 95%"},
	"runner":     {Label: "Test runner", Hint: "optional: the answer is then written in its own retry setting"},
	"setting":    {Label: "Its retry setting today", Hint: "optional: the number your runner is given now, counted as it counts; it sets the cap", Mode: "numeric"},
})

// runnerChoices are the runner select's options: none, then gate.Runners.
func runnerChoices() []choice {
	out := []choice{{"", "none: count reruns"}}
	for _, r := range gate.Runners {
		out = append(out, choice{r.Name, words.RunnerLabel(r)})
	}
	return out
}

// BudgetInputFrom turns the text of the budget form into a core input. Its
// error is a param.Errors with a *core.Error for each field it cannot read,
// naming the form field; those fields keep their default in the input.
func BudgetInputFrom(s map[string]string) (gate.BudgetInput, error) {
	in, err := param.Budget.Parse(s)
	return in, errorList(err).Err()
}

// budgetFrom computes the budget the form's text asks for. When the text is
// invalid there is no result, and the error is a param.Errors with every
// invalid field's fault: what BudgetInputFrom cannot read and, for the
// other fields, what the input's own check refuses (gate's Problems).
func budgetFrom(s map[string]string) (*gate.BudgetResult, error) {
	in, err := BudgetInputFrom(s)
	errs := errorList(err)
	for _, p := range in.Problems() {
		if errs.For(errField(p)) == nil {
			errs = append(errs, p)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	res, err := gate.Budget(in)
	if err != nil {
		return nil, param.Errors{err}
	}
	return res, nil
}

// budgetExamples are the articles' cases, one click each; the link then
// holds them like any typed input.
var budgetExamples = []example{
	{"1 failure in 120 runs, 8 s a run", formExample(budgetFields, map[string]string{"observe": "1/120", "cost": "8", "rates": ""})},
	{"A 2% flake, 3 reruns, 8 s a run", formExample(budgetFields, map[string]string{"rates": "2%", "cost": "8"})},
}

// Budget is the rerun-budget calculator at "/".
type Budget struct {
	pageBase
	urlForm
	res *gate.BudgetResult
	err error
}

// OnNav reads the form from the URL fragment and computes.
func (c *Budget) OnNav(ctx app.Context) {
	c.nav(ctx, budgetFields, "Rerun budget · flakegate", c.open)
}

// SetField sets one input as if typed, recomputes and rewrites the URL.
func (c *Budget) SetField(ctx app.Context, key, value string) {
	frag := c.set(budgetFields, key, value)
	c.compute()
	keepInURL(ctx, frag)
}

// Open shows the view of a fragment (an example's) and writes it into the
// address bar, as following its link does.
func (c *Budget) Open(ctx app.Context, frag string) {
	c.open(frag)
	keepInURL(ctx, frag)
}

// open sets the form from a URL fragment and computes.
func (c *Budget) open(frag string) {
	c.load(budgetFields, frag)
	c.compute()
}

func (c *Budget) compute() {
	c.res, c.err = budgetFrom(c.st)
}

// Result is the current result (nil when the input is invalid).
func (c *Budget) Result() *gate.BudgetResult { return c.res }

func (c *Budget) Render() app.UI {
	c.opening(c.open)
	return c.shell("/", "Rerun budget",
		"How many reruns does a flaky test need before a retry shows its failure, what does that cost, and which lane of the merge gate does it belong in?",
		examples(budgetExamples, c.Open),
		c.inputs("budget-form", budgetFields, c.err, map[string][]choice{"runner": runnerChoices()}, c.SetField, nil),
		formError(c.err, budgetFields),
		app.If(c.res != nil, func() app.UI { return c.renderResult() }),
	)
}

// budgetTerms are the words of a budget's answer and table a reader may
// not know: detection power, the cap, each lane that appears, and the
// interval's upper end when an observed history is planned at it.
func budgetTerms(r *gate.BudgetResult) []words.Term {
	ts := []words.Term{words.TermPower, words.TermCap}
	seen := map[string]bool{}
	for _, row := range r.Rows {
		if !seen[row.Lane] {
			seen[row.Lane] = true
			ts = append(ts, words.LaneTerm(row.Lane))
		}
	}
	if r.Observed != nil {
		ts = append(ts, words.TermUpper)
	}
	return ts
}

// budgetColumns head the table; on a phone each cell is a line of a card,
// labelled with its column's heading.
var budgetColumns = []string{"Failure rate", "Lane", "Reruns needed", "Caught with them", "With one fewer",
	"The last rerun adds", "Caught at your cap", "Runner time", "What to do"}

func (c *Budget) renderResult() app.UI {
	r := c.res
	says := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		says[i] = capitalize(words.BudgetSentence(r, row)) + "."
	}
	verdict := "good"
	switch {
	case r.Blocks():
		verdict = "bad"
	case words.BudgetBeyondGate(r) > 0:
		verdict = "note" // passes, but a row's lane says not to trust a green run
	}
	cols := budgetColumns
	if r.Runner != nil {
		cols = append(cols[:len(cols):len(cols)], "Setting for "+words.Level(r.Target))
	}
	cell := cardCells(cols)
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		answerBox("answer", verdict, words.BudgetAnswer(r), says),
		termList(budgetTerms(r)),
		app.H2().Text("Reruns for each failure rate"),
		app.Div().Class("table-wrap").Body(app.Table().Class("cards").Body(
			app.Caption().Textf("Reruns that catch each flake %s of the time, and what they cost", words.Level(r.Target)),
			app.THead().Body(app.Tr().Body(app.Range(cols).Slice(func(i int) app.UI { return th(cols[i]) }))),
			app.TBody().Body(app.Range(r.Rows).Slice(func(i int) app.UI {
				row := r.Rows[i]
				src := "given"
				if row.Source == "observed_upper" {
					src = "upper end of the observed interval"
				}
				return app.Tr().DataSet("scope", "rows."+strconv.Itoa(i)).Body(
					cell(0, "rate", fieldNum("rate", row.Rate, words.Percent(row.Rate)), app.Text(" "), app.Small().Body(fieldStrText("source", row.Source, src))),
					cell(1, "lane", app.Strong().Body(fieldStrText("lane", row.Lane, words.LaneWords(row.Lane)))),
					cell(2, "", fieldOptInt("reruns", row.Reruns),
						app.If(row.OverCap, func() app.UI { return app.Small().Class("bad").Text(" over your cap") }),
						hidden().Body(fieldBool("over_cap", row.OverCap, "over the cap", "within the cap")),
						app.If(row.RerunsOverflow, func() app.UI { return app.Small().Text(" beyond int64") }),
						hidden().Body(fieldBool("reruns_overflow", row.RerunsOverflow, "beyond int64", "fits"))),
					cell(3, "", fieldOptNum("power", row.Power, words.Percent)),
					cell(4, "", fieldOptNum("power_one_short", row.PowerOneShort, words.Percent)),
					cell(5, "", fieldOptNum("gain", row.Gain, words.Percent)),
					cell(6, "", fieldNum("power_at_cap", row.PowerAtCap, words.Percent(row.PowerAtCap))),
					cell(7, "", fieldOptNum("seconds", row.Seconds, words.Duration)),
					cell(8, "action", fieldStr("action", row.Action)),
					app.If(row.Runner != nil, func() app.UI {
						rs := row.Runner
						return cell(9, "", app.Span().DataSet("scope", "runner").Body(
							fieldStrText("written", rs.Written, words.RowSettingCell(r, row)),
							hidden().Body(fieldInt("setting", rs.Setting), fieldBool("over_max", rs.OverMax, "over the most it takes", "within what it takes")),
						))
					}),
				)
			})),
		)),
		app.H2().Text("Detection power against reruns"),
		app.Figure().Body(
			app.Raw(PowerPlot(r)),
			app.FigCaption().Textf("The chance that k reruns catch each flake, 1 − (1 − p)^k. The dashed line is your target of %s; the dots are the reruns each rate needs.", words.Level(r.Target)),
		),
		app.H2().Text("Details"),
		app.P().Class("summary").Body(
			app.Text("Planning for "), fieldNum("target", r.Target, words.Level(r.Target)),
			app.Text(" detection power with a cap of "), fieldInt("cap", r.Cap),
			app.Text(" "+plural(r.Cap, "rerun")+"; "), fieldOptNum("cost_seconds", r.CostSeconds, words.Duration),
			app.If(r.CostSeconds == nil, func() app.UI { return app.Text(" (no runner time per run given)") }).Else(func() app.UI { return app.Text(" per run") }),
			app.Text("; observed interval at "), fieldNum("confidence", r.Confidence, words.Level(r.Confidence)),
			app.Text(" confidence."),
		),
		app.If(r.Runner != nil, func() app.UI {
			rs := r.Runner
			return app.P().Class("runner").DataSet("scope", "runner").Body(
				app.Text("Your runner: "), fieldStrText("name", rs.Name, runnerTool(rs.Name)), app.Text(", today "),
				fieldStrText("written", rs.Written, rs.Written), app.Text(" ("), fieldInt("setting", rs.Setting), app.Text(" "),
				fieldStrText("counts", rs.Counts, rs.Counts), app.Text("; "),
				fieldBool("on_failure", rs.OnFailure, "it reruns only after a failure", "it runs every time"),
				app.If(rs.Max != nil, func() app.UI {
					return app.Span().Body(app.Text("; it takes at most "), fieldOptInt("max", rs.Max))
				}).Else(func() app.UI {
					return hidden().Body(fieldNull("max"))
				}),
				app.Text(")."),
			)
		}),
		app.If(r.Observed != nil, func() app.UI {
			o := r.Observed
			return app.P().Class("observed").DataSet("scope", "observed").Body(
				app.Text("Observed "), fieldInt("fails", o.Fails), app.Text(" "+plural(o.Fails, "failure")+" in "), fieldInt("runs", o.Runs),
				app.Text(" "+plural(o.Runs, "run")+": rate "), fieldNum("rate", o.Rate, words.Percent(o.Rate)),
				app.Text(", Wilson interval "), fieldNum("lower", o.Lower, words.Percent(o.Lower)), app.Text(" to "),
				fieldNum("upper", o.Upper, words.Percent(o.Upper)), app.Text(". The plan uses the upper end."),
			)
		}).Else(func() app.UI {
			return app.P().Class("hidden-field").Aria("hidden", "true").Body(fieldNull("observed"), app.Text(" no observed history"))
		}),
		warnings(r.Warnings),
		app.H2().Text("Share"),
		c.copyButtons(func(link string) string { return words.BudgetMarkdown(r, words.Link{URL: link}) }),
		app.Details().Body(app.Summary().Text("Markdown"), app.Pre().ID("markdown").Text(words.BudgetMarkdown(r, words.Link{}))),
	)
}

func th(s string) app.UI { return app.Th().Scope("col").Text(s) }

func blank(s string) bool {
	for _, c := range s {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

func preventSubmit(ctx app.Context, e app.Event) { e.PreventDefault() }

// fieldError is the message of err's part that belongs to field key.
func fieldError(err error, key string) string {
	for _, e := range errorList(err) {
		if errField(e) == key {
			return errText(e)
		}
	}
	return ""
}

// formError shows the parts of err that name no field of the form.
func formError(err error, fields []field) app.UI {
	var loose []error
	for _, e := range errorList(err) {
		if !hasField(fields, errField(e)) {
			loose = append(loose, e)
		}
	}
	return app.Range(loose).Slice(func(i int) app.UI {
		return app.P().Class("error").Role("alert").DataSet("error", "form").Text(loose[i].Error())
	})
}

// hasField reports whether the form has a field key.
func hasField(fields []field, key string) bool {
	for _, f := range fields {
		if f.Key == key {
			return true
		}
	}
	return false
}

// runnerTool is a runner's tool in words ("Bazel"), or its name.
func runnerTool(name string) string {
	if r, ok := gate.LookupRunner(name); ok {
		return r.Tool + " " + r.Flag()
	}
	return name
}
