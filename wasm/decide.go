package wasm

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var decideFields = []field{
	{Key: "baseline", Label: "Baseline passed / trials", Default: "10/20", Hint: "before the patch, e.g. 10/20"},
	{Key: "patched", Label: "Patched passed / trials", Default: "17/20", Hint: "after the patch, e.g. 17/20"},
	{Key: "min_trials", Label: "Minimum trials per arm", Default: "20", Hint: "fewer trials in an arm give an underpowered verdict", Mode: "numeric"},
	{Key: "confidence", Label: "Confidence of both intervals", Default: "0.95", Hint: "in (0,1)", Mode: "decimal"},
	{Key: "property", Label: "Deterministic property check", Default: core.PropertyUnknown, Hint: "an improvement is accepted only once it passed"},
}

// DecideInputFrom turns the text of the decide form into a core input. Its
// error is a FieldErrors with a *core.Error for each field it cannot read,
// naming the form field; those fields keep their zero value in the input.
func DecideInputFrom(s map[string]string) (gate.DecideInput, error) {
	in := gate.DefaultDecideInput
	var errs FieldErrors
	var err error
	in.Baseline, err = core.ParseCount("baseline", s["baseline"])
	errs.add(err)
	in.Patched, err = core.ParseCount("patched", s["patched"])
	errs.add(err)
	in.MinTrials, err = parseInt("min_trials", s["min_trials"])
	errs.add(err)
	in.Confidence, err = parseFraction("confidence", s["confidence"])
	errs.add(err)
	in.Property = strings.TrimSpace(s["property"])
	return in, errs.orNil()
}

// decideFrom decides what the form's text asks. When the text is invalid
// there is no result, and the error is a FieldErrors with every invalid
// field's fault: what DecideInputFrom cannot read and what gate.Decide
// rejects.
func decideFrom(s map[string]string) (gate.DecideInput, *gate.DecideResult, error) {
	in, err := DecideInputFrom(s)
	res, errs := collect(FieldErrors(errorList(err)), func(bad FieldErrors) (*gate.DecideResult, error) {
		return gate.Decide(decideStandIns(in, bad))
	})
	if len(errs) > 0 {
		return in, nil, errs
	}
	return in, res, nil
}

// decideStandIns is in with a valid value in each field that bad names, so
// that gate.Decide goes on to check the others.
func decideStandIns(in gate.DecideInput, bad FieldErrors) gate.DecideInput {
	d := gate.DefaultDecideInput
	for _, err := range bad {
		switch errField(err) {
		case "baseline":
			in.Baseline = core.Count{}
		case "patched":
			in.Patched = core.Count{}
		case "min_trials":
			in.MinTrials = d.MinTrials
		case "confidence":
			in.Confidence = d.Confidence
		case "property":
			in.Property = d.Property
		}
	}
	return in
}

// SizeInputFrom is the sizing question a decision raises (gate.Sizing):
// the CLI's decide summary sizes the same way.
func SizeInputFrom(in gate.DecideInput) (gate.SizeInput, bool) { return gate.Sizing(in) }

// Decide is the two-arm verdict calculator at "/decide", with sizing and a
// ledger table.
type Decide struct {
	pageBase
	urlForm
	in   gate.DecideInput
	res  *gate.DecideResult
	size *gate.SizeResult
	err  error

	book      *ledger.Summary // the dropped ledger, read once; nil when none or unreadable
	bookErr   error           // why the dropped ledger (or the link's) could not be read
	bookShare string          // the summary as a fragment value; "" when none or too long
	bookLong  int             // bytes of the summary's fragment value when too long for a link
	ledger    *ledger.Result
	ledgerErr error
}

// withLedger adds the dropped ledger's summary to a form fragment: the
// link then reopens the ledger's table too. Keys stay sorted.
func (c *Decide) withLedger(frag string) string {
	if c.bookShare == "" {
		return frag
	}
	v, _ := url.ParseQuery(frag)
	v.Set("ledger", c.bookShare)
	return v.Encode()
}

// openLedger reads the ledger a fragment carries, if any; without one the
// view has no ledger, as the link says.
func (c *Decide) openLedger(frag string) {
	c.book, c.bookErr, c.bookShare, c.bookLong = nil, nil, "", 0
	v, _ := url.ParseQuery(frag)
	enc := v.Get("ledger")
	if enc == "" {
		return
	}
	if s, err := DecodeLedgerShare(enc); err != nil {
		c.bookErr = fmt.Errorf("this link's ledger could not be read: %w", err)
	} else {
		c.book, c.bookShare = s, enc
	}
}

func (c *Decide) OnNav(ctx app.Context) {
	perfMark("nav")
	defer perfMark("nav-done")
	if frag := fragmentOf(ctx.Page().URL()); c.load(decideFields, frag) {
		c.openLedger(frag)
		c.compute()
	}
	ctx.Page().SetTitle("Two-arm verdict · flakegate")
}

// SetField sets one input as if typed, recomputes and rewrites the URL.
func (c *Decide) SetField(ctx app.Context, key, value string) {
	c.frag = c.withLedger(c.set(decideFields, key, value))
	c.compute()
	keepInURL(ctx, c.frag)
}

// open sets the form and the ledger from a URL fragment and computes.
func (c *Decide) open(frag string) {
	c.load(decideFields, frag)
	c.openLedger(frag)
	c.compute()
}

func (c *Decide) compute() {
	c.size = nil
	in, res, err := decideFrom(c.st)
	c.res, c.err = res, err
	if err == nil {
		c.in = in
		if si, ok := SizeInputFrom(in); ok {
			c.size, _ = gate.Size(si)
		}
	}
	c.computeLedger()
}

// SetLedger reads a JSONL ledger, tabulates every test with the form's
// minimum trials, confidence and property check, and puts the ledger's
// summary into the link (unless it is too long for one).
func (c *Decide) SetLedger(ctx app.Context, name string, data []byte) {
	c.book, c.bookErr, c.bookShare, c.bookLong = nil, nil, "", 0
	l := ledger.New()
	if err := report.ReadLedger(bytes.NewReader(data), l); err != nil {
		c.bookErr = core.WithFile(err, name)
	} else {
		c.book = l.Summary()
		if enc, err := EncodeLedgerShare(c.book); err == nil {
			if len(enc)+len("ledger=") > MaxShareFragment {
				c.bookLong = len(enc)
			} else {
				c.bookShare = enc
			}
		}
	}
	c.computeLedger()
	if c.st == nil {
		c.st = newFormState(decideFields)
	}
	c.frag = c.withLedger(c.st.fragment(decideFields))
	keepInURL(ctx, c.frag)
}

// computeLedger tabulates the dropped ledger with the form's settings (on
// every keystroke: the file itself was read once, by SetLedger). While the
// form is invalid it shows no figures (ledgerWaits), never figures for
// other settings than those in the form.
func (c *Decide) computeLedger() {
	c.ledger, c.ledgerErr = nil, c.bookErr
	if c.book == nil || c.err != nil {
		return
	}
	opt := ledger.Options{MinTrials: c.in.MinTrials, Confidence: c.in.Confidence, Property: c.in.Property}
	c.ledger, c.ledgerErr = c.book.Result(opt)
}

// ledgerWaits reports whether a ledger that was read is waiting for the
// form to be valid.
func (c *Decide) ledgerWaits() bool {
	return c.book != nil && c.ledger == nil && c.ledgerErr == nil && c.err != nil
}

// Result is the current verdict (nil when the input is invalid).
func (c *Decide) Result() *gate.DecideResult { return c.res }

func (c *Decide) Render() app.UI {
	perfMark("render")
	if c.st == nil {
		c.open(openingFragment())
	}
	return c.shell("/decide", "Two-arm verdict",
		"Did a patch change a test's pass rate? Compare the Wilson intervals of the runs before and after, and see what the gate does.",
		app.Form().Class("calc").ID("decide-form").OnSubmit(preventSubmit).Body(
			app.Range(decideFields[:4]).Slice(func(i int) app.UI {
				f := decideFields[i]
				return fieldInput(f, c.st[f.Key], fieldError(c.err, f.Key), func(ctx app.Context, e app.Event) {
					c.SetField(ctx, f.Key, ctx.JSSrc().Get("value").String())
				})
			}),
			c.propertySelect(),
		),
		formError(c.err, decideFields),
		app.If(c.res != nil, func() app.UI { return c.renderResult() }),
		c.renderLedger(),
	)
}

func (c *Decide) propertySelect() app.UI {
	f := decideFields[4]
	opts := []struct{ v, label string }{
		{core.PropertyUnknown, "not run yet"},
		{core.PropertyPassed, "passed"},
		{core.PropertyFailed, "failed"},
	}
	// A link can hold a value that is no choice ("Passed"): the select
	// shows it, marked, rather than a choice the page does not use.
	cur := strings.TrimSpace(c.st["property"]) // read as DecideInputFrom reads it
	if !slices.ContainsFunc(opts, func(o struct{ v, label string }) bool { return o.v == cur }) {
		opts = append(opts, struct{ v, label string }{cur, strconv.Quote(cur) + " (not a choice)"})
	}
	sel := app.Select().ID("in-property").Name("property").Aria("describedby", "hint-property")
	if msg := fieldError(c.err, "property"); msg != "" {
		sel = sel.Aria("invalid", "true").Aria("describedby", "hint-property err-property")
	}
	return app.Div().Class("field").Body(
		app.Label().For("in-property").Text(f.Label),
		sel.OnChange(func(ctx app.Context, e app.Event) {
			c.SetField(ctx, "property", ctx.JSSrc().Get("value").String())
		}).Body(
			app.Range(opts).Slice(func(i int) app.UI {
				o := app.Option().Value(opts[i].v).Text(opts[i].label)
				if opts[i].v == cur {
					// Only the chosen option carries the attribute: the
					// pre-rendered page writes selected="false" as
					// selected, and a select shows the last one.
					o = o.Selected(true)
				}
				return o
			}),
		),
		app.Small().ID("hint-property").Class("hint").Text(f.Hint),
		app.If(fieldError(c.err, "property") != "", func() app.UI {
			return app.P().ID("err-property").Class("error").Role("alert").DataSet("error", "property").Text(fieldError(c.err, "property"))
		}),
	)
}

func armRow(name string, a gate.Arm) app.UI {
	return app.Tr().DataSet("scope", name).Body(
		app.Th().Scope("row").Text(name),
		app.Td().Body(fieldInt("passed", a.Passed), app.Text(" / "), fieldInt("trials", a.Trials)),
		app.Td().Body(fieldOptNum("rate", a.Rate, words.Percent)),
		app.Td().Body(app.Text("["), fieldNum("lower", a.Lower, words.Percent(a.Lower)), app.Text(", "), fieldNum("upper", a.Upper, words.Percent(a.Upper)), app.Text("]")),
	)
}

func (c *Decide) renderResult() app.UI {
	r := c.res
	class := "verdict good"
	if r.Blocks {
		class = "verdict bad"
	}
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		app.P().Class(class).Body(
			app.Text("Verdict: "), app.Strong().Body(fieldStr("verdict", r.Verdict)),
			app.Text(". Gate: "), app.Strong().Body(fieldStr("gate", r.Gate)),
			app.Text(" ("), fieldBool("blocks", r.Blocks, "blocks the merge", "does not block"), app.Text(")."),
		),
		app.P().Body(fieldStr("action", r.Action)),
		app.P().Class("summary").Body(
			app.Text("Property check "), fieldStr("property", r.Property),
			app.Text("; at least "), fieldInt("min_trials", r.MinTrials), app.Text(" trials per arm; intervals at "),
			fieldNum("confidence", r.Confidence, words.Level(r.Confidence)), app.Text(" confidence."),
		),
		app.Div().Class("table-wrap").Body(app.Table().Body(
			app.Caption().Text("Both arms"),
			app.THead().Body(app.Tr().Body(th("Arm"), th("Passed / trials"), th("Pass rate"), th("Wilson interval"))),
			app.TBody().Body(armRow("baseline", r.Baseline), armRow("patched", r.Patched)),
		)),
		app.Figure().Body(
			app.Raw(IntervalPlot(r)),
			app.FigCaption().Text("Both Wilson intervals on one 0–100% axis; the dot is the observed rate. Separated bars are a verdict, overlapping bars are not."),
		),
		warnings(r.Warnings),
		app.If(c.size != nil, func() app.UI { return renderSize(c.size) }),
		c.copyButtons(func(link string) string { return words.DecideMarkdown(r, c.size, words.Link{URL: link}) }),
		app.Details().Body(app.Summary().Text("Markdown"), app.Pre().ID("markdown").Text(words.DecideMarkdown(r, c.size, words.Link{}))),
	)
}

func renderSize(s *gate.SizeResult) app.UI {
	return app.Section().Class("size").DataSet("scope", "size").Aria("label", "Trials per arm").Body(
		app.H2().Text("How many trials per arm would separate these rates?"),
		app.P().Body(
			app.Text("Rates "), fieldNum("baseline", s.Baseline, words.Percent(s.Baseline)), app.Text(" and "),
			fieldNum("patched", s.Patched, words.Percent(s.Patched)), app.Text(", observed exactly, separate at "),
			fieldOptInt("trials_per_arm", s.TrialsPerArm), app.Text(" trials per arm ("),
			fieldNum("confidence", s.Confidence, words.Level(s.Confidence)), app.Text(" intervals)."),
		),
		warnings(s.Warnings),
	)
}

func (c *Decide) renderLedger() app.UI {
	return app.Section().Class("ledger").Aria("label", "Ledger").Body(
		app.H2().Text("A ledger of many tests"),
		app.P().Text("Drop a per-trial JSONL ledger (fields run, arm, nodeid, when, outcome) to see every test's verdict with the settings above."),
		dropZone("ledger", "Ledger file (JSONL)", ".jsonl,.json,.txt,application/json", func(ctx app.Context, name string, blob app.Value) {
			ctx.Async(func() {
				data, err := readAll(blob)
				ctx.Dispatch(func(ctx app.Context) {
					if err != nil {
						c.ledgerErr = err
						return
					}
					c.SetLedger(ctx, name, data)
				})
			})
		}),
		app.If(c.ledgerErr != nil, func() app.UI {
			return app.P().Class("error").Role("alert").DataSet("error", "ledger").Text(errString(c.ledgerErr))
		}),
		app.If(c.bookLong > 0, func() app.UI {
			return app.P().Class("notice").Role("status").ID("ledger-no-link").Text(words.LedgerTooLong(c.bookLong))
		}),
		app.If(c.ledgerWaits(), func() app.UI {
			return app.P().Class("hint").Role("status").ID("ledger-waits").Text("The ledger is tabulated again once the settings above are valid.")
		}),
		app.If(c.ledger != nil, func() app.UI { return renderLedgerTable(c.ledger) }),
	)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func renderLedgerTable(l *ledger.Result) app.UI {
	return app.Div().DataSet("scope", "ledger").Body(
		app.P().Body(
			app.Span().DataSet("scope", "runs").Body(
				fieldInt("baseline", int64(l.Runs.Baseline)), app.Text(" baseline runs, "),
				fieldInt("patched", int64(l.Runs.Patched)), app.Text(" patched runs; "),
			),
			app.Text("at least "), fieldInt("min_trials", l.MinTrials), app.Text(" trials per arm, "),
			fieldNum("confidence", l.Confidence, words.Level(l.Confidence)), app.Text(" intervals, property check "),
			fieldStr("property", l.Property), app.Text("."),
		),
		app.P().Class(map[bool]string{true: "verdict bad", false: "verdict good"}[l.Blocks]).Body(
			fieldBool("blocks", l.Blocks, "Some test's gate blocks the merge.", "No test's gate blocks the merge."),
		),
		app.Div().Class("table-wrap").Body(app.Table().Body(
			app.Caption().Text("Every test in the ledger"),
			app.THead().Body(app.Tr().Body(th("Test"), th("Verdict"), th("Gate"), th("Baseline"), th("Patched"), th("Setup / teardown failures"), th("Notes"))),
			app.TBody().Body(app.Range(l.Tests).Slice(func(i int) app.UI {
				t := l.Tests[i]
				sf := t.SideFailures
				return app.Tr().DataSet("scope", "tests."+strconv.Itoa(i)).Body(
					app.Td().Class("id").Body(fieldStr("nodeid", t.NodeID)),
					app.Td().Body(fieldStr("verdict", t.Verdict)),
					app.Td().Body(fieldStr("gate", t.Gate), app.Span().Class("hidden-field").Body(
						fieldBool("blocks", t.Blocks, "blocks", "passes"), fieldStr("action", t.Action))),
					ledgerArm("baseline", t.Baseline),
					ledgerArm("patched", t.Patched),
					app.Td().Body(
						fieldInt("setup_failures", t.SetupFailures), app.Text(" / "), fieldInt("teardown_failures", t.TeardownFailures),
						app.Span().Class("hidden-field").DataSet("scope", "side_failures").Body(
							sides("baseline", sf.Baseline), sides("patched", sf.Patched)),
					),
					app.Td().Class("notes").Body(
						warnings(t.Warnings),
					),
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

func ledgerArm(name string, a gate.Arm) app.UI {
	return app.Td().DataSet("scope", name).Body(
		fieldInt("passed", a.Passed), app.Text("/"), fieldInt("trials", a.Trials), app.Text(" · "),
		fieldOptNum("rate", a.Rate, words.Percent), app.Text(" ["), fieldNum("lower", a.Lower, words.Percent(a.Lower)), app.Text(", "),
		fieldNum("upper", a.Upper, words.Percent(a.Upper)), app.Text("]"),
	)
}
