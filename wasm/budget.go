package wasm

import (
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var budgetFields = []field{
	{Key: "target", Label: "Target detection power", Default: "0.95", Hint: "a fraction in (0,1) or a percentage, e.g. 0.95 or 95%"},
	{Key: "cost", Label: "Runner seconds per run", Default: "", Hint: "optional; gives the runner time of each budget", Mode: "decimal"},
	{Key: "cap", Label: "Rerun cap of the gate", Default: "3", Hint: "reruns the merge gate allows today", Mode: "numeric"},
	{Key: "rates", Label: "Per-run failure rates", Default: "0.05,0.02,0.01", Hint: "comma-separated fractions, e.g. 0.05,0.02"},
	{Key: "observe", Label: "Observed failures / runs", Default: "", Hint: "optional history such as 1/120; planned at its Wilson upper bound"},
	{Key: "confidence", Label: "Confidence of the observed interval", Default: "0.95", Hint: "in (0,1)", Mode: "decimal"},
}

// BudgetInputFrom turns the text of the budget form into a core input. Its
// error is a FieldErrors with a *core.Error for each field it cannot read,
// naming the form field; those fields keep their zero value in the input.
func BudgetInputFrom(s map[string]string) (gate.BudgetInput, error) {
	in := gate.DefaultBudgetInput
	var errs FieldErrors
	var err error
	in.Target, err = parseFraction("target", s["target"])
	errs.add(err)
	in.CostSeconds, err = parseOptSeconds("cost", s["cost"])
	errs.add(err)
	in.Cap, err = parseInt("cap", s["cap"])
	errs.add(err)
	in.Confidence, err = parseFraction("confidence", s["confidence"])
	errs.add(err)
	in.Rates = nil
	if t := s["rates"]; !blank(t) {
		in.Rates, err = core.ParseRates("rates", t)
		errs.add(err)
	}
	if t := s["observe"]; !blank(t) {
		c, err := core.ParseCount("observe", t)
		errs.add(err)
		if err == nil {
			in.Observed = &c
		}
	}
	return in, errs.orNil()
}

// budgetFrom computes the budget the form's text asks for. When the text is
// invalid there is no result, and the error is a FieldErrors with every
// invalid field's fault: what BudgetInputFrom cannot read and, for the
// other fields, what the input's own check refuses (gate's Problems).
func budgetFrom(s map[string]string) (*gate.BudgetResult, error) {
	in, err := BudgetInputFrom(s)
	errs := FieldErrors(errorList(err))
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
		return nil, FieldErrors{err}
	}
	return res, nil
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
	perfMark("nav")
	defer perfMark("nav-done")
	if c.load(budgetFields, fragmentOf(ctx.Page().URL())) {
		c.compute()
	}
	ctx.Page().SetTitle("Rerun budget · flakegate")
}

// SetField sets one input as if typed, recomputes and rewrites the URL.
func (c *Budget) SetField(ctx app.Context, key, value string) {
	frag := c.set(budgetFields, key, value)
	c.compute()
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
	perfMark("render")
	if c.st == nil {
		c.open(openingFragment())
	}
	return c.shell("/", "Rerun budget",
		"How many reruns does a flaky test need before a retry shows its failure, what does that cost, and which lane of the merge gate does it belong in?",
		app.Form().Class("calc").ID("budget-form").OnSubmit(preventSubmit).Body(
			app.Range(budgetFields).Slice(func(i int) app.UI {
				f := budgetFields[i]
				return fieldInput(f, c.st[f.Key], fieldError(c.err, f.Key), func(ctx app.Context, e app.Event) {
					c.SetField(ctx, f.Key, ctx.JSSrc().Get("value").String())
				})
			}),
		),
		formError(c.err, budgetFields),
		app.If(c.res != nil, func() app.UI { return c.renderResult() }),
	)
}

func (c *Budget) renderResult() app.UI {
	r := c.res
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		app.P().Class("summary").Body(
			app.Text("Planning for "), fieldNum("target", r.Target, words.Level(r.Target)),
			app.Text(" detection power with a cap of "), fieldInt("cap", r.Cap),
			app.Text(" reruns; "), fieldOptNum("cost_seconds", r.CostSeconds, words.Duration),
			app.If(r.CostSeconds == nil, func() app.UI { return app.Text(" (cost per run not given)") }).Else(func() app.UI { return app.Text(" per run") }),
			app.Text("; observed interval at "), fieldNum("confidence", r.Confidence, words.Level(r.Confidence)),
			app.Text(" confidence."),
		),
		app.If(r.Observed != nil, func() app.UI {
			o := r.Observed
			return app.P().Class("observed").DataSet("scope", "observed").Body(
				app.Text("Observed "), fieldInt("fails", o.Fails), app.Text(" failures in "), fieldInt("runs", o.Runs),
				app.Text(" runs: rate "), fieldNum("rate", o.Rate, words.Rate(o.Rate)),
				app.Text(", Wilson interval ["), fieldNum("lower", o.Lower, words.Rate(o.Lower)), app.Text(", "),
				fieldNum("upper", o.Upper, words.Rate(o.Upper)), app.Text("]. The plan uses the upper bound."),
			)
		}).Else(func() app.UI {
			return app.P().Class("hidden-field").Body(fieldNull("observed"), app.Text(" no observed history"))
		}),
		app.If(r.Blocks(), func() app.UI {
			return app.P().Class("verdict bad").Text("At least one rate needs more reruns than the cap: the gate cannot see that flake.")
		}).Else(func() app.UI {
			return app.P().Class("verdict good").Text("Every rate is caught within the cap.")
		}),
		app.Div().Class("table-wrap").Body(app.Table().Body(
			app.Caption().Text("Reruns for each failure rate"),
			app.THead().Body(app.Tr().Body(
				th("Failure rate"), th("Reruns k"), th("Power at k"), th("Power at k−1"), th("Gain of the last rerun"),
				th("Power at the cap"), th("Runner time"), th("Lane"), th("Action"),
			)),
			app.TBody().Body(app.Range(r.Rows).Slice(func(i int) app.UI {
				row := r.Rows[i]
				src := "given"
				if row.Source == "observed_upper" {
					src = "observed upper bound"
				}
				return app.Tr().DataSet("scope", "rows."+strconv.Itoa(i)).Body(
					app.Td().Body(fieldNum("rate", row.Rate, words.Rate(row.Rate)), app.Br(), app.Small().Body(fieldStrText("source", row.Source, src))),
					app.Td().Body(fieldOptInt("reruns", row.Reruns),
						app.If(row.OverCap, func() app.UI { return app.Small().Class("bad").Text(" over cap") }),
						app.Span().Class("hidden-field").Body(fieldBool("over_cap", row.OverCap, "over the cap", "within the cap")),
						app.If(row.RerunsOverflow, func() app.UI { return app.Small().Text(" beyond int64") }),
						app.Span().Class("hidden-field").Body(fieldBool("reruns_overflow", row.RerunsOverflow, "beyond int64", "fits"))),
					app.Td().Body(fieldOptNum("power", row.Power, words.Percent)),
					app.Td().Body(fieldOptNum("power_one_short", row.PowerOneShort, words.Percent)),
					app.Td().Body(fieldOptNum("gain", row.Gain, words.Percent)),
					app.Td().Body(fieldNum("power_at_cap", row.PowerAtCap, words.Percent(row.PowerAtCap))),
					app.Td().Body(fieldOptNum("seconds", row.Seconds, words.Duration)),
					app.Td().Body(fieldStr("lane", row.Lane)),
					app.Td().Class("action").Body(fieldStr("action", row.Action)),
				)
			})),
		)),
		app.Figure().Body(
			app.Raw(PowerPlot(r)),
			app.FigCaption().Text("Detection power 1−(1−p)^k against reruns k for each rate; the dashed line is the target, the dots are each row's k."),
		),
		warnings(r.Warnings),
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
