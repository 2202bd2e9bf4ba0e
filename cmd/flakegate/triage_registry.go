package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/core/triage"
	"github.com/flakegate/flakegate/internal/words"
)

// triageRegistryFlags keep the quarantine registry for its team: the
// entries triage proposes and the releases it proves, as one diff of the
// registry file.
type triageRegistryFlags struct {
	diff    bool   // print the diff instead of the text report
	diffOut string // write the diff to this file
	write   bool   // -write as given: apply the change
}

func triageRegistryFlagsOn(fs *flag.FlagSet, q *historyQuarantineFlags) *triageRegistryFlags {
	r := &triageRegistryFlags{}
	fs.Func("registry", "the quarantine registry `file` (the same as -quarantine)", func(s string) error {
		q.path = s
		return nil
	})
	fs.BoolVar(&r.diff, "diff", false, "with -registry: print the registry's change (the proposed entries added, the proven releases removed) as a unified diff for git apply or patch -p1, instead of the report")
	fs.StringVar(&r.diffOut, "diff-out", "", "with -registry: write that diff to `file` (empty when the registry needs no change)")
	if f := fs.Lookup("write"); f != nil {
		f.Usage = "with -registry: make the registry's change in the file: the proposed entries added, the entries whose release is proven removed"
	}
	return r
}

// registryChange is the registry's change a triage proposes: the JSON's
// "registry".
type registryChange struct {
	Registry string   `json:"registry"` // the file, as the diff names it
	Added    []string `json:"added"`    // the tests added, sorted
	Released []string `json:"released"` // the tests whose entries are removed, proven fixed
	// Diff is the unified diff of the registry file that makes the
	// change; "" when there is none.
	Diff    string `json:"diff"`
	Written bool   `json:"written"` // -write applied it
}

// begin takes the registry flags out of q before q.apply runs, which
// would write the proposals alone: the change is written here, whole.
func (r *triageRegistryFlags) begin(q *historyQuarantineFlags) error {
	r.write, q.write = q.write, false
	if q.path == "" && (r.write || r.diff || r.diffOut != "") {
		return usagef("-write, -diff and -diff-out change the registry -registry names: give -registry FILE")
	}
	return nil
}

// keep makes the registry's change: hq's proposals added and tr's proven
// releases removed (triage.KeepRegistry), its diff, and with -write the
// file written.
func (r *triageRegistryFlags) keep(path string, hq *historyQuarantine, tr *triage.Result, today string) (*registryChange, error) {
	before, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, iofs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	out := &registryChange{Registry: diffPath(path), Added: []string{}, Released: []string{}}
	for _, e := range hq.Proposed {
		out.Added = append(out.Added, e.Test)
	}
	slices.Sort(out.Added)
	for _, rel := range tr.Releases {
		out.Released = append(out.Released, rel.Test)
	}
	if len(out.Added)+len(out.Released) > 0 {
		reg := &quarantine.Registry{Version: quarantine.Version, Tests: []quarantine.Entry{}}
		if existed {
			if reg, err = quarantine.Read(bytes.NewReader(before), today); err != nil {
				return nil, core.WithFile(err, path)
			}
		}
		next, err := triage.KeepRegistry(reg, today, hq.Proposed, tr.Releases)
		if err != nil {
			return nil, core.WithFile(err, path)
		}
		var b bytes.Buffer
		if err := quarantine.Write(&b, next); err != nil {
			return nil, err
		}
		out.Diff = triage.UnifiedDiff(out.Registry, before, b.Bytes(), existed)
		if r.write {
			if err := writeFileAtomic(path, b.Bytes()); err != nil {
				return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
			}
			out.Written, hq.Written = true, true
		}
	}
	if r.diffOut != "" {
		if err := os.WriteFile(r.diffOut, []byte(out.Diff), 0o644); err != nil {
			return nil, fmt.Errorf("-diff-out: %w", unwrapPathError(err))
		}
	}
	return out, nil
}

// diffPath is the registry's path as a diff names it: relative to the
// working directory (a repository's root, where git apply and patch -p1
// run), with slashes; its name alone when it is outside the working
// directory.
func diffPath(path string) string {
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(path) {
		if rel, err := filepath.Rel(wd, path); err == nil {
			path = rel
		}
	}
	path = filepath.ToSlash(filepath.Clean(path))
	if path == ".." || strings.HasPrefix(path, "../") || strings.HasPrefix(path, "/") {
		path = filepath.Base(path)
	}
	return path
}

// registryMarkdown says in words what the registry's change is: each
// entry added and why (its failure rate, interval and runs, and the
// reruns the cap cannot give), each release and its proof.
func registryMarkdown(rc *registryChange, hq *historyQuarantine, tr *triage.Result, res *history.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### The quarantine registry (%s)\n\n", rc.Registry)
	if rc.Diff == "" {
		b.WriteString("**The registry needs no change:** no flaky test it does not hold is beyond the gate's reruns, and no entry has proven its release.\n")
		return b.String()
	}
	verb := "The change below adds"
	if rc.Written {
		verb = "This triage added"
	}
	fmt.Fprintf(&b, "**%s %s to the registry and releases %s.** ", verb, words.Nouns(len(rc.Added), "test"), words.Nouns(len(rc.Released), "test"))
	if rc.Written {
		b.WriteString("The registry file is written.\n")
	} else {
		b.WriteString("It is one diff of the registry file: `flakegate triage -diff` prints it, `-write` makes it.\n")
	}
	if len(hq.Proposed) > 0 {
		fmt.Fprintf(&b, "\nAdded, because the gate's reruns (at most %s, its cap) cannot catch them:\n\n", words.Count(res.Cap))
		flakes := map[string]*history.TestHistory{}
		for i := range res.Flakes {
			flakes[res.Flakes[i].Test] = &res.Flakes[i]
		}
		proposed := slices.SortedFunc(slices.Values(hq.Proposed), func(a, b quarantine.Entry) int { return strings.Compare(a.Test, b.Test) })
		for _, e := range proposed {
			fl := flakes[e.Test]
			fmt.Fprintf(&b, "- %s: failed %s of %s past runs, %s [%s, %s] (%s interval); catching it %s of the time takes %s reruns. Owner %s, until %s; released once proven below %s at %s confidence (%s if none fails).\n",
				e.Test, words.Count(fl.Failures), words.Count(fl.Runs), words.Percent(fl.Rate), words.Percent(fl.Lower), words.Percent(fl.Upper),
				words.Level(res.Confidence), words.Level(res.Target), rerunsWords(fl.Reruns), e.Owner, e.Expires, words.Percent(e.Release.Below), words.Level(e.Release.Confidence),
				words.Nouns(quarantine.CleanRunsChecked(e.Release.Below, e.Release.Confidence), "clean run"))
		}
	}
	if len(tr.Releases) > 0 {
		b.WriteString("\nReleased, on proof they are fixed (the registry's release rule, which holds however often it is checked: a test still failing at its target is released with chance at most 1 − the confidence, over its entry's whole life):\n\n")
		for _, rel := range tr.Releases {
			fmt.Fprintf(&b, "- %s: %s in %s since its quarantine on %s prove its failure rate below %s at %s confidence; its entry is removed.\n",
				rel.Test, words.Nouns(rel.Failed, "failure"), words.Nouns(rel.Runs, "run"), rel.Opened, words.Percent(rel.Below), words.Level(rel.Confidence))
		}
	}
	return b.String()
}
