package wasm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/share"
	"github.com/flakegate/flakegate/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var quarantineFields = []field{
	{Key: "below", Label: "Failure rate to prove a test below", Default: "0.01", Hint: "a fraction in (0,1) or a percentage, e.g. 0.01 or 1%"},
	{Key: "confidence", Label: "Confidence of the proof", Default: "0.95", Hint: "in (0,1), e.g. 0.95 or 95%"},
	{Key: "today", Label: "Date of the registry's check", Default: "", Hint: "YYYY-MM-DD: tests expire by it; blank for today"},
}

// QuarantineShare is the shareable state of a registry's check
// (share.QuarantineState); a quarantine link carries it as "registry=" +
// base64url(DEFLATE(JSON)).
type QuarantineShare = share.QuarantineState

// farFuture is the date a registry from a link is first read against: the
// check itself then holds its dates to the view's date.
const farFuture = "9999-12-31"

// maxShareTrials bounds a test's trials in a share's reports, so that no
// sum of them overflows.
const maxShareTrials = 1 << 53

// DecodeQuarantineShare reverses share.EncodeQuarantine. It reads the
// registry as strictly as the CLI reads the file (quarantine.Parse), and
// refuses an unknown field, another version, and counts no report could
// give. The check's settings are checked by the check itself.
func DecodeQuarantineShare(text string) (*QuarantineShare, error) {
	raw, err := unpackShare(text)
	if err != nil {
		return nil, err
	}
	return ParseQuarantineShareJSON(raw)
}

// ParseQuarantineShareJSON reads the uncompressed JSON of a
// QuarantineShare.
func ParseQuarantineShareJSON(raw []byte) (*QuarantineShare, error) {
	var s struct {
		Version    int                 `json:"v"`
		Registry   json.RawMessage     `json:"registry"`
		Reports    *quarantine.Reports `json:"reports"`
		Renames    map[string]string   `json:"renames"`
		Comparable float64             `json:"comparable"`
		Target     float64             `json:"target"`
		Cap        int64               `json:"cap"`
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&s); err != nil {
		return nil, fmt.Errorf("share data: %v", err)
	}
	if d.More() {
		return nil, errors.New("share data: more after the state")
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("share data: unknown version %d", s.Version)
	}
	if len(s.Registry) == 0 {
		return nil, errors.New("share data: no registry")
	}
	reg, err := quarantine.Parse(s.Registry, farFuture)
	if err != nil {
		return nil, fmt.Errorf("share data: the registry: %w", err)
	}
	if r := s.Reports; r != nil {
		if r.Runs < 0 {
			return nil, fmt.Errorf("share data: %d runs", r.Runs)
		}
		for id, runs := range r.Tests {
			var sum int64
			for _, c := range runs {
				if c.Trials < 0 || c.Passed < 0 || c.Passed > c.Trials || c.Trials > maxShareTrials-sum {
					return nil, fmt.Errorf("share data: test %q: passed %d of %d", id, c.Passed, c.Trials)
				}
				sum += c.Trials
			}
		}
		if r.Tests == nil {
			r.Tests = map[string][]core.Count{}
		}
		if r.Warnings == nil {
			r.Warnings = []string{}
		}
	}
	return &QuarantineShare{Version: 1, Registry: reg, Reports: s.Reports, Renames: s.Renames,
		Comparable: s.Comparable, Target: s.Target, Cap: s.Cap}, nil
}

// Quarantine is the page at "/quarantine": the clean runs that prove a
// failure rate below a target, and the check of a registry of quarantined
// tests dropped on it (or carried by its link).
type Quarantine struct {
	pageBase
	urlForm
	rule *quarantine.CleanRunsResult
	err  error // the form's faults

	state     *QuarantineShare // the registry's check, read once; nil when none
	stateErr  error            // why the dropped registry (or the link's) could not be read
	stateEnc  string           // the state as a fragment value; "" when none or too long
	stateLong int              // bytes of the state's fragment value when too long for a link
	res       *quarantine.Result
	resErr    error
}

// withState adds the registry's state to a form fragment. Keys stay sorted.
func (c *Quarantine) withState(frag string) string {
	if c.stateEnc == "" {
		return frag
	}
	v, _ := url.ParseQuery(frag)
	v.Set("registry", c.stateEnc)
	return v.Encode()
}

// openState reads the state a fragment carries, if any.
func (c *Quarantine) openState(frag string) {
	c.state, c.stateErr, c.stateEnc, c.stateLong = nil, nil, "", 0
	v, _ := url.ParseQuery(frag)
	enc := v.Get("registry")
	if enc == "" {
		return
	}
	if s, err := DecodeQuarantineShare(enc); err != nil {
		c.stateErr = fmt.Errorf("this link's registry could not be read: %w", err)
	} else {
		c.state, c.stateEnc = s, enc
	}
}

func (c *Quarantine) OnNav(ctx app.Context) {
	perfMark("nav")
	defer perfMark("nav-done")
	if frag := fragmentOf(ctx.Page().URL()); c.load(quarantineFields, frag) {
		c.openState(frag)
		c.compute()
	}
	ctx.Page().SetTitle("Quarantine on evidence · flakegate")
}

// SetField sets one input as if typed, recomputes and rewrites the URL.
func (c *Quarantine) SetField(ctx app.Context, key, value string) {
	c.frag = c.withState(c.set(quarantineFields, key, value))
	c.compute()
	keepInURL(ctx, c.frag)
}

// open sets the form and the registry from a URL fragment and computes.
func (c *Quarantine) open(frag string) {
	c.load(quarantineFields, frag)
	c.openState(frag)
	c.compute()
}

// today is the date of the check: the form's, or the day it is here.
func (c *Quarantine) today() (string, error) {
	t := strings.TrimSpace(c.st["today"])
	if t == "" {
		return time.Now().Format(time.DateOnly), nil
	}
	if _, err := time.Parse(time.DateOnly, t); err != nil {
		return "", inputErr("today", 0, "want a date YYYY-MM-DD, got "+strconv.Quote(t))
	}
	return t, nil
}

func (c *Quarantine) compute() {
	var errs FieldErrors
	below, err := parseFraction("below", c.st["below"])
	errs.add(err)
	conf, err := parseFraction("confidence", c.st["confidence"])
	errs.add(err)
	c.rule = nil
	if len(errs) == 0 {
		c.rule, err = quarantine.CleanRunsFor(below, conf)
		errs.add(err)
	}
	today, err := c.today()
	errs.add(err)
	c.err = errs.orNil()
	c.res, c.resErr = nil, c.stateErr
	if c.state == nil || err != nil {
		return
	}
	c.res, _, c.resErr = quarantine.Check(c.state.Registry, c.state.Reports, c.state.Options(today))
}

// SetRegistry reads a registry file, checks it against its own evidence
// on the form's date with the default settings, and puts it into the link
// (unless it is too long for one). A blank date becomes today's, so that
// the link reproduces the check on another day.
func (c *Quarantine) SetRegistry(ctx app.Context, name string, data []byte) {
	c.state, c.stateErr, c.stateEnc, c.stateLong = nil, nil, "", 0
	if c.st == nil {
		c.st = newFormState(quarantineFields)
	}
	today, err := c.today()
	if err == nil {
		c.st["today"] = today
		var reg *quarantine.Registry
		if reg, err = quarantine.Parse(data, today); err != nil {
			err = core.WithFile(err, name)
		} else {
			opt := quarantine.DefaultOptions
			s := share.NewQuarantineState(reg, nil, opt)
			c.state = &s
			if enc, err := share.EncodeQuarantine(s); err == nil {
				if len(enc)+len("registry=") > MaxShareFragment {
					c.stateLong = len(enc)
				} else {
					c.stateEnc = enc
				}
			}
		}
	}
	c.stateErr = err
	c.frag = c.withState(c.st.fragment(quarantineFields))
	c.compute()
	keepInURL(ctx, c.frag)
}

// Result is the registry's current check (nil when there is none).
func (c *Quarantine) Result() *quarantine.Result { return c.res }

// Rule is the current answer of the clean-runs calculator.
func (c *Quarantine) Rule() *quarantine.CleanRunsResult { return c.rule }

func (c *Quarantine) Render() app.UI {
	perfMark("render")
	if c.st == nil {
		c.open(openingFragment())
	}
	form := func(fields []field) app.UI {
		return app.Range(fields).Slice(func(i int) app.UI {
			f := fields[i]
			return fieldInput(f, c.st[f.Key], fieldError(c.err, f.Key), func(ctx app.Context, e app.Event) {
				c.SetField(ctx, f.Key, ctx.JSSrc().Get("value").String())
			})
		})
	}
	return c.shell("/quarantine", "Quarantine on evidence",
		"When has a quarantined flaky test proven it may leave? Not after a timer or a fixed streak: once its runs since the quarantine started, failures included, prove its failure rate below a target, however often it is checked.",
		app.Form().Class("calc").ID("quarantine-form").OnSubmit(preventSubmit).Body(form(quarantineFields[:2])),
		app.If(c.rule != nil, func() app.UI { return c.renderRule() }),
		app.Section().Class("registry").Aria("label", "Registry").Body(
			app.H2().Text("A registry of quarantined tests"),
			app.P().Text("Drop the registry file (quarantine.json, as flakegate quarantine add writes it) to see every test's state on the date below: still flaky, stale, released, expired or missing."),
			app.Form().Class("calc").ID("registry-form").OnSubmit(preventSubmit).Body(form(quarantineFields[2:])),
			dropZone("registry", "Registry file (JSON)", ".json,application/json", func(ctx app.Context, name string, blob app.Value) {
				ctx.Async(func() {
					data, err := readAll(blob)
					ctx.Dispatch(func(ctx app.Context) {
						if err != nil {
							c.stateErr, c.resErr = err, err
							return
						}
						c.SetRegistry(ctx, name, data)
					})
				})
			}),
			app.If(c.resErr != nil, func() app.UI {
				return app.P().Class("error").Role("alert").DataSet("error", "registry").Text(errString(c.resErr))
			}),
			app.If(c.stateLong > 0, func() app.UI {
				return app.P().Class("notice").Role("status").ID("registry-no-link").Text(words.RegistryTooLong(c.stateLong))
			}),
			app.If(c.res != nil, func() app.UI { return renderCheck(c.res) }),
		),
		formError(c.err, quarantineFields),
		app.If(c.rule != nil, func() app.UI {
			return app.Div().Body(
				c.copyButtons(func(link string) string { return c.markdown(words.Link{URL: link}) }),
				app.Details().Body(app.Summary().Text("Markdown"), app.Pre().ID("markdown").Text(c.markdown(words.Link{}))),
			)
		}),
	)
}

// markdown is the summary the page copies: the registry's check when
// there is one, else the release rule.
func (c *Quarantine) markdown(l words.Link) string {
	if c.res != nil {
		return words.QuarantineMarkdown(c.res, l)
	}
	return words.CleanRunsMarkdown(c.rule, l)
}

func (c *Quarantine) renderRule() app.UI {
	r := c.rule
	return app.Section().Class("result").ID("result").Aria("label", "Clean runs").DataSet("scope", "rule").Body(
		app.P().Class("summary").Body(
			fieldInt("clean_runs_checked", r.CleanRunsChecked), app.Text(" clean runs from the start of a quarantine release a test below "),
			fieldNum("below", r.Below, words.Level(r.Below)), app.Text(" at "),
			fieldNum("confidence", r.Confidence, words.Level(r.Confidence)), app.Text(" confidence, checked after every run ("),
			fieldInt("clean_runs", r.CleanRuns), app.Text(" in a row at one look)."),
		),
		app.P().Text(words.CleanRunsSentence(r)),
		app.P().Class("hint").Text("A clean run is a run the test passed. Every run since the quarantine started counts, failures included, and the count never restarts: a test that still fails at rate p or more is released at most 1 − c of the time, however often the registry is checked. At one look from one fixed start, m clean runs in a row prove a failure rate below p at confidence c when (1 − p)^m ≤ 1 − c."),
		warnings(r.Warnings),
	)
}

func hiddenFields(ui ...app.UI) app.UI { return app.Span().Class("hidden-field").Body(ui...) }

func renderCheck(r *quarantine.Result) app.UI {
	class := "verdict good"
	if r.Blocks {
		class = "verdict bad"
	}
	st := r.States
	checked := " against the registry's own evidence (no new reports)"
	if r.Reports {
		checked = " against " + words.Nouns(r.Runs, "run") + " of new reports"
	}
	return app.Div().DataSet("scope", "check").ID("check").Body(
		app.P().Class(class).Body(app.Text(words.QuarantineAnswer(r)+" "),
			hiddenFields(fieldBool("blocks", r.Blocks, "blocks", "passes"))),
		app.P().Body(
			app.Text("Checked "), fieldStr("today", r.Today), app.Text(checked+". "),
			hiddenFields(fieldBool("reports", r.Reports, "with reports", "without reports"), fieldInt("runs", int64(r.Runs))),
		),
		app.P().DataSet("scope", "states").Body(
			fieldInt("still_flaky", int64(st.StillFlaky)), app.Text(" still flaky, "),
			fieldInt("stale", int64(st.Stale)), app.Text(" stale, "),
			fieldInt("released", int64(st.Released)), app.Text(" released, "),
			fieldInt("expired", int64(st.Expired)), app.Text(" expired, "),
			fieldInt("missing", int64(st.Missing)), app.Text(" missing. Expired and missing tests block, and stale ones unless the test got better."),
		),
		app.Div().Class("table-wrap").Body(app.Table().Body(
			app.Caption().Text("Every quarantined test"),
			app.THead().Body(app.Tr().Body(th("Test"), th("State"), th("Owner"), th("Claim"), th("Since the claim"),
				th("Clean runs"), th("Reruns (lane)"), th("Expires"))),
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

func checkRow(i int, t quarantine.TestResult) app.UI {
	c, rel, b := t.Claim, t.Release, t.Budget
	return app.Tr().DataSet("scope", "tests."+strconv.Itoa(i)).Body(
		app.Td().Class("id").Body(fieldStr("test", t.Test),
			app.If(t.RenamedFrom != "", func() app.UI { return app.Small().Text(" (was " + t.RenamedFrom + ")") }),
			hiddenFields(fieldStr("renamed_from", t.RenamedFrom))),
		app.Td().Body(fieldStrText("state", t.State, words.TestStateWords(t)),
			hiddenFields(fieldBool("blocks", t.Blocks, "blocks", "does not block"), fieldBool("improving", t.Improving, "improving", "not improving"))),
		app.Td().Body(fieldStr("owner", t.Owner), app.Br(), app.Small().Body(fieldStr("reason", t.Reason))),
		app.Td().DataSet("scope", "claim").Body(
			fieldInt("passed", c.Passed), app.Text("/"), fieldInt("trials", c.Trials), app.Text(" · "),
			fieldNum("rate", c.Rate, words.Percent(c.Rate)), app.Text(" ["), fieldNum("lower", c.Lower, words.Percent(c.Lower)),
			app.Text(", "), fieldNum("upper", c.Upper, words.Percent(c.Upper)), app.Text("] on "), fieldStr("date", c.Date),
			hiddenFields(fieldNum("confidence", c.Confidence, words.Level(c.Confidence)))),
		app.Td().Body(
			checkArm("since", t.Since),
			app.If(t.Reported != nil, func() app.UI {
				return app.Small().Body(app.Br(), app.Text("new: "), checkArm("reported", *t.Reported))
			}).Else(func() app.UI { return hiddenFields(fieldNull("reported")) }),
			hiddenFields(fieldInt("runs", int64(t.Runs)), fieldBool("comparable", t.Comparable, "comparable", "too few to judge"))),
		app.Td().DataSet("scope", "release").Body(
			fieldInt("clean_runs_remaining", rel.Remaining), app.Text(" of "), fieldInt("clean_runs_needed", rel.Needed), app.Text(" to go"),
			app.Br(), app.Small().Body(app.Text("below "), fieldNum("below", rel.Below, words.Level(rel.Below)), app.Text(" at "),
				fieldNum("confidence", rel.Confidence, words.Level(rel.Confidence)), app.Text("; "),
				fieldInt("runs", rel.Runs), app.Text(" runs counted, "), fieldInt("failed", rel.Failed), app.Text(" with a failure")),
			hiddenFields(fieldInt("clean_runs", rel.Clean), fieldBool("proven", rel.Proven, "proven", "not yet"))),
		app.Td().DataSet("scope", "budget").Body(
			fieldOptInt("reruns", b.Reruns), app.Text(" ("), fieldStrText("lane", b.Lane, words.LaneWords(b.Lane)), app.Text(")"),
			hiddenFields(fieldNum("rate", b.Rate, words.Rate(b.Rate)), fieldStr("source", b.Source),
				fieldBool("reruns_overflow", b.RerunsOverflow, "beyond int64", "fits"),
				fieldOptNum("power", b.Power, words.Percent), fieldOptNum("power_one_short", b.PowerOneShort, words.Percent),
				fieldOptNum("gain", b.Gain, words.Percent), fieldNum("power_at_cap", b.PowerAtCap, words.Percent(b.PowerAtCap)),
				fieldOptNum("seconds", b.Seconds, words.Duration), fieldStr("action", b.Action),
				fieldBool("over_cap", b.OverCap, "over the cap", "within the cap"))),
		app.Td().Body(fieldStr("expires", t.Expires), app.Br(), app.Small().Body(daysLeft(t.DaysLeft)),
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
