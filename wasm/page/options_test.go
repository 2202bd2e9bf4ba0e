package page

import (
	"html"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

type historyT struct {
	History
	ctx app.Context
}

func (h *historyT) OnPreRender(ctx app.Context) { h.ctx = ctx }

// must fails the test on an error and gives the value:
// must[T](t)(f()) for an f that returns (v T, err error).
func must[T any](t *testing.T) func(T, error) T {
	t.Helper()
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// schemaRefusal is the words the schema refuses text of field key in, as
// the page shows them at the field.
func schemaRefusal[T any](t *testing.T, s *param.Schema[T], key, text string) string {
	t.Helper()
	_, err := s.Parse(map[string]string{key: text})
	if err == nil {
		t.Fatalf("%s=%q is read", key, text)
	}
	return errText(param.First(err))
}

// fieldRefusal is the text of the error shown at field key ("" for none).
func fieldRefusal(page, key string) string {
	_, after, ok := strings.Cut(page, `data-error="`+key+`"`)
	if !ok {
		return ""
	}
	_, after, _ = strings.Cut(after, ">")
	msg, _, _ := strings.Cut(after, "<")
	return html.UnescapeString(msg)
}

// TestAAOptionsChangeTheAnswer: the A/A page's Options start closed at the
// defaults; a rule typed as a percentage gives the figures the core gives
// with that rule set directly, the link carries it, and the link opens
// with the rule in its field and the section open. A refused value shows
// the schema's words at its field and no figure.
func TestAAOptionsChangeTheAnswer(t *testing.T) {
	c := &aaT{}
	e := load(t, c)
	c.LoadExample(c.ctx)
	settle(e, c.ctx)
	if c.opts.open || c.opts.st["rule"] != "0.02" {
		t.Fatalf("the options start open or not at the defaults: %v %v", c.opts.open, c.opts.st)
	}
	c.SetOption(c.ctx, "rule", "5%")
	settle(e, c.ctx)
	opt := aa.DefaultOptions
	opt.Depth.Drop = 0.05
	ex := exampleAA()
	want := must[*aa.Result](t)(aa.Check(ex.Baseline, ex.Candidate, opt))
	if got := c.Result(); got == nil || string(jsonOf(t, got)) != string(jsonOf(t, want)) {
		t.Fatalf("rule 5%%: the figures are not the core's with a 0.05 rule")
	}
	frag := fragmentOf(c.ctx.Page().URL())
	s, err := share.DecodeAA(strings.TrimPrefix(frag, "aa="))
	if err != nil {
		t.Fatal(err)
	}
	if in, err := s.Input(); err != nil || in.Options.Depth.Drop != 0.05 {
		t.Errorf("the link holds rule %v (%v), want 0.05", in.Options.Depth.Drop, err)
	}

	d := &aaT{}
	e2 := load(t, d)
	follow(e2, d.ctx, d, &url.URL{Path: "/aa", RawQuery: frag})
	if !d.opts.open || d.opts.st["rule"] != "0.05" {
		t.Errorf("the link opens with options %v (open %v), want rule 0.05 and the section open", d.opts.st, d.opts.open)
	}
	if got := d.Result(); got == nil || string(jsonOf(t, got)) != string(jsonOf(t, want)) {
		t.Errorf("the link's figures differ from the page's")
	}

	c.SetOption(c.ctx, "rule", "abc")
	settle(e, c.ctx)
	html := app.HTMLString(c)
	if want := schemaRefusal(t, param.AA, "rule", "abc"); c.Result() != nil || fieldRefusal(html, "rule") != want {
		t.Errorf("rule abc: result %v, refusal at the field %q, want %q", c.Result() != nil, fieldRefusal(html, "rule"), want)
	}
	if in, err := c.shareState(); !err || in.Options["rule"] != "0.05" {
		t.Errorf("the link of a refused option holds %v, want the last rule read, 0.05", in.Options)
	}
	c.SetOption(c.ctx, "rule", "2%")
	settle(e, c.ctx)
	if c.Result() == nil || fieldRefusal(app.HTMLString(c), "rule") != "" {
		t.Error("the refusal stays after a good rule")
	}
}

// TestCompareOptionsChangeTheAnswer: a level typed as a percentage gives
// the core's comparison at that level, and the link carries it; a level
// the calculator refuses (1.5, which the schema reads) is shown at the
// level's field in the calculator's words, not as the comparison's error.
func TestCompareOptionsChangeTheAnswer(t *testing.T) {
	c := &compareT{}
	e := load(t, c)
	a, b := exampleCompare()
	c.Open(c.ctx, a, b, compare.DefaultOptions)
	c.SetOption(c.ctx, "level", "90%")
	settle(e, c.ctx)
	opt := compare.DefaultOptions
	opt.Level = 0.9
	want := must[*compare.Result](t)(compare.Compare(a, b, opt))
	if got := c.Result(); got == nil || string(jsonOf(t, got)) != string(jsonOf(t, want)) {
		t.Fatal("level 90%: the comparison is not the core's at 0.9")
	}
	s, err := share.DecodeCompare(strings.TrimPrefix(fragmentOf(c.ctx.Page().URL()), "compare="))
	if _, _, o := s.Sides(); err != nil || o.Level != 0.9 {
		t.Errorf("the link holds level %v (%v), want 0.9", o.Level, err)
	}

	_, calcErr := compare.Compare(a, b, compare.Options{Level: 1.5, Power: 0.8, Effect: 0.02, MaxListed: 100})
	c.SetOption(c.ctx, "level", "1.5")
	settle(e, c.ctx)
	html := app.HTMLString(c)
	if c.Result() != nil || calcErr == nil || fieldRefusal(html, "level") != errText(calcErr) || strings.Contains(html, `data-error="compare"`) {
		t.Errorf("level 1.5: result %v, at the field %q, want %v once", c.Result() != nil, fieldRefusal(html, "level"), calcErr)
	}
}

// TestHistoryOptionsChangeTheAnswer: on the example's runs, counting the
// incidents gives the core's result with KeepIncidents set; an alpha of
// 1.5 is refused at its field in history.Options' words. A link holds the
// answer and not the runs: its page says the options need the reports.
func TestHistoryOptionsChangeTheAnswer(t *testing.T) {
	h := &historyT{}
	e := load(t, h)
	h.compute(exampleHistory())
	h.writeURL(h.ctx)
	h.SetOption(h.ctx, "keep_incidents", "true")
	settle(e, h.ctx)
	runs, _ := exampleHistory()
	opt := history.DefaultOptions
	opt.KeepIncidents = true
	want := must[*history.Result](t)(runs.Result(opt))
	if got := h.Result(); got == nil || !got.KeptIncidents || string(jsonOf(t, got)) != string(jsonOf(t, want)) {
		t.Fatal("keep_incidents: the result is not the core's with the incidents kept")
	}
	frag := fragmentOf(h.ctx.Page().URL())
	if r, err := share.DecodeHistory(strings.TrimPrefix(frag, "history=")); err != nil || !r.KeptIncidents {
		t.Errorf("the link's result does not keep the incidents (%v)", err)
	}

	h.SetOption(h.ctx, "alpha", "1.5")
	settle(e, h.ctx)
	bad := history.DefaultOptions
	bad.Alpha = 1.5
	if html := app.HTMLString(h); h.Result() != nil || fieldRefusal(html, "alpha") != errText(bad.Check()) {
		t.Errorf("alpha 1.5: result %v, at the field %q, want %q", h.Result() != nil, fieldRefusal(html, "alpha"), errText(bad.Check()))
	}

	l := &historyT{}
	e2 := load(t, l)
	follow(e2, l.ctx, l, &url.URL{Path: "/history", RawQuery: frag})
	if html := app.HTMLString(l); l.Result() == nil || !strings.Contains(html, `id="options-link-note"`) {
		t.Error("a link's page does not say that its options need the reports")
	}
}

// TestOptionFieldsAreLabelled: every option each page offers has a label
// and a hint in words (words.Options), and its input is tied to them.
func TestOptionFieldsAreLabelled(t *testing.T) {
	for name, fields := range map[string][]field{"aa": newAAOptions().fields, "compare": newCompareOptions().fields,
		"history": newHistoryOptions().fields} {
		for _, f := range fields {
			if f.Label == "" || f.Hint == "" {
				t.Errorf("%s %s: label %q, hint %q", name, f.Key, f.Label, f.Hint)
			}
		}
	}
	h := &historyT{}
	load(t, h)
	html := app.HTMLString(h)
	for _, f := range newHistoryOptions().fields {
		if !strings.Contains(html, `<label for="in-`+f.Key+`">`) || !strings.Contains(html, `id="in-`+f.Key+`"`) {
			t.Errorf("history %s: no input tied to its label", f.Key)
		}
	}
}

// TestAASimulationStaysAsked: a link that asks for the gate simulation,
// which the page does not run, opens with a note saying where it runs, and
// an option typed on it keeps the simulation asked for in the new link.
func TestAASimulationStaysAsked(t *testing.T) {
	in := param.AA.Default()
	in.Simulate = true
	ex := exampleAA()
	ex.Options = share.AAOptionsText(in)
	enc := must[string](t)(share.EncodeAA(ex))
	c := &aaT{}
	e := load(t, c)
	follow(e, c.ctx, c, &url.URL{Path: "/aa", RawQuery: "aa=" + enc})
	if html := app.HTMLString(c); c.Result() == nil || !strings.Contains(html, `id="options-sim-note"`) {
		t.Fatal("a link asking for the simulation has no figures or no note")
	}
	c.SetOption(c.ctx, "seed", "7")
	settle(e, c.ctx)
	s := must[share.AAState](t)(share.DecodeAA(strings.TrimPrefix(fragmentOf(c.ctx.Page().URL()), "aa=")))
	if got := must[param.AAInput](t)(s.Input()); !got.Simulate || got.Seed != 7 {
		t.Errorf("the new link holds simulate %v, seed %d; want true, 7", got.Simulate, got.Seed)
	}
}

// FuzzOptionsForm: any text in any option of the three pages is read as
// the schema reads it alone, or refused with a fault at that field (or,
// for history, the options' own check).
func FuzzOptionsForm(f *testing.F) {
	for _, s := range []string{"0.9", "95%", "1 2; 4", "abc", "", "1e400", "-1", "true", "2026-02-30", "1m30s"} {
		for pick := range uint8(16) {
			f.Add(pick, s)
		}
	}
	type pick struct {
		key   string
		read  func(map[string]string) (any, error)
		alone func(map[string]string) (any, error)
	}
	var picks []pick
	add := func(keys []string, read, alone func(map[string]string) (any, error)) {
		for _, k := range keys {
			picks = append(picks, pick{k, read, alone})
		}
	}
	add(aaOptionKeys, func(m map[string]string) (any, error) { return AAOptionsFrom(m) },
		func(m map[string]string) (any, error) { return param.AA.Parse(m) })
	add(compareOptionKeys, func(m map[string]string) (any, error) { return CompareOptionsFrom(m) },
		func(m map[string]string) (any, error) { return param.Compare.Parse(m) })
	add(historyOptionKeys(), func(m map[string]string) (any, error) { return HistoryOptionsFrom(m) },
		func(m map[string]string) (any, error) {
			o, err := param.History.Parse(m)
			if err == nil {
				err = o.Check()
			}
			return o, err
		})
	f.Fuzz(func(t *testing.T, n uint8, text string) {
		p := picks[int(n)%len(picks)]
		m := map[string]string{p.key: text}
		got, err := p.read(m)
		want, wantErr := p.alone(m)
		switch {
		case (err == nil) != (wantErr == nil):
			t.Fatalf("%s=%q: the page says %v, the schema %v", p.key, text, err, wantErr)
		case err != nil && errText(param.First(err)) != errText(param.First(wantErr)):
			t.Fatalf("%s=%q: the page refuses %q, the schema %q", p.key, text, errText(param.First(err)), errText(param.First(wantErr)))
		case err == nil && !reflect.DeepEqual(got, want):
			t.Fatalf("%s=%q: the page reads %+v, the schema %+v", p.key, text, got, want)
		}
	})
}
