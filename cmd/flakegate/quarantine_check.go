package main

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"strings"

	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/words"
)

func quarantineCheck(e *env, args []string) (bool, error) {
	fs, rf := registryVerb(e, "quarantine check", "[flags] [report...]")
	from := filesFlag(fs, "from", reportFileUsage+", each one run, or a history store of runs (flakegate record); the same as naming it as an argument")
	format := fs.String("format", "", formatUsage)
	write := fs.Bool("write", false, "record the new counts in the registry (atomically): released tests leave it, a stale claim is replaced by the newer count, renamed tests move")
	renames := &renameList{}
	fs.Var(renames, "rename", "map a renamed test's old id to its new one, as `old=new`, so its trials are kept; repeat per test")
	inputs := schemaFlags(fs, param.QuarantineCheck.Fields, param.QuarantineCheck.Defaults(), "today")
	pos, err := rf.begin(e, fs, args)
	if err != nil {
		return false, err
	}
	inputs.texts["today"] = rf.today
	opt, err := parsed(inputs, param.QuarantineCheck)
	if err != nil {
		return false, err
	}
	files := append(append([]string{}, *from...), pos...)
	if _, err := os.Stat(rf.path); errors.Is(err, iofs.ErrNotExist) {
		// A team's first run of the check, before any test is quarantined:
		// nothing is quarantined, so nothing blocks.
		return false, noRegistry(e, rf)
	}
	reg, err := rf.read(false)
	if err != nil {
		return false, err
	}
	opt.Renames, err = renames.resolve(reg)
	if err != nil {
		return false, err
	}
	var rep *quarantine.Reports
	if len(files) > 0 {
		if rep, err = readCheckReports(e, reg, files, *format, rf.today); err != nil {
			return false, err
		}
	}
	res, next, err := quarantine.Check(reg, rep, opt)
	if err != nil {
		return false, inputs.named(err)
	}
	if rep == nil {
		res.Warnings = append(res.Warnings, words.NoReportsCaveat)
	}
	var changed []string
	if *write {
		if err := rf.write(next); err != nil {
			return false, err
		}
		if !rf.out.json && !rf.out.markdown {
			changed = append(changed, writeSummary(rf.path, res))
		}
	}
	if err := rf.print(e, res, linkState(reg, rep, opt), nil, nil); err != nil {
		return false, err
	}
	for _, c := range changed {
		fmt.Fprintln(e.stdout, c)
	}
	return res.Blocks, nil
}

// noRegistry answers a check when the registry file does not exist yet:
// no test is quarantined, so nothing blocks; it says how to add one.
func noRegistry(e *env, rf *registryFlags) error {
	empty := &quarantine.Registry{Version: quarantine.Version, Tests: []quarantine.Entry{}}
	res, st, err := judge(empty, rf.today)
	if err != nil {
		return err
	}
	res.Warnings = append(res.Warnings, fmt.Sprintf("there is no registry at %s yet, so no test is quarantined and nothing blocks; "+
		"quarantine a flaky test with flakegate quarantine add -from REPORT -owner WHO -reason WHY (or name the file with -registry)", rf.path))
	return rf.print(e, res, st, nil, nil)
}

// writeSummary says what a writing check changed in the registry.
func writeSummary(path string, res *quarantine.Result) string {
	var released, replaced, counted, renamed int
	for _, t := range res.Tests {
		switch {
		case t.State == quarantine.StateReleased:
			released++
		case t.State == quarantine.StateStale && t.Since.Trials >= t.Claim.Trials:
			replaced++
		case t.Reported != nil:
			counted++
		}
		if t.RenamedFrom != "" {
			renamed++
		}
	}
	var parts []string
	if released > 0 {
		parts = append(parts, words.Nouns(released, "released test")+" removed")
	}
	if replaced > 0 {
		parts = append(parts, words.Nouns(replaced, "stale claim")+" replaced by the measurement since the claim")
	}
	if counted > 0 {
		parts = append(parts, "new runs counted for "+words.Nouns(counted, "test"))
	}
	if renamed > 0 {
		parts = append(parts, words.Nouns(renamed, "renamed test")+" moved to the new id")
	}
	if len(parts) == 0 {
		return "wrote " + path + ": nothing changed."
	}
	return "wrote " + path + ": " + strings.Join(parts, "; ") + "."
}

// renameList is the repeatable -rename old=new.
type renameList struct{ raw []string }

func (r *renameList) String() string { return strings.Join(r.raw, ",") }

func (r *renameList) Set(s string) error {
	if !strings.Contains(s, "=") {
		return fmt.Errorf("want old=new, got %q", s)
	}
	r.raw = append(r.raw, s)
	return nil
}

// resolve splits each old=new at the '=' whose left side is a quarantined
// test (ids such as TestX/n=3 hold '=' themselves), else at the first.
func (r *renameList) resolve(reg *quarantine.Registry) (map[string]string, error) {
	if len(r.raw) == 0 {
		return nil, nil
	}
	ids := map[string]bool{}
	for _, e := range reg.Tests {
		ids[e.Test] = true
	}
	out := map[string]string{}
	for _, s := range r.raw {
		old, nw, _ := strings.Cut(s, "=")
		for i := range len(s) {
			if s[i] == '=' && ids[s[:i]] {
				old, nw = s[:i], s[i+1:]
				break
			}
		}
		if prev, dup := out[old]; dup {
			return nil, usagef("-rename: %s is renamed twice, to %s and to %s", old, prev, nw)
		}
		out[old] = nw
	}
	return out, nil
}
