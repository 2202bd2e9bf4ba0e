package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/words"
)

// historyQuarantineFlags hand the flaky tests a history finds to the
// quarantine registry.
type historyQuarantineFlags struct {
	path, codeowners, owner string
	write                   bool
	days                    int64
}

func quarantineFlags(fs *flag.FlagSet) *historyQuarantineFlags {
	q := &historyQuarantineFlags{days: 30}
	fs.StringVar(&q.path, "quarantine", "", "a quarantine registry `file`: propose an entry for each flaky test the gate's cap cannot see and the registry does not hold")
	fs.BoolVar(&q.write, "write", false, "with -quarantine: add the proposed entries to the registry")
	fs.StringVar(&q.codeowners, "codeowners", "", "the CODEOWNERS `file` that names each test's owner from its file (default: CODEOWNERS, .github/CODEOWNERS or docs/CODEOWNERS here)")
	fs.StringVar(&q.owner, "owner", "", "the `owner` of a proposed test that CODEOWNERS does not name")
	int64Flag(fs, &q.days, "days", "a proposed quarantine ends this `number` of days after the claim's date")
	return q
}

// historyQuarantine is what -quarantine proposes and did.
type historyQuarantine struct {
	Registry string             `json:"registry"`
	Proposed []quarantine.Entry `json:"proposed"`
	// Held lists the flaky tests the registry already holds.
	Held    []string `json:"held"`
	Written bool     `json:"written"`
	// entries are the registry's entries as read.
	entries []quarantine.Entry
}

// historyOutput is the history's JSON result, with what -quarantine
// proposed.
type historyOutput struct {
	*history.Result
	Quarantine *historyQuarantine `json:"quarantine,omitempty"`
}

// apply reads the registry and proposes entries (and with -write adds
// them); it returns the tests the registry holds after it.
func (q *historyQuarantineFlags) apply(res *history.Result, today string) (*historyQuarantine, map[string]bool, error) {
	held := map[string]bool{}
	if q.path == "" {
		if q.write {
			return nil, nil, usagef("-write adds to the registry -quarantine names: give -quarantine FILE")
		}
		return nil, held, nil
	}
	if today == "" {
		today = time.Now().UTC().Format(time.DateOnly)
	}
	if q.days < 0 || q.days > 3660 {
		return nil, nil, usagef("-days: want a number of days in [0, 3660], got %d", q.days)
	}
	reg := &quarantine.Registry{Version: quarantine.Version, Tests: []quarantine.Entry{}}
	f, err := os.Open(q.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, nil, fmt.Errorf("%s: %w", q.path, unwrapPathError(err))
	default:
		reg, err = quarantine.Read(f, today)
		f.Close()
		if err != nil {
			return nil, nil, core.WithFile(err, q.path)
		}
	}
	for _, e := range reg.Tests {
		held[e.Test] = true
	}
	owners, err := q.readOwners()
	if err != nil {
		return nil, nil, err
	}
	t, _ := time.Parse(time.DateOnly, today)
	expires := t.AddDate(0, 0, int(q.days)).Format(time.DateOnly)
	out := &historyQuarantine{Registry: q.path, Proposed: []quarantine.Entry{}, Held: []string{}, entries: reg.Tests}
	var unowned []string
	for _, fl := range res.Flakes {
		if held[fl.Test] {
			out.Held = append(out.Held, fl.Test)
			continue
		}
		if !fl.OverCap {
			continue
		}
		owner := owners.ownerOf(fl.Test)
		if owner == "" {
			owner = q.owner
		}
		if owner == "" {
			unowned = append(unowned, fl.Test)
			continue
		}
		reason := fmt.Sprintf("flaky in CI history: failed %s of %s runs (%s), %s; %s reruns would catch it",
			words.Count(fl.Failures), words.Count(fl.Runs), words.Percent(fl.Rate),
			words.Nouns(fl.SameCommitFlips, "flip")+" on one commit", rerunsWords(fl.Reruns))
		out.Proposed = append(out.Proposed, quarantine.NewEntry(fl.Test, owner, reason, today, expires,
			core.Count{Passed: fl.Runs - fl.Failures, Trials: fl.Runs}, res.Confidence, quarantine.DefaultRelease))
	}
	if len(unowned) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("no owner for %s (%s): CODEOWNERS names none; give -owner", words.Nouns(len(unowned), "flaky test"), strings.Join(unowned[:min(3, len(unowned))], ", ")))
	}
	if q.write && len(out.Proposed) > 0 {
		next, err := quarantine.Add(reg, today, out.Proposed...)
		if err != nil {
			return nil, nil, err
		}
		var b strings.Builder
		if err := quarantine.Write(&b, next); err != nil {
			return nil, nil, err
		}
		if err := writeFileAtomic(q.path, []byte(b.String())); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", q.path, unwrapPathError(err))
		}
		out.Written = true
		for _, e := range out.Proposed {
			held[e.Test] = true
		}
	}
	return out, held, nil
}

func rerunsWords(k *int64) string {
	if k == nil {
		return "no number of"
	}
	return words.Count(*k)
}

// readOwners reads -codeowners, or the first CODEOWNERS of the usual
// places; nil when there is none.
func (q *historyQuarantineFlags) readOwners() (*codeowners, error) {
	paths := []string{q.codeowners}
	if q.codeowners == "" {
		paths = []string{"CODEOWNERS", ".github/CODEOWNERS", "docs/CODEOWNERS"}
	}
	for _, p := range paths {
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) && q.codeowners == "" {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, unwrapPathError(err))
		}
		c, err := readCodeowners(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return c, nil
	}
	return nil, nil
}

// historyQuarantineMarkdown says what -quarantine proposed or wrote ("" without it).
func historyQuarantineMarkdown(hq *historyQuarantine) string {
	if hq == nil {
		return ""
	}
	var b strings.Builder
	verb := "proposes"
	if hq.Written {
		verb = "added"
	}
	fmt.Fprintf(&b, "\nQuarantine (%s): %s %s for quarantine", hq.Registry, verb, words.Nouns(len(hq.Proposed), "test"))
	if len(hq.Held) > 0 {
		fmt.Fprintf(&b, "; it already holds %s", words.Nouns(len(hq.Held), "flaky test"))
	}
	b.WriteString(".\n")
	for _, e := range hq.Proposed {
		fmt.Fprintf(&b, "- %s, owner %s, until %s: claim %s passed [%s, %s]; %s\n", e.Test, e.Owner, e.Expires,
			words.Fraction(e.Claim.Passed, e.Claim.Trials), words.Percent(e.Claim.Lower), words.Percent(e.Claim.Upper), e.Reason)
	}
	if len(hq.Proposed) > 0 && !hq.Written {
		b.WriteString("Add them with -write.\n")
	}
	return b.String()
}
