package page

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/page/fieldcheck"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Form tests: every invalid field is marked at once, each with the message
// it has alone, and no figure (the ledger's included) stays on the page
// while any field is invalid.

// formT is a calculator page driven through its fields.
type formT interface {
	app.Composer
	SetField(ctx app.Context, key, value string)
}

// typeInto sets fields in order, as typed, and renders.
func typeInto(t *testing.T, e app.TestEngine, c formT, ctx app.Context, kv ...string) string {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		c.SetField(ctx, kv[i], kv[i+1])
	}
	ctx.Update()
	e.ConsumeAll()
	return app.HTMLString(c)
}

var (
	inputTag = regexp.MustCompile(`<(?:input|select) [^>]*>`)
	// go-app writes aria-invalid="true" as a bare attribute natively.
	ariaInvalid = regexp.MustCompile(`\saria-invalid(="true")?[\s>]`)
)

// inputOf is the rendered <input> tag of field key.
func inputOf(t *testing.T, html, key string) string {
	t.Helper()
	for _, tag := range inputTag.FindAllString(html, -1) {
		if strings.Contains(tag, `id="in-`+key+`"`) {
			return tag
		}
	}
	t.Fatalf("no input for %s", key)
	return ""
}

// errorOf is the text of field key's error element, "" when there is none.
func errorOf(t *testing.T, page, key string) string {
	t.Helper()
	m := regexp.MustCompile(`<p [^>]*data-error="` + regexp.QuoteMeta(key) + `"[^>]*>([^<]*)</p>`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// expectMarked checks that field key shows msg at its field: the error
// element, aria-invalid on the input and aria-describedby pointing at it.
func expectMarked(t *testing.T, html, key, msg string) {
	t.Helper()
	if got := errorOf(t, html, key); got == "" {
		t.Errorf("%s: no error element", key)
	} else if !strings.Contains(got, msg) {
		t.Errorf("%s: error %q does not say %q", key, got, msg)
	}
	if !strings.Contains(html, `id="err-`+key+`"`) {
		t.Errorf("%s: no element err-%s", key, key)
	}
	tag := inputOf(t, html, key)
	if !ariaInvalid.MatchString(tag) || !strings.Contains(tag, "err-"+key) {
		t.Errorf("%s: input not marked invalid or not described by its error: %s", key, tag)
	}
}

// expectClean checks that field key shows no error.
func expectClean(t *testing.T, html, key string) {
	t.Helper()
	if errorOf(t, html, key) != "" {
		t.Errorf("%s: error shown for a valid field", key)
	}
	if tag := inputOf(t, html, key); strings.Contains(tag, "aria-invalid") {
		t.Errorf("%s: valid input marked invalid: %s", key, tag)
	}
}

// expectNoFigures checks that no data-field is on the page.
func expectNoFigures(t *testing.T, html string) {
	t.Helper()
	page, err := fieldcheck.FromHTML(html)
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 0 {
		t.Errorf("%d figures on the page while an input is invalid, e.g. %v", len(page), firstKeys(page, 3))
	}
}

func firstKeys(m map[string]string, n int) []string {
	var ks []string
	for k := range m {
		if len(ks) == n {
			break
		}
		ks = append(ks, k)
	}
	return ks
}

// aloneMsg is the message field key shows when it is the only invalid one.
func aloneMsg(t *testing.T, fields []field, from func(map[string]string) error, key, value string) string {
	t.Helper()
	st := newFormState(fields)
	st[key] = value
	err := from(st)
	if err == nil || fieldError(err, key) == "" {
		t.Fatalf("%s=%q alone: no error at the field (%v)", key, value, err)
	}
	return fieldError(err, key)
}

func budgetErr(s map[string]string) error { _, err := budgetFrom(s); return err }

func decideErr(s map[string]string) error { _, _, err := decideFrom(s); return err }

func TestBudgetMarksEveryInvalidField(t *testing.T) {
	c := &budgetT{}
	e := load(t, c)
	capMsg := aloneMsg(t, budgetFields, budgetErr, "cap", "y")
	targetMsg := aloneMsg(t, budgetFields, budgetErr, "target", "x")

	html := typeInto(t, e, c, c.ctx, "cap", "y", "target", "x")
	expectMarked(t, html, "cap", capMsg)
	expectMarked(t, html, "target", targetMsg)
	expectNoFigures(t, html)

	// Fixing one leaves the other marked, and the figures hidden.
	html = typeInto(t, e, c, c.ctx, "target", "0.9")
	expectClean(t, html, "target")
	expectMarked(t, html, "cap", capMsg)
	expectNoFigures(t, html)

	// A fault core finds (a negative cap) and a parse fault, with a third
	// in a field core checks after both.
	html = typeInto(t, e, c, c.ctx, "cap", "-1", "target", "9x", "rates", "0.05,2")
	expectMarked(t, html, "cap", aloneMsg(t, budgetFields, budgetErr, "cap", "-1"))
	expectMarked(t, html, "target", aloneMsg(t, budgetFields, budgetErr, "target", "9x"))
	expectMarked(t, html, "rates", aloneMsg(t, budgetFields, budgetErr, "rates", "0.05,2"))
	expectClean(t, html, "confidence")
	expectNoFigures(t, html)

	// All valid again: the figures are back, and right.
	typeInto(t, e, c, c.ctx, "cap", "3", "target", "0.9", "rates", "0.05")
	want, err := gate.Budget(gate.BudgetInput{Target: 0.9, Cap: 3, Confidence: 0.95, Rates: []float64{0.05}})
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, c, "", want)
}

func TestDecideMarksEveryInvalidField(t *testing.T) {
	c := &decideT{}
	e := load(t, c)
	baseMsg := aloneMsg(t, decideFields, decideErr, "baseline", "y")
	patchMsg := aloneMsg(t, decideFields, decideErr, "patched", "x/2")

	html := typeInto(t, e, c, c.ctx, "baseline", "y", "patched", "x/2")
	expectMarked(t, html, "baseline", baseMsg)
	expectMarked(t, html, "patched", patchMsg)
	expectNoFigures(t, html)

	html = typeInto(t, e, c, c.ctx, "patched", "17/20")
	expectClean(t, html, "patched")
	expectMarked(t, html, "baseline", baseMsg)
	expectNoFigures(t, html)

	// Faults core finds in two fields, besides a parse fault.
	html = typeInto(t, e, c, c.ctx, "patched", "21/20", "min_trials", "0", "confidence", "2")
	expectMarked(t, html, "baseline", baseMsg)
	expectMarked(t, html, "patched", aloneMsg(t, decideFields, decideErr, "patched", "21/20"))
	expectMarked(t, html, "min_trials", aloneMsg(t, decideFields, decideErr, "min_trials", "0"))
	expectMarked(t, html, "confidence", aloneMsg(t, decideFields, decideErr, "confidence", "2"))
	expectNoFigures(t, html)

	typeInto(t, e, c, c.ctx, "baseline", "10/20", "patched", "17/20", "min_trials", "20", "confidence", "0.95")
	want, err := gate.Decide(gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown})
	if err != nil {
		t.Fatal(err)
	}
	checkPage(t, c, "", want, "size", "ledger")
}

// The ledger is tabulated with the form's settings or not at all: never
// with the defaults while a setting is invalid.
func TestDecideLedgerWaitsForValidSettings(t *testing.T) {
	data := repoFile(t, "examples/flake.jsonl")
	ledgerWant := func(opt ledger.Options) *ledger.Result { return ledgerResult(t, data, opt) }
	c := &decideT{}
	e := load(t, c)
	c.SetLedger(c.ctx, "flake.jsonl", data)
	typeInto(t, e, c, c.ctx, "confidence", "0.8", "property", core.PropertyPassed)
	checkPage(t, c, "ledger", ledgerWant(ledger.Options{MinTrials: 20, Confidence: 0.8, Property: core.PropertyPassed}))

	html := typeInto(t, e, c, c.ctx, "min_trials", "")
	expectMarked(t, html, "min_trials", "required")
	expectNoFigures(t, html)
	if !strings.Contains(html, `id="ledger-waits"`) {
		t.Error("no note that the ledger waits for valid settings")
	}

	// Another invalid setting hides the ledger too; fixing min trials
	// alone does not bring it back.
	html = typeInto(t, e, c, c.ctx, "confidence", "2", "min_trials", "10")
	expectMarked(t, html, "confidence", "(0,1)")
	expectNoFigures(t, html)

	// Valid again: the ledger is tabulated with the new settings.
	html = typeInto(t, e, c, c.ctx, "confidence", "0.8")
	if strings.Contains(html, `id="ledger-waits"`) {
		t.Error("the waiting note stays with valid settings")
	}
	want := ledgerWant(ledger.Options{MinTrials: 10, Confidence: 0.8, Property: core.PropertyPassed})
	checkPage(t, c, "ledger", want)
	if want.MinTrials != 10 || want.Confidence != 0.8 {
		t.Fatalf("core ledger result has options %d, %v", want.MinTrials, want.Confidence)
	}
}

// A link whose property check is no choice ("Passed") shows that value in
// the select, marked invalid beside its error, not "not run yet".
func TestDecidePropertyFromLinkThatIsNoChoice(t *testing.T) {
	c := &decideT{}
	reopen(t, c, &url.URL{Path: "/decide", Fragment: "property=Passed"})
	html := app.HTMLString(c)
	expectMarked(t, html, "property", `got "Passed"`)
	expectNoFigures(t, html)
	var opt []string // go-app writes selected="false" for the others
	for _, o := range regexp.MustCompile(`<option[^>]*>`).FindAllString(html, -1) {
		if strings.Contains(o, "selected") && !strings.Contains(o, `selected="false"`) {
			opt = append(opt, o)
		}
	}
	if len(opt) != 1 || !strings.Contains(opt[0], `value="Passed"`) {
		t.Errorf("selected options %q, want the link's value", opt)
	}
}

// A property check the form accepts with spaces around it (" passed")
// selects that choice, with no extra option.
func TestDecidePropertyFromLinkWithSpaces(t *testing.T) {
	c := &decideT{}
	reopen(t, c, &url.URL{Path: "/decide", Fragment: "property=+passed"})
	html := app.HTMLString(c)
	if strings.Contains(html, "not a choice") || strings.Contains(html, `data-error="property"`) {
		t.Errorf("a spaced choice shown as invalid")
	}
	if !regexp.MustCompile(`<option (value="passed" selected|selected value="passed")>`).MatchString(html) { // attributes come in map order
		t.Errorf("passed not selected")
	}
}
