package quarantine

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/stat"
)

// ClaimTolerance is how far a stored rate or interval bound may be from
// the value its counts give: a bound rounded to four decimals passes, a
// bound from other counts does not.
const ClaimTolerance = 5e-5

// pathError is a fault in a registry at a JSON path ("tests[2].claim").
type pathError struct {
	kind core.Kind
	path string
	msg  string
}

func (e *pathError) Error() string { return e.path + ": " + e.msg }

func faultf(path, format string, args ...any) *pathError {
	return &pathError{kind: core.Invalid, path: path, msg: fmt.Sprintf(format, args...)}
}

// Validate checks a registry as Read does, with today, YYYY-MM-DD, as the
// latest date an entry may carry: the version, at most MaxTests entries,
// unique test ids, non-empty owners and reasons, dates that are real days
// and not in the future (an expiry may be, and is not before its opening),
// a claim of at least one trial whose rate and Wilson interval match its
// counts at its confidence (within ClaimTolerance), a release rule with a
// rate and a confidence in (0,1) that some number of clean runs can meet,
// and evidence since the claim that counts no more passes than trials.
//
// The error is a *core.Error of Kind Invalid whose Field is the JSON path
// of the fault, such as "tests[3].claim.upper".
func Validate(reg *Registry, today string) error {
	if err := validate(reg, today); err != nil {
		if pe, ok := err.(*pathError); ok {
			return &core.Error{Kind: pe.kind, Field: pe.path, Msg: pe.msg}
		}
		return err
	}
	return nil
}

func validate(reg *Registry, today string) error {
	now, err := parseDate(today)
	if err != nil {
		return core.FieldErrorf("today", "must be a date YYYY-MM-DD, got %q", today)
	}
	if reg.Version != Version {
		return faultf("version", "want %d, got %d", Version, reg.Version)
	}
	if len(reg.Tests) > MaxTests {
		return &pathError{kind: core.TooLarge, path: "tests", msg: fmt.Sprintf("%d tests: a registry holds at most %d", len(reg.Tests), MaxTests)}
	}
	first := make(map[string]int, len(reg.Tests))
	for i, e := range reg.Tests {
		path := fmt.Sprintf("tests[%d]", i)
		if err := validateEntry(&e, path, now); err != nil {
			return err
		}
		if j, dup := first[e.Test]; dup {
			return faultf(path+".test", "%q is already quarantined by tests[%d]: a test has one entry", e.Test, j)
		}
		first[e.Test] = i
	}
	return validateCounted(reg.Counted, now)
}

func validateEntry(e *Entry, path string, today time.Time) error {
	if err := checkText(path+".test", e.Test, MaxIDBytes, "the test's id as its reports name it"); err != nil {
		return err
	}
	if err := checkText(path+".owner", e.Owner, MaxTextBytes, "who answers for the test"); err != nil {
		return err
	}
	if err := checkText(path+".reason", e.Reason, MaxTextBytes, "why the test is quarantined"); err != nil {
		return err
	}
	opened, err := checkDate(path+".opened", e.Opened, today)
	if err != nil {
		return err
	}
	expires, err := parseDate(e.Expires)
	if err != nil {
		return faultf(path+".expires", "must be a date YYYY-MM-DD, got %q", e.Expires)
	}
	if expires.Before(opened) {
		return faultf(path+".expires", "%s is before the day the test was quarantined, %s", e.Expires, e.Opened)
	}
	if err := checkClaim(path+".claim", e.Claim, today); err != nil {
		return err
	}
	if err := checkRelease(path+".release", e.Release); err != nil {
		return err
	}
	switch r := e.Release; {
	case r.Runs < 0 || r.Failed < 0:
		return faultf(path+".release", "counts must not be negative")
	case r.Failed > r.Runs:
		return faultf(path+".release.failed", "%d failed runs is more than the %d runs counted", r.Failed, r.Runs)
	}
	s := e.Since
	switch {
	case s.Trials < 0 || s.Passed < 0 || s.Clean < 0 || s.Runs < 0:
		return faultf(path+".since", "counts must not be negative")
	case s.Passed > s.Trials:
		return faultf(path+".since.passed", "%d passes is more than the %d trials since the claim", s.Passed, s.Trials)
	case s.Runs > s.Trials:
		return faultf(path+".since.runs", "%s is more than the %s since the claim: every run holds at least one trial",
			core.Nouns(s.Runs, "run"), core.Nouns(s.Trials, "trial"))
	case s.Clean > s.Runs+e.Claim.Passed:
		return faultf(path+".since.clean", "%s in a row is more than the evidence holds: %s since the claim and the claim's %s",
			core.Nouns(s.Clean, "clean run"), core.Nouns(s.Runs, "run"), core.Nouns(e.Claim.Passed, "passing trial"))
	}
	if s.Checked != "" {
		checked, err := checkDate(path+".since.checked", s.Checked, today)
		if err != nil {
			return err
		}
		if claimed, err := parseDate(e.Claim.Date); err == nil && checked.Before(claimed) {
			return faultf(path+".since.checked", "%s is before the claim's date, %s: evidence since the claim is checked after it", s.Checked, e.Claim.Date)
		}
	}
	return nil
}

// checkRunID checks a run's identity: 1 to MaxRunIDBytes ASCII letters and
// digits.
func checkRunID(path, id string) error {
	if id == "" || len(id) > MaxRunIDBytes {
		return faultf(path, "a run's identity has 1 to %d letters and digits, got %d bytes", MaxRunIDBytes, len(id))
	}
	for _, r := range id {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return faultf(path, "%q: a run's identity has letters and digits only", clip(id))
		}
	}
	return nil
}

// validateCounted checks the runs counted: at most MaxCounted, each a
// valid identity, once, on a real day not after today.
func validateCounted(cs []CountedRun, today time.Time) error {
	if len(cs) > MaxCounted {
		return &pathError{kind: core.TooLarge, path: "counted", msg: fmt.Sprintf("%d runs: a registry remembers at most %d", len(cs), MaxCounted)}
	}
	first := make(map[string]int, len(cs))
	for i, c := range cs {
		path := fmt.Sprintf("counted[%d]", i)
		if err := checkRunID(path+".run", c.Run); err != nil {
			return err
		}
		if j, dup := first[c.Run]; dup {
			return faultf(path+".run", "%s is already counted[%d]: a run is counted once", c.Run, j)
		}
		first[c.Run] = i
		if _, err := checkDate(path+".date", c.Date, today); err != nil {
			return err
		}
	}
	return nil
}

// checkText checks a string field: not blank, no blanks at either end, no
// control characters, at most max bytes.
func checkText(path, s string, max int, what string) error {
	switch {
	case strings.TrimSpace(s) == "":
		return faultf(path, "must not be empty: give %s", what)
	case strings.TrimSpace(s) != s:
		return faultf(path, "%q has blanks at its start or end", clip(s))
	case len(s) > max:
		return faultf(path, "is %d bytes long; at most %d", len(s), max)
	case strings.ContainsFunc(s, unicode.IsControl):
		return faultf(path, "%q contains a control character (a line break or a tab); keep it on one line", clip(s))
	}
	return nil
}

// clip shortens s for a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

func parseDate(s string) (time.Time, error) { return time.Parse(time.DateOnly, s) }

// checkDate parses a date that must not be after today.
func checkDate(path, s string, today time.Time) (time.Time, error) {
	t, err := parseDate(s)
	if err != nil {
		return t, faultf(path, "must be a date YYYY-MM-DD, got %q", s)
	}
	if t.After(today) {
		return t, faultf(path, "%s is in the future (today is %s)", s, today.Format(time.DateOnly))
	}
	return t, nil
}

func checkClaim(path string, c gate.Claim, today time.Time) error {
	switch {
	case c.Trials < 1:
		return faultf(path+".trials", "a claim needs at least one trial, got %d", c.Trials)
	case c.Passed > c.Trials:
		return faultf(path+".passed", "%d passes is more than the claim's %d trials", c.Passed, c.Trials)
	case !(c.Confidence > 0 && c.Confidence < 1):
		return faultf(path+".confidence", "must be in (0,1), got %v", c.Confidence)
	}
	if _, err := checkDate(path+".date", c.Date, today); err != nil {
		return err
	}
	want := claimOf(c.Passed, c.Trials, c.Confidence, c.Date)
	for _, f := range []struct {
		name      string
		got, want float64
		what      string
	}{
		{"rate", c.Rate, want.Rate, "the rate"},
		{"lower", c.Lower, want.Lower, "the Wilson lower bound"},
		{"upper", c.Upper, want.Upper, "the Wilson upper bound"},
	} {
		if !(math.Abs(f.got-f.want) <= ClaimTolerance) {
			return faultf(path+"."+f.name, "%v does not match %d/%d at %v confidence: %s is %.5f; correct the counts or the number (flakegate quarantine add writes both)",
				f.got, c.Passed, c.Trials, c.Confidence, f.what, f.want)
		}
	}
	return nil
}

func checkRelease(path string, r Release) error {
	switch {
	case !(r.Below > 0 && r.Below < 1):
		return faultf(path+".below", "the failure rate to prove the test below must be in (0,1), got %v", r.Below)
	case !(r.Confidence > 0 && r.Confidence < 1):
		return faultf(path+".confidence", "must be in (0,1), got %v", r.Confidence)
	case CleanRuns(r.Below, r.Confidence) > MaxCleanRuns/4 && CleanRunsChecked(r.Below, r.Confidence) > MaxCleanRuns:
		// The check after every run needs at most a few times the one-look
		// count: only rules near the limit are worth the search.
		return faultf(path+".below", "%v at %v confidence needs more than 2^53 clean runs: no suite can prove that; choose a larger rate", r.Below, r.Confidence)
	}
	return nil
}

// claimOf is the frozen claim of passed out of trials at confidence: the
// rate and its Wilson interval, as gate.Freeze records it.
func claimOf(passed, trials int64, confidence float64, date string) gate.Claim {
	a := gate.NewArm(core.Count{Passed: passed, Trials: trials}, stat.Z(confidence))
	rate := 0.0
	if a.Rate != nil {
		rate = *a.Rate
	}
	return gate.Claim{Passed: passed, Trials: trials, Rate: rate, Lower: a.Lower, Upper: a.Upper, Confidence: confidence, Date: date}
}
