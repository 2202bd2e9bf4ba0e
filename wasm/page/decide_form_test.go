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
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/flakegate/flakegate/wasm/page/fieldcheck"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Form tests: every invalid field is marked at once, each with the message
// it has alone, and no figure (the ledger's included) stays on the page
// while any field is invalid.

// formT is a calculator page driven through its fields.
type formT interface {
	testPage
	SetField(ctx app.Context, key, value string)
}

// typeInto sets fields in order, as typed (key, value pairs), and renders.
func typeInto(t *testing.T, e app.TestEngine, c formT, kv ...string) string {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		c.SetField(c.context(), kv[i], kv[i+1])
	}
	settle(e, c.context())
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

// aloneMsg is the message field key shows when it is the only invalid
// one, "" when value is valid there.
func aloneMsg(fields []field, from func(map[string]string) error, key, value string) string {
	st := newFormState(fields)
	st[key] = value
	return fieldError(from(st), key)
}

func budgetErr(s map[string]string) error { _, err := budgetFrom(s); return err }

func decideErr(s map[string]string) error { _, _, err := decideFrom(s); return err }

// A form with several invalid fields marks each, with the message it has
// alone, and shows no figure; fixing one leaves the others marked. Each
// step types its pairs over the ones before; the faults are parse faults
// and faults core finds (a negative cap, 21 passes of 20 trials), several
// at once. Once all is valid again the figures are back, and are those of
// gate.Budget and gate.Decide for the same input.
func TestFormsMarkEveryInvalidField(t *testing.T) {
	budgetWant, err := gate.Budget(gate.BudgetInput{Target: 0.9, Cap: 3, Confidence: 0.95, Rates: []float64{0.05}})
	if err != nil {
		t.Fatal(err)
	}
	decideWant, err := gate.Decide(gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		page    formT
		fields  []field
		from    func(map[string]string) error
		steps   [][]string // key, value pairs, each step with a field invalid
		invalid []int      // how many fields each step leaves invalid
		valid   []string   // typed last: every field valid again
		want    any
		exclude []string
	}{
		{&budgetT{}, budgetFields, budgetErr,
			[][]string{{"cap", "y", "target", "x"}, {"target", "0.9"}, {"cap", "-1", "target", "9x", "rates", "0.05,2"}}, []int{2, 1, 3},
			[]string{"cap", "3", "target", "0.9", "rates", "0.05"}, budgetWant, nil},
		{&decideT{}, decideFields, decideErr,
			[][]string{{"baseline", "y", "patched", "x/2"}, {"patched", "17/20"}, {"patched", "21/20", "min_trials", "0", "confidence", "2"}}, []int{2, 1, 4},
			[]string{"baseline", "10/20", "patched", "17/20", "min_trials", "20", "confidence", "0.95"}, decideWant, []string{"size", "ledger"}},
	} {
		e := load(t, tc.page)
		typed := newFormState(tc.fields)
		for step, kv := range tc.steps {
			html := typeInto(t, e, tc.page, kv...)
			for i := 0; i+1 < len(kv); i += 2 {
				typed[kv[i]] = kv[i+1]
			}
			invalid := 0
			for _, f := range tc.fields {
				if msg := aloneMsg(tc.fields, tc.from, f.Key, typed[f.Key]); msg != "" {
					invalid++
					expectMarked(t, html, f.Key, msg)
				} else {
					expectClean(t, html, f.Key)
				}
			}
			if invalid != tc.invalid[step] {
				t.Errorf("step %d %q: %d invalid fields, want %d", step+1, kv, invalid, tc.invalid[step])
			}
			expectNoFigures(t, html)
		}
		typeInto(t, e, tc.page, tc.valid...)
		checkPage(t, tc.page, "", tc.want, tc.exclude...)
	}
}

// The ledger is tabulated with the form's settings or not at all: never
// with the defaults while a setting is invalid.
func TestDecideLedgerWaitsForValidSettings(t *testing.T) {
	data := repoFile(t, "examples/flake.jsonl")
	ledgerWant := func(opt ledger.Options) *ledger.Result { return ledgerResult(t, data, opt) }
	c, e := newPage[decideT](t)
	c.SetLedger(c.ctx, "flake.jsonl", data)
	typeInto(t, e, c, "confidence", "0.8", "property", core.PropertyPassed)
	checkPage(t, c, "ledger", ledgerWant(ledger.Options{MinTrials: 20, Confidence: 0.8, Property: core.PropertyPassed}))

	html := typeInto(t, e, c, "min_trials", "")
	expectMarked(t, html, "min_trials", "required")
	expectNoFigures(t, html)
	if !strings.Contains(html, `id="ledger-waits"`) {
		t.Error("no note that the ledger waits for valid settings")
	}

	// Another invalid setting hides the ledger too; fixing min trials
	// alone does not bring it back.
	html = typeInto(t, e, c, "confidence", "2", "min_trials", "10")
	expectMarked(t, html, "confidence", "(0,1)")
	expectNoFigures(t, html)

	// Valid again: the ledger is tabulated with the new settings.
	html = typeInto(t, e, c, "confidence", "0.8")
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

func TestDecidePage(t *testing.T) {
	c, e := newPage[decideT](t)
	in := gate.DecideInput{Baseline: core.Count{Passed: 10, Trials: 20}, Patched: core.Count{Passed: 17, Trials: 20},
		MinTrials: 20, Confidence: 0.95, Property: core.PropertyUnknown}
	want, err := gate.Decide(in)
	if err != nil {
		t.Fatal(err)
	}
	page := checkPage(t, c, "", want, "size", "ledger")
	size, _ := gate.Size(gate.SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: 0.95})
	checkPage(t, c, "size", size)
	// docs/STATISTICS.md: 0.50 vs 0.85 separate at 28 trials per arm.
	if page["size.trials_per_arm"] != "28" {
		t.Errorf("trials per arm = %q, want 28", page["size.trials_per_arm"])
	}

	typeInto(t, e, c, "baseline", "30/60", "patched", "51/60", "property", "passed")
	in.Baseline, in.Patched, in.Property = core.Count{Passed: 30, Trials: 60}, core.Count{Passed: 51, Trials: 60}, core.PropertyPassed
	want, _ = gate.Decide(in)
	page = checkPage(t, c, "", want, "size", "ledger")
	if page["verdict"] != core.VerdictImproved || page["gate"] != core.GateAccept {
		t.Errorf("verdict %q gate %q, want improved/accept", page["verdict"], page["gate"])
	}

	// A ledger dropped in is tabulated with the form's settings.
	jsonl := repoFile(t, "core/ledger/testdata/ledger/messy.jsonl")
	c.SetLedger(c.ctx, "ledger.jsonl", jsonl)
	settle(e, c.ctx)
	lr := ledgerResult(t, jsonl, ledger.Options{MinTrials: 20, Confidence: 0.95, Property: core.PropertyPassed})
	checkPage(t, c, "ledger", lr)

	// The link carries the ledger's summary: a fresh page opened on it
	// shows the same table; typing keeps it in the link.
	c.SetField(c.ctx, "min_trials", "20")
	link := c.ctx.Page().URL()
	if !strings.Contains(link.Fragment, "ledger=") || !strings.Contains(link.Fragment, "property=passed") {
		t.Fatalf("decide link without the ledger or the form: %s", link)
	}
	d := &decideT{}
	e2 := reopen(t, d, link)
	checkPage(t, d, "ledger", lr)
	// A link whose ledger was damaged says so at the ledger, without a table.
	expectDamagedLink(t, e2, d, link, "ledger", "ledger")
	// A link without a ledger shows none.
	bare := *link
	bare.Fragment = "property=passed"
	follow(e2, d.ctx, d, &bare)
	if html := app.HTMLString(d); strings.Contains(html, `data-scope="ledger"`) || strings.Contains(html, `data-error="ledger"`) {
		t.Errorf("a link without a ledger still shows one:\n%s", html)
	}

	// A broken ledger line is reported with its file, line and column.
	c.SetLedger(c.ctx, "bad.jsonl", []byte("{\"run\": 1}\n"))
	settle(e, c.ctx)
	html := app.HTMLString(c)
	if !strings.Contains(html, `data-error="ledger"`) || !strings.Contains(html, "bad.jsonl:1:") {
		t.Errorf("ledger error not shown with its position:\n%s", html)
	}
}

// A sizing's link (share.Size: the rates as counts, view=size) opens on
// the size: its sentence, computed here by gate.Size on the rates (0.5
// against 0.85: 28 trials per arm, docs/STATISTICS.md), its figures and
// its Markdown, and no verdict for the counts. Typing a count makes the
// page a decision again, and the link it writes says so.
func TestDecideSizeLink(t *testing.T) {
	size, err := gate.Size(gate.SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: 0.95})
	if err != nil || size.TrialsPerArm == nil || *size.TrialsPerArm != 28 {
		t.Fatalf("sizing %+v %v, want 28 trials per arm", size, err)
	}
	link, err := url.Parse(share.SizeOf(size).FragmentURL("https://example.com"))
	if err != nil {
		t.Fatal(err)
	}
	c := &decideT{}
	e := reopen(t, c, link)
	page := app.HTMLString(c)
	if lead, class := answerOf(t, page, "answer"); lead != words.SizeSentence(size) || !strings.Contains(class, "note") {
		t.Errorf("the size link leads with %q (%s), want %q", lead, class, words.SizeSentence(size))
	}
	fields, err := fieldcheck.FromHTML(page)
	if err != nil {
		t.Fatal(err)
	}
	if fields["size.trials_per_arm"] != "28" || fields["verdict"] != "" {
		t.Errorf("figures %v: want the sizing's and no verdict", fields)
	}
	if md := markdownOf(t, page); !strings.HasPrefix(md, "**"+words.SizeSentence(size)+"**") {
		t.Errorf("Markdown %q is not the size's", md)
	}
	page = typeInto(t, e, c, "patched", "18/20")
	if lead, _ := answerOf(t, page, "answer"); lead == words.SizeSentence(size) || share.IsSizeView(fragmentOf(c.ctx.Page().URL())) {
		t.Errorf("typed counts still show the size (%q) or a sizing link (%s)", lead, c.ctx.Page().URL())
	}
	if fields, _ := fieldcheck.FromHTML(page); fields["verdict"] == "" {
		t.Errorf("typed counts get no verdict")
	}
}
