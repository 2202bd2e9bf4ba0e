package page

import (
	"net/url"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// quarantineFields are the quarantine form's fields: the release rule's
// inputs (param.QuarantineRelease) and the check's date
// (param.QuarantineCheck), starting from their defaults, with the page's
// labels and hints.
var quarantineFields = formFields(quarantineInputs(), param.QuarantineRelease.Starts(), map[string]field{
	"below":      {Label: "Failure rate to prove a test below", Hint: "a fraction in (0,1) or a percentage, e.g. 0.01 or 1%"},
	"confidence": {Label: "Confidence of the proof", Hint: "in (0,1), e.g. 0.95 or 95%"},
	"today":      {Label: "Date of the registry's check", Hint: "YYYY-MM-DD: tests expire by it; blank for today"},
})

func quarantineInputs() []param.Field {
	today, _ := param.QuarantineCheck.Field("today")
	return append(append([]param.Field{}, param.QuarantineRelease.Fields...), today)
}

// QuarantineShare is the shareable state of a registry's check
// (share.QuarantineState); a quarantine link carries it as "registry=" +
// base64url(DEFLATE(JSON)).
type QuarantineShare = share.QuarantineState

// Quarantine is the page at "/quarantine": the clean runs that prove a
// failure rate below a target, and the check of a registry of quarantined
// tests dropped on it (or carried by its link), against the night's test
// reports dropped beside it, as `flakegate quarantine check` checks it.
type Quarantine struct {
	pageBase
	urlForm
	rule *quarantine.CleanRunsResult
	err  error // the form's faults

	state     *QuarantineShare // the registry's check, read once; nil when none
	stateErr  error            // why the dropped registry (or the link's) could not be read
	stateEnc  string           // the state as a fragment value; "" when none or too long
	stateLong int              // bytes of the state's fragment value when too long for a link
	reports   []droppedFile    // the report files read, in the order dropped
	reportErr error            // why a dropped report could not be read; the reports before it stay
	res       *quarantine.Result
	resErr    error
}

// fragment is the view's link: the form, the registry's state, and always
// the date of the check, so that the link reopens the same check on
// another day (a blank date is today's). Keys stay sorted.
func (c *Quarantine) fragment() string {
	v, _ := url.ParseQuery(c.st.fragment(quarantineFields))
	if v.Get("today") == "" {
		if today, err := c.today(); err == nil {
			v.Set("today", today)
		}
	}
	if c.stateEnc != "" {
		v.Set("registry", c.stateEnc)
	}
	return v.Encode()
}

// openState reads the state a fragment carries, if any.
func (c *Quarantine) openState(frag string) {
	c.stateLong, c.reports, c.reportErr = 0, nil, nil
	c.state, c.stateEnc, c.stateErr = openShared(frag, "registry", share.DecodeQuarantine)
}

func (c *Quarantine) OnNav(ctx app.Context) {
	c.nav(ctx, quarantineFields, "Quarantine on evidence · flakegate", c.open)
}

// SetField sets one input as if typed, recomputes and rewrites the URL.
func (c *Quarantine) SetField(ctx app.Context, key, value string) {
	c.set(quarantineFields, key, value)
	c.compute()
	c.writeURL(ctx)
}

func (c *Quarantine) writeURL(ctx app.Context) {
	if c.st == nil {
		c.st = newFormState(quarantineFields)
	}
	c.frag = c.fragment()
	keepInURL(ctx, c.frag)
}

// open sets the form and the registry from a URL fragment and computes.
func (c *Quarantine) open(frag string) {
	c.load(quarantineFields, frag)
	c.openState(frag)
	c.compute()
}

// Open shows the view of a fragment (an example's) and writes it into the
// address bar, as following its link does.
func (c *Quarantine) Open(ctx app.Context, frag string) {
	c.open(frag)
	keepInURL(ctx, frag)
}

// today is the date of the check: the form's, or the day it is here.
func (c *Quarantine) today() (string, error) {
	f, _ := param.QuarantineCheck.Field("today")
	v, absent, err := f.Read(c.st["today"])
	if err != nil {
		return "", err
	}
	if absent {
		return time.Now().Format(time.DateOnly), nil
	}
	return v.(string), nil
}

func (c *Quarantine) compute() {
	rel, err := param.QuarantineRelease.Parse(map[string]string{"below": c.st["below"], "confidence": c.st["confidence"]})
	errs := errorList(err)
	c.rule = nil
	if len(errs) == 0 {
		if c.rule, err = quarantine.CleanRunsFor(rel.Below, rel.Confidence); err != nil {
			errs = append(errs, err)
		}
	}
	today, err := c.today()
	if err != nil {
		errs = append(errs, err)
	}
	c.err = errs.Err()
	c.res, c.resErr = nil, c.stateErr
	if c.state == nil || err != nil {
		return
	}
	c.res, _, c.resErr = quarantine.Check(c.state.Registry, c.state.Reports, c.state.Options(today))
	if c.res != nil && c.state.Reports == nil {
		// The caveat `flakegate quarantine check` gives a check without
		// reports.
		c.res.Warnings = append(c.res.Warnings, words.NoReportsCaveat)
	}
}

// SetRegistry reads a registry file, checks it on the form's date with the
// default settings against the reports dropped (none: its own evidence),
// and puts it into the link (unless it is too long for one). A blank date
// becomes today's, so that the link reproduces the check on another day.
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
			rep, _ := c.readReports(c.reports) // read before, so readable
			s := share.NewQuarantineState(reg, rep, quarantine.DefaultOptions)
			c.setState(&s)
		}
	}
	c.stateErr = err
	c.compute()
	c.writeURL(ctx)
}

// AddReports reads test reports (any format core/report detects, each file
// one run, named after the file as the CLI names it) beside those read
// before, and checks the registry against them all, as `flakegate
// quarantine check` checks it against the reports it is given. A file that
// cannot be read is named in the error and leaves the reports as they were.
func (c *Quarantine) AddReports(ctx app.Context, files []droppedFile) {
	all := withFiles(c.reports, ledger.ArmBaseline, files)
	rep, err := c.readReports(all)
	if err != nil {
		c.reportErr = err
	} else {
		c.reports, c.reportErr = all, nil
		c.checkAgainst(rep)
	}
	c.compute()
	c.writeURL(ctx)
}

// ClearReports forgets the report files and the reports of the link: the
// registry is checked against its own evidence again.
func (c *Quarantine) ClearReports(ctx app.Context) {
	c.reports, c.reportErr = nil, nil
	c.checkAgainst(nil)
	c.compute()
	c.writeURL(ctx)
}

// checkAgainst puts rep (nil for none) into the registry's state, if
// there is one.
func (c *Quarantine) checkAgainst(rep *quarantine.Reports) {
	if c.state != nil {
		s := *c.state
		s.Reports = rep
		c.setState(&s)
	}
}

// readReports is the reports of files; nil for none.
func (c *Quarantine) readReports(files []droppedFile) (*quarantine.Reports, error) {
	if len(files) == 0 {
		return nil, nil
	}
	l, err := readDropped(files)
	if err != nil {
		return nil, err
	}
	return quarantine.FromLedger(l), nil
}

// setState installs a registry's state and its link.
func (c *Quarantine) setState(s *QuarantineShare) {
	enc, err := share.EncodeQuarantine(*s)
	c.state = s
	c.stateEnc, c.stateLong = fitLink("registry", enc, err)
}

// Result is the registry's current check (nil when there is none).
func (c *Quarantine) Result() *quarantine.Result { return c.res }

// Rule is the current answer of the clean-runs calculator.
func (c *Quarantine) Rule() *quarantine.CleanRunsResult { return c.rule }

// markdown is the summary the page copies: the registry's check when
// there is one (what `flakegate quarantine check -markdown` writes), else
// the release rule (`flakegate quarantine runs -markdown`).
func (c *Quarantine) markdown(l words.Link) string {
	if c.res != nil {
		return words.QuarantineMarkdown(c.res, l)
	}
	return words.CleanRunsMarkdown(c.rule, l)
}
