package quarantine

import (
	"fmt"
	"slices"

	"github.com/flakegate/flakegate/core"
)

// DefaultRelease asks a test to prove its failure rate below 1% at 95%
// confidence: 299 clean runs in a row.
var DefaultRelease = Release{Below: 0.01, Confidence: core.DefaultConfidence}

// NewEntry is the entry of a test quarantined today: its claim is c,
// measured today, with its Wilson interval at confidence.
func NewEntry(test, owner, reason, today, expires string, c core.Count, confidence float64, rel Release) Entry {
	return Entry{Test: test, Owner: owner, Reason: reason, Opened: today, Expires: expires,
		Claim: claimOf(c.Passed, c.Trials, confidence, today), Release: rel}
}

// Add returns reg with the entries added, in canonical form. A test that
// is already quarantined, given twice, or an entry that Validate refuses is
// a *core.Error naming the test.
func Add(reg *Registry, today string, entries ...Entry) (*Registry, error) {
	if err := Validate(reg, today); err != nil {
		return nil, err
	}
	have := map[string]Entry{}
	for _, e := range reg.Tests {
		have[e.Test] = e
	}
	out := &Registry{Version: Version, Tests: slices.Clone(reg.Tests), Counted: slices.Clone(reg.Counted)}
	for _, e := range entries {
		if old, ok := have[e.Test]; ok {
			return nil, core.FieldErrorf("test", "%s is already quarantined (owner %s, until %s): renew it, or remove it first", e.Test, old.Owner, old.Expires)
		}
		if err := validate(&Registry{Version: Version, Tests: []Entry{e}}, today); err != nil {
			return nil, entryError(e.Test, err)
		}
		have[e.Test] = e
		out.Tests = append(out.Tests, e)
	}
	if err := Validate(out, today); err != nil {
		return nil, err
	}
	return Canonical(out), nil
}

// entryError words a fault of a single new entry by its test and field:
// "pkg.TestX: owner: must not be empty".
func entryError(test string, err error) error {
	pe, ok := err.(*pathError)
	if !ok {
		return err
	}
	field := pe.path[len("tests[0]"):]
	if len(field) > 0 && field[0] == '.' {
		field = field[1:]
	}
	return &core.Error{Kind: pe.kind, Field: field, Msg: fmt.Sprintf("%s: %s", test, pe.msg)}
}

// find returns the index of test in reg, or a *core.Error saying it is not
// quarantined.
func find(reg *Registry, test string) (int, error) {
	for i, e := range reg.Tests {
		if e.Test == test {
			return i, nil
		}
	}
	return -1, core.FieldErrorf("test", "%s is not quarantined: the registry has %s", test, core.Nouns(len(reg.Tests), "test"))
}

// Renew returns reg with test's quarantine extended to expires, which must
// not be before today, and its owner or reason replaced when not empty.
// The claim and the evidence since it are kept.
func Renew(reg *Registry, today, test, expires, owner, reason string) (*Registry, error) {
	if err := Validate(reg, today); err != nil {
		return nil, err
	}
	i, err := find(reg, test)
	if err != nil {
		return nil, err
	}
	until, err := parseDate(expires)
	if err != nil {
		return nil, core.FieldErrorf("expires", "must be a date YYYY-MM-DD, got %q", expires)
	}
	if now, _ := parseDate(today); until.Before(now) {
		return nil, core.FieldErrorf("expires", "%s is before today (%s): a renewal runs into the future", expires, today)
	}
	out := &Registry{Version: Version, Tests: slices.Clone(reg.Tests), Counted: slices.Clone(reg.Counted)}
	e := &out.Tests[i]
	e.Expires = expires
	if owner != "" {
		e.Owner = owner
	}
	if reason != "" {
		e.Reason = reason
	}
	if err := validate(&Registry{Version: Version, Tests: []Entry{*e}}, today); err != nil {
		return nil, entryError(e.Test, err)
	}
	return Canonical(out), nil
}

// Remove returns reg without the named tests: released by hand, or
// deleted from the suite. A test that is not quarantined is an error.
func Remove(reg *Registry, today string, tests ...string) (*Registry, error) {
	if err := Validate(reg, today); err != nil {
		return nil, err
	}
	gone := map[string]bool{}
	for _, t := range tests {
		if _, err := find(reg, t); err != nil {
			return nil, err
		}
		gone[t] = true
	}
	out := &Registry{Version: Version, Tests: []Entry{}, Counted: slices.Clone(reg.Counted)}
	for _, e := range reg.Tests {
		if !gone[e.Test] {
			out.Tests = append(out.Tests, e)
		}
	}
	return Canonical(out), nil
}

// Rename returns reg with the entry of old moved to the id nw, keeping its
// claim and evidence: the measurement already paid for survives the
// rename. nw must not be quarantined already.
func Rename(reg *Registry, today, old, nw string) (*Registry, error) {
	if err := Validate(reg, today); err != nil {
		return nil, err
	}
	i, err := find(reg, old)
	if err != nil {
		return nil, err
	}
	if _, err := checkRenames(reg, map[string]string{old: nw}); err != nil {
		return nil, err
	}
	out := &Registry{Version: Version, Tests: slices.Clone(reg.Tests), Counted: slices.Clone(reg.Counted)}
	out.Tests[i].Test = nw
	return Canonical(out), nil
}

// Remember returns reg with the runs of ids recorded as counted today (a
// run it has counted already keeps its date): the runs a claim was
// measured on, so that a later check does not count them again as evidence
// since the claim. An identity that is not one (checkRunID) is a
// *core.Error.
func Remember(reg *Registry, today string, ids ...string) (*Registry, error) {
	if err := Validate(reg, today); err != nil {
		return nil, err
	}
	out := &Registry{Version: Version, Tests: slices.Clone(reg.Tests), Counted: slices.Clone(reg.Counted)}
	have := map[string]bool{}
	for _, c := range reg.Counted {
		have[c.Run] = true
	}
	for i, id := range ids {
		if err := checkRunID(fmt.Sprintf("runs[%d]", i), id); err != nil {
			pe := err.(*pathError)
			return nil, &core.Error{Kind: pe.kind, Field: pe.path, Msg: pe.msg}
		}
		if !have[id] {
			have[id] = true
			out.Counted = append(out.Counted, CountedRun{Run: id, Date: today})
		}
	}
	return Canonical(out), nil
}
