package page

import (
	"bytes"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// decideFields are the decide form's fields: the schema's inputs
// (param.Decide), in its order and starting from its text, with the page's
// labels and hints.
var decideFields = formFields(param.Decide.Fields, param.Decide.Starts(), map[string]field{
	"baseline":   {Label: "Baseline passed / trials", Hint: "before the patch, e.g. 10/20"},
	"patched":    {Label: "Patched passed / trials", Hint: "after the patch, e.g. 17/20"},
	"min_trials": {Label: "Minimum trials per arm", Hint: "with fewer trials in an arm there is no verdict", Mode: "numeric"},
	"confidence": {Label: "Confidence of both intervals", Hint: "a fraction in (0,1) or a percentage, e.g. 95%"},
	"property":   {Label: "Deterministic property check", Hint: "an improvement is accepted only once it passed"},
})

// DecideInputFrom turns the text of the decide form into a core input. Its
// error is a param.Errors with a *core.Error for each field it cannot read,
// naming the form field; those fields keep their default in the input.
func DecideInputFrom(s map[string]string) (gate.DecideInput, error) {
	in, err := param.Decide.Parse(s)
	return in, errorList(err).Err()
}

// decideFrom decides what the form's text asks. When the text is invalid
// there is no result, and the error is a param.Errors with every invalid
// field's fault: what DecideInputFrom cannot read and what gate.Decide
// rejects.
func decideFrom(s map[string]string) (gate.DecideInput, *gate.DecideResult, error) {
	in, err := DecideInputFrom(s)
	res, errs := collect(errorList(err), func(bad param.Errors) (*gate.DecideResult, error) {
		return gate.Decide(decideStandIns(in, bad))
	})
	if len(errs) > 0 {
		return in, nil, errs
	}
	return in, res, nil
}

// decideStandIns is in with a valid value in each field that bad names, so
// that gate.Decide goes on to check the others.
func decideStandIns(in gate.DecideInput, bad param.Errors) gate.DecideInput {
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

// decideExamples are the articles' cases, one click each.
var decideExamples = []example{
	{"10/20 before, 17/20 after", formExample(decideFields, map[string]string{"baseline": "10/20", "patched": "17/20"})},
	{"30/60 before, 51/60 after, property check passed", formExample(decideFields, map[string]string{"baseline": "30/60", "patched": "51/60", "property": core.PropertyPassed})},
}

// Decide is the two-arm verdict calculator at "/decide", with sizing and a
// table of every test of a ledger or of test reports.
type Decide struct {
	pageBase
	urlForm
	in   gate.DecideInput
	res  *gate.DecideResult
	size *gate.SizeResult
	err  error
	// sizing: the link is a sizing's (share.IsSizeView): its counts
	// stand for the rates, so the page leads with the size and gives no
	// verdict. Typing into the form or dropping a file makes it a
	// decision again.
	sizing bool

	files     []droppedFile   // the reports and ledgers read, in the order dropped
	book      *ledger.Summary // what they hold (or the link's); nil when none
	bookErr   error           // why a dropped file (or the link's ledger) could not be read
	bookShare string          // the summary as a fragment value; "" when none or too long
	bookLong  int             // bytes of the summary's fragment value when too long for a link
	ledger    *ledger.Result
	ledgerErr error
}

// droppedFile is a report or ledger file the page read, kept so that a
// file dropped later is added to the same ledger.
type droppedFile struct {
	arm, name, format string
	data              []byte
}

// withLedger adds the dropped ledger's summary to a form fragment: the
// link then reopens the ledger's table too. Keys stay sorted.
func (c *Decide) withLedger(frag string) string {
	if c.bookShare == "" {
		return frag
	}
	return share.WithLedger(frag, c.bookShare)
}

// openLedger reads the ledger a fragment carries, if any; without one the
// view has no ledger, as the link says.
func (c *Decide) openLedger(frag string) {
	c.files, c.bookLong = nil, 0
	c.book, c.bookShare, c.bookErr = openShared(frag, "ledger", share.DecodeLedger)
}

func (c *Decide) OnNav(ctx app.Context) {
	c.nav(ctx, decideFields, "Two-arm verdict · flakegate", c.open)
}

// SetField sets one input as if typed, recomputes and rewrites the URL.
func (c *Decide) SetField(ctx app.Context, key, value string) {
	c.frag = c.withLedger(c.set(decideFields, key, value))
	c.sizing = false
	c.compute()
	keepInURL(ctx, c.frag)
}

// open sets the form and the ledger from a URL fragment and computes.
func (c *Decide) open(frag string) {
	c.load(decideFields, frag)
	c.openLedger(frag)
	c.sizing = share.IsSizeView(frag)
	c.compute()
}

func (c *Decide) compute() {
	c.size = nil
	if c.book != nil {
		// The files are judged, not the counts: the counts keep their
		// defaults, which the link leaves out, as the CLI's ledger links
		// do.
		c.st["baseline"], c.st["patched"] = decideFields[0].Default, decideFields[1].Default
		c.frag = c.withLedger(c.st.fragment(decideFields))
	}
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

// Open shows the view of a fragment (an example's) and writes it into the
// address bar, as following its link does.
func (c *Decide) Open(ctx app.Context, frag string) {
	c.open(frag)
	keepInURL(ctx, frag)
}

// SetLedger replaces what was dropped by one file, a ledger or a report
// of the baseline arm: AddFiles after ClearLedger.
func (c *Decide) SetLedger(ctx app.Context, name string, data []byte) {
	c.files, c.book, c.bookErr, c.bookShare, c.bookLong = nil, nil, nil, "", 0
	c.AddFiles(ctx, ledger.ArmBaseline, []droppedFile{{name: name, data: data}})
}

// AddFiles reads report files (any format core/report detects, each one
// run of arm) or seed ledgers (which name their arms) into the ledger of
// the files read before, tabulates every test with the form's minimum
// trials, confidence and property check, and puts the ledger's summary
// into the link (unless it is too long for one). A file that cannot be
// read is named in the error and leaves the ledger as it was.
func (c *Decide) AddFiles(ctx app.Context, arm string, files []droppedFile) {
	all := withFiles(c.files, arm, files)
	l, err := readDropped(all)
	if err != nil {
		c.bookErr = err // the files read before stay
	} else {
		c.files, c.bookErr = all, nil
		c.setBook(l.Summary())
	}
	c.compute()
	c.writeURL(ctx)
}

// ClearLedger forgets every dropped file and the link's ledger.
func (c *Decide) ClearLedger(ctx app.Context) {
	c.files, c.book, c.bookErr, c.bookShare, c.bookLong = nil, nil, nil, "", 0
	c.compute()
	c.writeURL(ctx)
}

func (c *Decide) setBook(s *ledger.Summary) {
	enc, err := share.EncodeLedger(s)
	c.book = s
	c.bookShare, c.bookLong = fitLink("ledger", enc, err)
}

func (c *Decide) writeURL(ctx app.Context) {
	if c.st == nil {
		c.st = newFormState(decideFields)
	}
	c.frag = c.withLedger(c.st.fragment(decideFields))
	c.sizing = false
	keepInURL(ctx, c.frag)
}

// readDropped reads files into a new ledger, each report one run of its
// arm named after its file, as the CLI names them.
func readDropped(files []droppedFile) (*ledger.Ledger, error) {
	l := ledger.New()
	for _, f := range files {
		run := f.name
		taken := map[string]bool{}
		for _, r := range l.Runs(f.arm) {
			taken[r] = true
		}
		for i := 2; taken[run]; i++ {
			run = f.name + "#" + strconv.Itoa(i)
		}
		if err := report.Read(bytes.NewReader(f.data), report.Options{Arm: f.arm, Run: run}, l); err != nil {
			return nil, core.WithFile(err, f.name)
		}
	}
	return l, nil
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
	var err error
	if c.ledger, err = c.book.Result(opt); err != nil {
		c.ledgerErr = err
	}
}

// ledgerWaits reports whether a ledger that was read is waiting for the
// form to be valid.
func (c *Decide) ledgerWaits() bool {
	return c.book != nil && c.ledger == nil && c.ledgerErr == nil && c.err != nil
}

// Result is the current verdict (nil when the input is invalid).
func (c *Decide) Result() *gate.DecideResult { return c.res }

func (c *Decide) Render() app.UI {
	c.opening(c.open)
	return c.shell("/decide", "Two-arm verdict",
		"Did a patch change a test's pass rate? Compare the runs before and after the patch, and see what the merge gate does.",
		examples(decideExamples, c.Open),
		c.inputs("decide-form", decideFields, c.err, map[string][]choice{"property": propertyChoices}, c.SetField, func(i int, f field) app.UI {
			if i < 2 && c.book != nil {
				return countNotJudged(f) // the files are judged, not the counts
			}
			return nil
		}),
		formError(c.err, decideFields),
		app.If(c.ledger != nil, func() app.UI { return c.renderLedgerAnswer() }).
			ElseIf(c.sizeFirst(), func() app.UI { return c.renderSizeAnswer() }).
			ElseIf(c.res != nil && c.book == nil, func() app.UI { return c.renderResult() }),
		c.renderLedger(),
		app.If(c.ledger != nil || (c.res != nil && c.book == nil), func() app.UI { return c.renderShare() }),
	)
}

// propertyChoices are the property check's states, in words.
var propertyChoices = []choice{
	{core.PropertyUnknown, "not run yet"},
	{core.PropertyPassed, "passed"},
	{core.PropertyFailed, "failed"},
}

// armColumns head the table of both arms; on a phone each cell is a line
// of a card.
var armColumns = []string{"Arm", "Passed / trials", "Pass rate", "Wilson interval"}

func armRow(name string, a gate.Arm) app.UI {
	return app.Tr().DataSet("scope", name).Body(
		app.Th().Scope("row").DataSet("label", armColumns[0]).Text(name),
		app.Td().DataSet("label", armColumns[1]).Body(fieldInt("passed", a.Passed), app.Text(" / "), fieldInt("trials", a.Trials)),
		app.Td().DataSet("label", armColumns[2]).Body(fieldOptNum("rate", a.Rate, words.Percent)),
		app.Td().DataSet("label", armColumns[3]).Body(fieldNum("lower", a.Lower, words.Percent(a.Lower)), app.Text(" to "), fieldNum("upper", a.Upper, words.Percent(a.Upper))),
	)
}

// gateKind is the answer box's kind for a gate: "bad" when it blocks,
// "good" when it accepts, "note" for a merge that claims nothing or waits
// for a check (neither a pass to celebrate nor a block).
func gateKind(g string) string {
	switch {
	case gate.Blocks(g):
		return "bad"
	case g == core.GateAccept:
		return "good"
	}
	return "note"
}

// propertyWords is a property check's state in words.
func propertyWords(p string) string {
	for _, c := range propertyChoices {
		if c.v == p {
			return c.label
		}
	}
	return p
}

func (c *Decide) renderResult() app.UI {
	r := c.res
	var more []string
	if c.size != nil {
		more = append(more, words.SizeSentence(c.size))
	}
	terms := []words.Term{words.VerdictTerm(r.Verdict), words.GateTerm(r.Gate), words.TermWilson}
	if r.Verdict == core.VerdictImproved || r.Property != core.PropertyUnknown {
		terms = append(terms, words.TermProperty)
	}
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		answerBox("answer", gateKind(r.Gate), words.DecideAnswer(r), more),
		app.P().Class("verdict-line").Body(
			app.Text("Verdict: "), app.Strong().Body(fieldStrText("verdict", r.Verdict, words.VerdictWords(r.Verdict))),
			app.Text(". The gate "), app.Strong().Body(fieldStrText("gate", r.Gate, words.GateWords(r.Gate))),
			app.Text(" ("), fieldBool("blocks", r.Blocks, "the merge is blocked", "the merge is not blocked"), app.Text(")."),
		),
		termList(terms),
		app.H2().Text("Both arms"),
		app.Div().Class("table-wrap").Body(app.Table().Class("cards").Body(
			app.Caption().Textf("Passes, pass rates and %s Wilson intervals", words.Level(r.Confidence)),
			app.THead().Body(app.Tr().Body(app.Range(armColumns).Slice(func(i int) app.UI { return th(armColumns[i]) }))),
			app.TBody().Body(armRow("baseline", r.Baseline), armRow("patched", r.Patched)),
		)),
		app.Figure().Body(
			app.Raw(IntervalPlot(r)),
			app.FigCaption().Text("Both Wilson intervals on one 0–100% axis; the dot is the observed pass rate. Bars that do not overlap are a verdict; overlapping bars are not."),
		),
		renderAnytime(r),
		app.If(c.size != nil, func() app.UI { return renderSize(c.size) }),
		app.H2().Text("Details"),
		app.P().Body(app.Text("What to do: "), fieldStr("action", r.Action), app.Text(".")),
		app.P().Class("summary").Body(
			app.Text("Property check: "), fieldStrText("property", r.Property, propertyWords(r.Property)),
			app.Text("; at least "), fieldInt("min_trials", r.MinTrials), app.Text(" "+plural(r.MinTrials, "trial")+" per arm; intervals at "),
			fieldNum("confidence", r.Confidence, words.Level(r.Confidence)), app.Text(" confidence."),
		),
		warnings(r.Warnings),
	)
}

// renderShare is the copy buttons and the Markdown: when a ledger or
// reports were read, every test's verdict (what `flakegate ledger
// -markdown` writes), else the counts' verdict and the sizing (what
// `flakegate decide -markdown` writes).
func (c *Decide) renderShare() app.UI {
	r, size, l, sizing := c.res, c.size, c.ledger, c.sizeFirst()
	md := func(link words.Link) string {
		if l != nil {
			return words.LedgerMarkdown(l, link)
		}
		if sizing {
			return words.SizeMarkdown(size, link)
		}
		return words.DecideMarkdown(r, size, link)
	}
	return c.shareSection(md)
}

// sizeFirst reports whether the page answers a sizing's link: the size
// leads, and the counts that stand for its rates get no verdict.
func (c *Decide) sizeFirst() bool {
	return c.sizing && c.size != nil && c.res != nil && c.book == nil
}

// renderSizeAnswer is a sizing link's answer: the size's sentence (what
// `flakegate size -markdown` leads with) and its figures, without the
// verdict of the counts the form holds for its rates.
func (c *Decide) renderSizeAnswer() app.UI {
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		answerBox("answer", "note", words.SizeSentence(c.size), nil),
		termList([]words.Term{words.TermWilson}),
		renderSize(c.size),
		app.P().Class("note").Text("The form holds these pass rates as counts. Type the counts of real runs for their verdict."),
	)
}

func renderSize(s *gate.SizeResult) app.UI {
	return app.Section().Class("size").DataSet("scope", "size").Aria("label", "Trials per arm").Body(
		app.H2().Text("How many trials per arm would separate these rates?"),
		app.P().Body(
			app.Text("Pass rates of "), fieldNum("baseline", s.Baseline, words.Percent(s.Baseline)), app.Text(" and "),
			fieldNum("patched", s.Patched, words.Percent(s.Patched)), app.Text(", if they held, separate at "),
			fieldOptInt("trials_per_arm", s.TrialsPerArm), app.Text(" trials per arm ("),
			fieldNum("confidence", s.Confidence, words.Level(s.Confidence)), app.Text(" intervals)."),
		),
		warnings(s.Warnings),
	)
}

// renderAnytime is the verdict of the same counts checked after every
// trial, beside the fixed one: each arm's anytime interval and the
// verdict they give.
func renderAnytime(r *gate.DecideResult) app.UI {
	a := r.Anytime
	bounds := func(scope string, b gate.Bounds) app.UI {
		return app.Span().DataSet("scope", scope).Body(app.Text("["), fieldNum("lower", b.Lower, words.Percent(b.Lower)),
			app.Text(", "), fieldNum("upper", b.Upper, words.Percent(b.Upper)), app.Text("]"))
	}
	return app.P().Class("anytime").DataSet("scope", "anytime").Body(
		app.Text("Checked after every trial: "), fieldStrText("verdict", a.Verdict, words.VerdictWords(a.Verdict)),
		app.Text(" — baseline "), bounds("baseline", a.Baseline), app.Text(", patched "), bounds("patched", a.Patched),
		app.Text(" ("+words.Level(r.Confidence)+" anytime intervals: they hold however often the counts were looked at, so they are wider than Wilson's)."),
	)
}
