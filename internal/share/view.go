package share

import (
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/param"
)

// Paths of the calculator's views.
const (
	BudgetPath = "/"
	DecidePath = "/decide"
	AAPath     = "/aa"
)

// Field is one input of a calculator form as a link holds it: its key in
// the fragment and, for links of the first format (without a version), the
// text a link left out because it was the form's default then.
type Field struct{ Key, Default string }

// The fields of the first link format, with the defaults its links left
// out. They are that format's, frozen: a link handed out before links
// carried a version opens with these, whatever the calculators' defaults
// are today. Today's defaults are core/param's.
var (
	// BudgetFields are the budget view's inputs, in the form's order.
	BudgetFields = []Field{
		{"target", "0.95"}, {"cost", ""}, {"cap", "3"}, {"rates", "0.05,0.02,0.01"}, {"observe", ""}, {"confidence", "0.95"},
	}
	// BudgetRunnerFields are the budget view's runner inputs, after
	// BudgetFields in the form: the test runner whose retry setting the
	// answer is written in (a gate.Runners name), and today's setting as it
	// counts it (which gives the cap).
	BudgetRunnerFields = []Field{{"runner", ""}, {"setting", ""}}
	// DecideFields are the decide view's inputs, in the form's order.
	DecideFields = []Field{
		{"baseline", "10/20"}, {"patched", "17/20"}, {"min_trials", "20"}, {"confidence", "0.95"}, {"property", core.PropertyUnknown},
	}
)

// FormVersion is the version of the form fragments Form writes, the value
// of their "v" key. Version 2 writes every input; a fragment without a
// version is of the first format, which left out the inputs at their
// default.
const FormVersion = "2"

// Form encodes a form's text as a fragment of FormVersion: every field with
// text, whether or not it is the default (so the link keeps its meaning
// when a default changes), and "v", keys sorted (so the same state is the
// same link), values escaped as a query string. Keys that are not fields
// are left out.
func Form(fields []Field, text map[string]string) string {
	v := url.Values{}
	for _, f := range fields {
		if t := text[f.Key]; t != "" {
			v.Set(f.Key, t)
		}
	}
	v.Set("v", FormVersion)
	return v.Encode()
}

// ReadForm is the text of each field that a form fragment holds, of any
// version: a field the fragment does not name is blank in a versioned
// fragment, and has its first-format default (Field.Default) in one
// without a version. Unknown keys and undecodable pairs are ignored.
func ReadForm(fields []Field, frag string) map[string]string {
	q, _ := url.ParseQuery(frag)
	_, versioned := q["v"]
	out := make(map[string]string, len(fields))
	for _, f := range fields {
		if !versioned {
			out[f.Key] = f.Default
		}
		if vs, ok := q[f.Key]; ok && len(vs) > 0 {
			out[f.Key] = vs[0]
		} else if versioned {
			out[f.Key] = ""
		}
	}
	return out
}

// FormFields are the fields of keys, with their first-format defaults (""
// for a key no first-format form had): what ReadForm needs to open a form's
// links of every version.
func FormFields(keys ...string) []Field {
	all := append(append(append(BudgetFields[:len(BudgetFields):len(BudgetFields)], BudgetRunnerFields...), DecideFields...), QuarantineFields...)
	out := make([]Field, len(keys))
	for i, k := range keys {
		out[i] = Field{Key: k, Default: defaultOf(all, k)}
	}
	return out
}

// keysOf are the keys of a schema's fields.
func keysOf(fields []param.Field) []Field {
	out := make([]Field, len(fields))
	for i, f := range fields {
		out[i] = Field{Key: f.Key}
	}
	return out
}

// What a link can leave out (View.Left).
const (
	// LeftLedger: the decide view's ledger summary is past MaxFragment;
	// the link holds the settings only, and the ledger file must be
	// shared with it.
	LeftLedger = "ledger"
	// LeftStatistics: the A/A statistics are past MaxFragment; there is no
	// link, the statistics go as a file.
	LeftStatistics = "statistics"
	// LeftRates: a sizing's pass rates have no exact passed/trials form
	// that the decide view could hold; there is no link.
	LeftRates = "rates"
)

// View is a calculator view and the state that reproduces a result there.
type View struct {
	Path     string // BudgetPath, DecidePath or AAPath
	Fragment string // escaped, without '#'; "" for the view's defaults
	// Left says what the link leaves out: "" when nothing, or LeftLedger,
	// LeftStatistics or LeftRates. LeftBytes is then the fragment bytes
	// the left-out part would take (0 for LeftRates).
	Left      string
	LeftBytes int
}

// Linked reports whether the view has a link: not when what it leaves out
// is all it would show.
func (v View) Linked() bool {
	return v.Left != LeftStatistics && v.Left != LeftRates && v.Left != LeftComparison && v.Left != LeftHistory && v.Left != LeftBoard
}

// URL is the view's link on site (a ParseSite address), the one the CLI,
// the API and the page hand out: QueryURL, which opens on its answer from
// the server's first byte and previews with it. "" when the view has none
// (Linked).
func (v View) URL(site string) string { return v.QueryURL(site) }

// FragmentURL is the view's link on site with its state in the fragment,
// which no server receives: the page computes it, offline too. "" when the
// view has none (Linked).
func (v View) FragmentURL(site string) string { return v.link(site, "#") }

// QueryURL is the view's link on site with its state in the query string:
// the server that serves the calculator receives it and renders the
// answer into the page it sends (package render). "" when the view has
// none (Linked).
func (v View) QueryURL(site string) string { return v.link(site, "?") }

// link is the view's link on site with its state after sep.
func (v View) link(site, sep string) string {
	if !v.Linked() || site == "" {
		return ""
	}
	u := strings.TrimSuffix(site, "/") + v.Path
	if v.Fragment != "" {
		u += sep + v.Fragment
	}
	return u
}

// ParseSite checks the address of a site that serves the calculator and
// returns it without a trailing slash: an absolute http or https URL with a
// host, and no user, query or fragment ("https://flakegate.example",
// "http://127.0.0.1:8080", "https://example.com/tools/flakegate").
func ParseSite(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	switch {
	case err != nil:
		return "", fmt.Errorf("site address %q is not a URL", s)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("site address %q: want an http:// or https:// address", s)
	case u.Host == "" || u.Opaque != "":
		return "", fmt.Errorf("site address %q has no host", s)
	case u.User != nil:
		return "", fmt.Errorf("site address %q: a user name does not belong in a link", s)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(s, "#"):
		return "", fmt.Errorf("site address %q: give the address alone, without ? or #", s)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}

// exact is a number's shortest text that parses back to the same float64.
func exact(v float64) string { return param.Exact(v) }

// Budget is the budget view of in.
func Budget(in gate.BudgetInput) View {
	return View{Path: BudgetPath, Fragment: Form(keysOf(param.Budget.Fields), param.Budget.Text(in))}
}

// Decide is the decide view of in and, when l is not nil, of a ledger with
// that summary tabulated with in's settings. A summary past MaxFragment is
// left out (LeftLedger).
func Decide(in gate.DecideInput, l *ledger.Summary) (View, error) {
	v := View{Path: DecidePath, Fragment: Form(keysOf(param.Decide.Fields), param.Decide.Text(in))}
	if l == nil {
		return v, nil
	}
	enc, err := EncodeLedger(l)
	if err != nil {
		return v, err
	}
	if n := len(enc) + len("ledger="); n > MaxFragment {
		v.Left, v.LeftBytes = LeftLedger, n
		return v, nil
	}
	v.Fragment = WithLedger(v.Fragment, enc)
	return v, nil
}

// WithLedger is a decide fragment with a ledger's summary, enc (an
// EncodeLedger text): the ledger's tests are judged, not the form's two
// counts, so the fragment leaves the counts out.
func WithLedger(frag, enc string) string {
	q, _ := url.ParseQuery(frag)
	q.Del("baseline")
	q.Del("patched")
	q.Set("ledger", enc)
	return q.Encode()
}

// Ledger is the decide view that tabulates a ledger's summary with opt:
// the arms are the form's starting ones.
func Ledger(s *ledger.Summary, opt ledger.Options) (View, error) {
	starts := param.Decide.Starts()
	in, _ := param.Decide.Parse(map[string]string{"baseline": starts["baseline"], "patched": starts["patched"]})
	in.MinTrials, in.Confidence, in.Property = opt.MinTrials, opt.Confidence, opt.Property
	return Decide(in, s)
}

// Freeze is the decide view of a frozen claim: the claim as the baseline
// arm and the newer count (or the claim again, when there is none) as the
// patched arm, at the claim's confidence. Its baseline row shows the
// claim's rate and Wilson interval, the figures a freeze check compares.
func Freeze(in gate.FreezeInput) View {
	d := gate.DefaultDecideInput
	d.Baseline, d.Patched, d.Confidence = in.Claim, in.Claim, in.Confidence
	if in.Newer != nil {
		d.Patched = *in.Newer
	}
	v, _ := Decide(d, nil) // without a ledger Decide does not fail
	return v
}

// The key and value that mark a decide fragment as a sizing's view (Size):
// its counts stand for the sizing's rates, so the page and the server
// lead with the trials per arm and give no verdict for them.
const (
	ViewKey  = "view"
	ViewSize = "size"
)

// IsSizeView reports whether a decide fragment (or query string) is a
// sizing's view: it holds view=size. Links without the key, every link
// written before it existed included, are decisions.
func IsSizeView(frag string) bool {
	q, _ := url.ParseQuery(frag)
	return q.Get(ViewKey) == ViewSize
}

// Size is the decide view whose sizing section answers in: arms with the
// same number of trials whose pass rates are in's rates exactly (as the
// page divides them), at least the minimum trials of the form's default,
// marked view=size (IsSizeView) so that it opens on the size, not on a
// verdict for those counts. Rates without a short exact decimal form have
// no such arms (LeftRates).
func Size(in gate.SizeInput) View {
	b, okB := exactRatio(in.Baseline)
	p, okP := exactRatio(in.Patched)
	if !okB || !okP {
		return View{Path: DecidePath, Left: LeftRates}
	}
	// One denominator for both, then as many trials as the form's
	// minimum, keeping each ratio.
	den := new(big.Int).Mul(b.Denom(), p.Denom())
	den.Div(den, new(big.Int).GCD(nil, nil, b.Denom(), p.Denom()))
	min := big.NewInt(gate.DefaultDecideInput.MinTrials)
	if den.Cmp(min) < 0 {
		f := new(big.Int).Add(min, new(big.Int).Sub(den, big.NewInt(1)))
		f.Div(f, den)
		den.Mul(den, f)
	}
	count := func(r *big.Rat, rate float64) (core.Count, bool) {
		n := new(big.Int).Mul(r.Num(), den)
		n.Div(n, r.Denom())
		if !n.IsInt64() || !den.IsInt64() || den.Int64() > 1<<53 {
			return core.Count{}, false
		}
		c := core.Count{Passed: n.Int64(), Trials: den.Int64()}
		// The page divides the counts as float64s: the quotient of two
		// exact integers is the rational rounded once, so it is the rate.
		return c, float64(c.Passed)/float64(c.Trials) == rate
	}
	cb, ok1 := count(b, in.Baseline)
	cp, ok2 := count(p, in.Patched)
	if !ok1 || !ok2 {
		return View{Path: DecidePath, Left: LeftRates}
	}
	d := gate.DefaultDecideInput
	d.Baseline, d.Patched, d.Confidence = cb, cp, in.Confidence
	v, _ := Decide(d, nil)
	q, _ := url.ParseQuery(v.Fragment)
	q.Set(ViewKey, ViewSize)
	v.Fragment = q.Encode()
	return v
}

// exactRatio is v as the fraction its shortest decimal text writes, which
// parses back to v.
func exactRatio(v float64) (*big.Rat, bool) {
	if !(v >= 0 && v <= 1) {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(v, 'f', -1, 64))
	return r, ok
}

// AA is the A/A view of a baseline's and an optional candidate's
// statistics checked with opt. Past MaxFragment the view has no link
// (LeftStatistics).
func AA(base, cand *aa.Side, opt aa.Options) (View, error) {
	if base == nil {
		return View{}, errors.New("share: an A/A view needs a baseline")
	}
	enc, err := EncodeAA(AAState{Baseline: base, Candidate: cand, Options: AAOptionsText(AAInputOf(opt))})
	if err != nil {
		return View{}, err
	}
	return packedView(AAPath, "aa", enc, LeftStatistics), nil
}

// packedView is the view at path whose whole state is enc, the fragment
// key=enc. Past MaxFragment it has no fragment: Left is left, what the
// view then leaves out, and LeftBytes the fragment's length.
func packedView(path, key, enc, left string) View {
	frag := key + "=" + enc
	if len(frag) > MaxFragment {
		return View{Path: path, Left: left, LeftBytes: len(frag)}
	}
	return View{Path: path, Fragment: frag}
}

// defaultOf is the default of a form's field key.
func defaultOf(fields []Field, key string) string {
	for _, f := range fields {
		if f.Key == key {
			return f.Default
		}
	}
	return ""
}
