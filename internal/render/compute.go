package render

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// MaxQuery is the longest query string a link may have to be rendered, in
// bytes: the longest fragment share writes (share.MaxFragment, the packed
// part of a link) and room for the form's fields beside it. share never
// hands out a longer link (it leaves the long part out and says so); a
// longer query is answered with the pre-rendered page as it is, which the
// calculator then computes in the browser.
const MaxQuery = share.MaxFragment + 1<<10

// MaxWorkSteps bounds the A/A check a link may ask of the server (aa.Work,
// about a nanosecond a step natively): an A/A link of many runs, whose
// in-depth analyses (the trend test's permutations) cost more, is not
// rendered, and the page computes it in the browser as before. A link of
// 24 scenarios in 6 runs costs 1.4e5 steps.
const MaxWorkSteps = 1e7

// Part is one result a view shows: the result's JSON (as core.WriteJSON
// writes it, without link and link_note) under the data-scope Scope (""
// for the page's top level), and its Markdown summary, whose first line is
// the answer.
type Part struct {
	Scope    string
	JSON     []byte
	Markdown string
}

// View is what a link shows: its answer first, then its parts.
type View struct {
	Path   string // the page: share.BudgetPath, DecidePath, ...
	Title  string // the page's name, "Two-arm verdict"
	Answer string // the sentence a reviewer pastes, the Markdown's first line
	// Tone is the answer box's colour: "bad" when the gate blocks, "good"
	// when it passes, "note" otherwise.
	Tone string
	// Form is the text of each form input the link holds (nil for pages
	// without a form), to be put into the pre-rendered inputs.
	Form  map[string]string
	Parts []Part
	// Err is the link's input error when it cannot be computed (Parts is
	// then empty and Answer says so): the page shows it at its field.
	Err error
}

// Titles are the pages' names, by path.
var Titles = map[string]string{
	share.BudgetPath:     "Rerun budget",
	share.DecidePath:     "Two-arm verdict",
	share.AAPath:         "A/A noise check",
	share.QuarantinePath: "Quarantine",
	share.ComparePath:    "Compare models",
	share.HistoryPath:    "CI history",
}

// ErrNotRendered: the path is not a calculator page, the query is empty or
// longer than MaxQuery, or holds nothing the page reads. The page is then
// served as it was pre-rendered.
var ErrNotRendered = errors.New("render: no link to render")

// Compute is the view of a link: the page at path with the query string
// query (raw, without '?'), in the fragment's format (share.Form and the
// packed aa=, ledger=, registry=, compare=, board=, history= values; versioned or
// not). Each result is computed by the core as the CLI computes it, and
// worded by package words. A link whose input cannot be read gives a View
// with Err set; only ErrNotRendered is returned as an error.
func Compute(path, query string) (*View, error) {
	title, ok := Titles[path]
	if !ok || query == "" || len(query) > MaxQuery {
		return nil, ErrNotRendered
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return nil, ErrNotRendered
	}
	v := &View{Path: path, Title: title, Tone: "note"}
	switch path {
	case share.BudgetPath:
		err = v.budget(query)
	case share.DecidePath:
		err = v.decide(query, q.Get("ledger"))
	case share.AAPath:
		err = v.aa(q.Get("aa"))
	case share.QuarantinePath:
		err = v.quarantine(query, q.Get("registry"))
	case share.ComparePath:
		if q.Has(share.BoardKey) {
			err = v.board(q.Get(share.BoardKey))
			break
		}
		err = v.compare(q.Get("compare"))
	case share.HistoryPath:
		err = v.history(q.Get("history"))
	}
	if errors.Is(err, ErrNotRendered) {
		return nil, err
	}
	if err != nil {
		v.Err, v.Parts, v.Tone = err, nil, "bad"
		v.Answer = "This link cannot be opened: " + message(err)
		return v, nil
	}
	v.Answer = firstLine(v.Parts[0].Markdown)
	return v, nil
}

// message is an input error in the user's words: a core error's own text,
// each field's for several.
func message(err error) string {
	var errs param.Errors
	if errors.As(err, &errs) {
		m := make([]string, len(errs))
		for i, e := range errs {
			m[i] = message(e)
		}
		return strings.Join(m, "; ")
	}
	var ce *core.Error
	if errors.As(err, &ce) {
		if ce.Field != "" && !strings.Contains(ce.Msg, ce.Field) {
			return ce.Field + ": " + ce.Msg
		}
		return ce.Msg
	}
	return err.Error()
}

// form reads a versioned or first-format form fragment with the keys of
// fields.
func form(fields []param.Field, query string) map[string]string {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Key
	}
	return share.ReadForm(share.FormFields(keys...), query)
}

// add appends a part: res as JSON without its link.
func (v *View) add(scope string, res any, markdown string) error {
	var b bytes.Buffer
	if err := core.WriteJSON(&b, res); err != nil {
		return err
	}
	v.Parts = append(v.Parts, Part{Scope: scope, JSON: b.Bytes(), Markdown: markdown})
	return nil
}

// computed is the input schema s reads from a form's text, and its result
// by f.
func computed[In, Out any](text map[string]string, s *param.Schema[In], f func(In) (Out, error)) (In, Out, error) {
	in, err := s.Parse(text)
	if err != nil {
		var none Out
		return in, none, err
	}
	out, err := f(in)
	return in, out, err
}

func (v *View) budget(query string) error {
	v.Form = form(param.Budget.Fields, query)
	_, res, err := computed(v.Form, param.Budget, gate.Budget)
	if err != nil {
		return err
	}
	v.Tone = tone(res.Blocks(), words.BudgetBeyondGate(res) == 0)
	return v.add("", res, words.BudgetMarkdown(res, words.Link{}))
}

func (v *View) decide(query, ledgerText string) error {
	v.Form = form(param.Decide.Fields, query)
	if ledgerText != "" {
		// The ledger is judged, not the counts, which its link leaves out.
		s, err := share.DecodeLedger(ledgerText)
		if err != nil {
			return fmt.Errorf("this link's ledger could not be read: %w", err)
		}
		text := map[string]string{}
		for _, f := range param.Ledger.Fields {
			text[f.Key] = v.Form[f.Key]
		}
		_, res, err := computed(text, param.Ledger, s.Result)
		if err != nil {
			return err
		}
		v.Tone = tone(res.Blocks, !res.Blocks)
		return v.add("ledger", res, words.LedgerMarkdown(res, words.Link{}))
	}
	in, res, err := computed(v.Form, param.Decide, gate.Decide)
	if err != nil {
		return err
	}
	var size *gate.SizeResult
	if si, ok := gate.Sizing(in); ok {
		size, _ = gate.Size(si)
	}
	if size != nil && share.IsSizeView(query) {
		// A sizing's link: its counts stand for the rates, so the size
		// leads, as the page's does, and the counts get no verdict.
		return v.add("size", size, words.SizeMarkdown(size, words.Link{}))
	}
	v.Tone = tone(res.Blocks, res.Gate == core.GateAccept)
	if err := v.add("", res, words.DecideMarkdown(res, size, words.Link{})); err != nil {
		return err
	}
	if size != nil {
		// The decision's summary holds the sizing's words already.
		return v.add("size", size, "")
	}
	return nil
}

// packed is a link's packed value (aa=, compare=, history=) read by
// decode: ErrNotRendered when the link holds none, decode's error (share's
// words: the data is damaged, cut short or changed) when it cannot be read.
func packed[T any](text string, decode func(string) (T, error)) (T, error) {
	if text == "" {
		var none T
		return none, ErrNotRendered
	}
	return decode(text)
}

func (v *View) aa(text string) error {
	s, err := packed(text, share.DecodeAA)
	if err != nil {
		return err
	}
	if s.Baseline == nil {
		return errors.New("its data holds no baseline")
	}
	// The check's options the link carries (the first format's for a link
	// made before links carried them); the simulation is left to the CLI,
	// as on the page.
	in, err := s.Input()
	if err != nil {
		return err
	}
	var cn, cr int
	if s.Candidate != nil {
		cn, cr = len(s.Candidate.Scenarios), len(s.Candidate.Runs)
	}
	if aa.Work(s.Baseline, cn, cr, in.Options) > MaxWorkSteps {
		return ErrNotRendered // the page computes it, in slices
	}
	res, err := aa.Check(s.Baseline, s.Candidate, in.Options)
	if err != nil {
		return err
	}
	blocks := res.Candidate != nil && res.Candidate.Blocks
	v.Tone = tone(blocks, res.Candidate != nil && !blocks)
	return v.add("", res, words.AAMarkdown(res, words.Link{}))
}

func (v *View) quarantine(query, registry string) error {
	v.Form = share.ReadForm(share.QuarantineFields, query)
	frac := func(key string) (float64, error) {
		f := param.Field{Key: key, Kind: param.Fraction}
		x, absent, err := f.Read(v.Form[key])
		if err == nil && absent {
			err = f.Missing()
		}
		if err != nil {
			return 0, err
		}
		return x.(float64), nil
	}
	below, err1 := frac("below")
	conf, err2 := frac("confidence")
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	rule, err := quarantine.CleanRunsFor(below, conf)
	if err != nil {
		return err
	}
	if registry != "" {
		today := strings.TrimSpace(v.Form["today"])
		if today == "" {
			// A link always holds its date (share.Quarantine): without
			// one, today here is not the same link's answer everywhere.
			return errors.New("this link's check has no date")
		}
		s, err := share.DecodeQuarantine(registry)
		if err != nil {
			return fmt.Errorf("this link's registry could not be read: %w", err)
		}
		res, _, err := quarantine.Check(s.Registry, s.Reports, s.Options(today))
		if err != nil {
			return err
		}
		if s.Reports == nil {
			res.Warnings = append(res.Warnings, words.NoReportsCaveat)
		}
		v.Tone = tone(res.Blocks, !res.Blocks)
		if err := v.add("check", res, words.QuarantineMarkdown(res, words.Link{})); err != nil {
			return err
		}
	}
	return v.add("rule", rule, words.CleanRunsMarkdown(rule, words.Link{}))
}

func (v *View) compare(text string) error {
	res, err := packed(text, compared)
	if err != nil {
		return err
	}
	return v.add("compare", res, words.CompareMarkdown(res, words.Link{}))
}

// compared is the comparison of the two sides a compare= value packs.
func compared(text string) (*compare.Result, error) {
	s, err := share.DecodeCompare(text)
	if err != nil {
		return nil, err
	}
	a, b, opt := s.Sides()
	return compare.Compare(a, b, opt)
}

func (v *View) board(text string) error {
	s, err := packed(text, share.DecodeBoard)
	if err != nil {
		return err
	}
	models, opt := s.Board()
	if boardWork(models) > MaxWorkSteps {
		return ErrNotRendered // the page computes it
	}
	res, err := compare.Leaderboard(models, opt)
	if err != nil {
		return err
	}
	v.Title = "Leaderboard"
	return v.add("board", res, words.BoardMarkdown(res, words.Link{}))
}

// boardWork is a leaderboard's paired answers to test, K(K−1)/2 pairs of
// the first model's questions each (as compare.Leaderboard bounds it,
// before any test runs).
func boardWork(models []compare.Model) float64 {
	k := float64(len(models))
	return k * (k - 1) / 2 * 2 * float64(len(models[0].Side.Scenarios))
}

func (v *View) history(text string) error {
	res, err := packed(text, share.DecodeHistory)
	if err != nil {
		return err
	}
	res.Link, res.LinkNote = "", "" // a link's own address is the page's
	return v.add("", res, words.HistoryMarkdown(res, words.Link{}))
}

// tone is the answer box's colour.
func tone(blocks, passes bool) string {
	switch {
	case blocks:
		return "bad"
	case passes:
		return "good"
	}
	return "note"
}

// firstLine is a Markdown summary's first line without its emphasis: the
// answer sentence.
func firstLine(md string) string {
	line, _, _ := strings.Cut(md, "\n")
	return unescape(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "**"), "**"))
}
