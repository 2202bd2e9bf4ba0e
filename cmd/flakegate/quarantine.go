package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

const quarantineUsage = `usage: flakegate quarantine <verb> [flags] [args]

Keeps a registry of quarantined tests (a JSON file in your repository) and
checks it against new test reports. A test leaves quarantine on evidence: its
runs since the quarantine, failures included, prove it fails below a target.

verbs:
  add     quarantine tests, from reports (-from) or from counts (-claim)
  check   check every quarantined test against new reports; -write records them
  list    show the registry's tests and the evidence it holds
  renew   move a test's expiry date (-expires or -days)
  remove  take tests out of the registry
  rename  move a test's entry to its new id, keeping its trials
  runs    clean runs from a quarantine's start that release a test below a target

  flakegate quarantine add -from nightly.json -owner @team -reason "times out under load"
  flakegate quarantine add -claim 57/60 -owner @team -reason "races the cache" pkg.TestCheckout
  flakegate quarantine check nightly.json                  # exit 1 when a test blocks
  flakegate quarantine check -write nightly.json           # and record the new counts
  flakegate quarantine renew -days 14 pkg.TestCheckout
  flakegate quarantine runs -below 0.01                    # 299

States: still flaky (the claim holds), stale (the rate since the claim left
its interval: measure again), released (proven below the target), expired
(past its date without release) and missing (not in the reports: renamed or
deleted). Stale, expired and missing block.

exit status: 0 the gate passes (or the verb only edits or informs), 1 a
quarantined test blocks, 2 usage or input error
run 'flakegate quarantine <verb> -h' for a verb's flags`

var quarantineVerbs = map[string]func(e *env, args []string) (bool, error){
	"add": quarantineAdd, "check": quarantineCheck, "list": quarantineList, "renew": quarantineRenew,
	"remove": quarantineRemove, "rename": quarantineRename,
	"runs": calculator("quarantine runs", "[-below rate] [-confidence c]", param.QuarantineRelease, quarantineRuns),
}

func runQuarantine(e *env, args []string) (bool, error) {
	if len(args) == 0 {
		return false, usagef("give a verb: add, check, list, renew, remove, rename or runs")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(e.stderr, quarantineUsage)
		return false, flag.ErrHelp
	}
	verb := quarantineVerbs[args[0]]
	if verb == nil {
		return false, usagef("unknown verb %q: want add, check, list, renew, remove, rename or runs", args[0])
	}
	blocks, err := verb(e, args[1:])
	var ue *usageError
	if errors.As(err, &ue) && ue.help == "" {
		ue.help = "quarantine " + args[0] // the verb's own flags
	}
	return blocks, err
}

// registryFlags are the flags every verb that reads the registry has: the
// file, the date, and how the result is printed (-json, -markdown, -site
// and the CI outputs, as every command has them).
type registryFlags struct {
	path, today string
	out         *output
	site        string // the calculator's address once checked; "" for none
}

// registryVerb is the flag set of the verb name, with the registry's flags.
func registryVerb(e *env, name, synopsis string) (*flag.FlagSet, *registryFlags) {
	fs := newFlags(e, name, synopsis)
	r := &registryFlags{}
	fs.StringVar(&r.path, "registry", "quarantine.json", "the registry `file`")
	fs.StringVar(&r.today, "today", time.Now().Format(time.DateOnly), "the date of the check, `YYYY-MM-DD`: tests expire by it, and no date in the registry may be after it")
	r.out = outputFlags(fs)
	return fs, r
}

// begin parses a verb's arguments (begin) and reads the date: its
// positional arguments.
func (r *registryFlags) begin(e *env, fs *flag.FlagSet, args []string) ([]string, error) {
	pos, site, err := begin(e, fs, r.out, args)
	if err != nil {
		return nil, err
	}
	r.site = site
	f, _ := param.QuarantineCheck.Field("today")
	v, absent, err := f.Read(r.today)
	switch {
	case err != nil:
		return nil, usagef("-today: %s", err.(*core.Error).Msg)
	case absent:
		r.today = time.Now().Format(time.DateOnly)
	default:
		r.today = v.(string)
	}
	return pos, nil
}

// read reads the registry; when it does not exist, empty says whether to
// start an empty one (add) or fail.
func (r *registryFlags) read(empty bool) (*quarantine.Registry, error) {
	f, err := os.Open(r.path)
	if errors.Is(err, iofs.ErrNotExist) {
		if empty {
			return &quarantine.Registry{Version: quarantine.Version, Tests: []quarantine.Entry{}}, nil
		}
		return nil, fmt.Errorf("%s: no registry there; quarantine a test first (flakegate quarantine add), or name the file with -registry", r.path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.path, unwrapPathError(err))
	}
	defer f.Close()
	reg, err := quarantine.Read(f, r.today)
	if err != nil {
		return nil, core.WithFile(err, r.path)
	}
	return reg, nil
}

// write writes reg to the registry file atomically.
func (r *registryFlags) write(reg *quarantine.Registry) error {
	var b strings.Builder
	if err := quarantine.Write(&b, reg); err != nil {
		return err
	}
	return writeFileAtomic(r.path, []byte(b.String()))
}

// print shows a check as the flags ask, with the link of the view that
// reproduces it (st is what the check was made of); text prints the lines
// of what changed, and the table of the tests named in only (all when only
// is nil).
func (r *registryFlags) print(e *env, res *quarantine.Result, st share.QuarantineState, changed []string, only []string) error {
	var link words.Link
	if r.site != "" {
		v, err := share.Quarantine(res.Today, st)
		if err != nil {
			return err
		}
		link = words.LinkOf(v, r.site)
	}
	res.Link, res.LinkNote = link.URL, link.Note
	return r.out.print(e, printed{res: res, link: link,
		markdown: func() string { return words.QuarantineMarkdown(res, link) },
		notes:    func() []annotation { return r.notes(res) },
		text:     func(w io.Writer) error { return quarantineText(w, res, changed, only) }})
}

// notes are a check's annotations: an error per test that blocks and a
// notice per test that is improving, on the registry that holds it, and a
// warning per caveat.
func (r *registryFlags) notes(res *quarantine.Result) []annotation {
	var out []annotation
	for _, t := range res.Tests {
		switch {
		case t.Blocks:
			out = append(out, annotation{level: "error", file: r.path,
				title: "flakegate: quarantined " + t.Test + " is " + words.StateWords(t.State),
				msg:   t.Test + ": " + words.QuarantineSentence(t) + "."})
		case t.Improving: // news, not a block: how many clean runs remain
			out = append(out, annotation{level: "notice", file: r.path,
				title: "flakegate: quarantined " + t.Test + " is improving",
				msg:   t.Test + ": " + words.QuarantineSentence(t) + "."})
		}
	}
	return append(out, caveatNotes(res.Warnings)...)
}

// quarantineText is a check's text report.
func quarantineText(w io.Writer, res *quarantine.Result, changed []string, only []string) error {
	for _, c := range changed {
		fmt.Fprintln(w, c)
	}
	if changed == nil {
		fmt.Fprintln(w, words.QuarantineAnswer(res))
		if t := words.QuarantineTally(res); t != "" {
			fmt.Fprintln(w, t)
		}
	}
	var rows []quarantine.TestResult
	for _, t := range res.Tests {
		if only == nil || slices.Contains(only, t.Test) {
			rows = append(rows, t)
		}
	}
	if len(rows) > 0 {
		fmt.Fprintln(w)
		t := newTable(w)
		t.row(words.QuarantineHead...)
		for _, tr := range rows {
			t.row(words.QuarantineRow(tr)...)
		}
		t.flush()
	}
	if changed == nil {
		first := true
		for _, tr := range rows {
			if tr.State == quarantine.StateStillFlaky {
				continue
			}
			if first {
				fmt.Fprintln(w)
				first = false
			}
			fmt.Fprintf(w, "%s: %s.\n", tr.Test, words.QuarantineSentence(tr))
		}
	}
	writeWarnings(w, res.Warnings)
	return nil
}

// judge checks reg against the registry's own evidence, and returns the
// state of that check for its link.
func judge(reg *quarantine.Registry, today string) (*quarantine.Result, share.QuarantineState, error) {
	opt := quarantine.DefaultOptions
	opt.Today = today
	res, _, err := quarantine.Check(reg, nil, opt)
	return res, linkState(reg, nil, opt), err
}

// linkState is the state a check's link carries: the registry and the
// reports without the identities of the runs counted, which no figure of
// the check depends on and which would only lengthen the link.
func linkState(reg *quarantine.Registry, rep *quarantine.Reports, opt quarantine.Options) share.QuarantineState {
	r := *reg
	r.Counted = nil
	if rep != nil {
		c := *rep
		c.IDs = nil
		rep = &c
	}
	return share.NewQuarantineState(&r, rep, opt)
}

// dateFlags are -expires and -days: the last day of a quarantine.
type dateFlags struct {
	expires string
	days    int64
}

func addDateFlags(fs *flag.FlagSet, days int64, what string) *dateFlags {
	d := &dateFlags{days: days}
	fs.StringVar(&d.expires, "expires", "", "the last `day` of the quarantine, YYYY-MM-DD")
	int64Flag(fs, &d.days, "days", what+": the quarantine ends this `number` of days after -today; ignored with -expires")
	return d
}

func (d *dateFlags) date(today string, set bool) (string, error) {
	if d.expires != "" {
		if _, err := time.Parse(time.DateOnly, d.expires); err != nil {
			return "", usagef("-expires: want a date YYYY-MM-DD, got %q", d.expires)
		}
		return d.expires, nil
	}
	if !set {
		return "", usagef("give -expires YYYY-MM-DD or -days N")
	}
	if d.days < 0 || d.days > 3660 {
		return "", usagef("-days: want a number of days in [0, 3660], got %d", d.days)
	}
	t, _ := time.Parse(time.DateOnly, today)
	return t.AddDate(0, 0, int(d.days)).Format(time.DateOnly), nil
}

func quarantineAdd(e *env, args []string) (bool, error) {
	fs, rf := registryVerb(e, "quarantine add", "(-from report... [test...] | -claim passed/trials test) -owner who -reason why [flags]")
	from := filesFlag(fs, "from", reportFileUsage+", each one run; repeat per run. Without tests named, every test that both failed and passed in them is quarantined")
	format := fs.String("format", "", formatUsage)
	claim := fs.String("claim", "", "the test's measured pass count as `passed/trials`, instead of -from")
	owner := fs.String("owner", "", "who answers for the tests: a person or a team (required)")
	reason := fs.String("reason", "", "why they are quarantined, in a sentence (required)")
	dates := addDateFlags(fs, 30, "or")
	inputs := schemaFlags(fs, param.QuarantineAdd.Fields, param.QuarantineAdd.Defaults())
	inputs.paths = map[string]string{"release.below": "below", "release.confidence": "release_confidence", "claim.confidence": "confidence"}
	tests, err := rf.begin(e, fs, args)
	if err != nil {
		return false, err
	}
	nums, err := parsed(inputs, param.QuarantineAdd)
	if err != nil {
		return false, err
	}
	rel, confidence := nums.Release, &nums.Confidence
	if *owner == "" || *reason == "" {
		return false, usagef("give -owner and -reason: a quarantined test has someone who answers for it, and a why")
	}
	expires, err := dates.date(rf.today, true)
	if err != nil {
		return false, err
	}
	reg, err := rf.read(true)
	if err != nil {
		return false, err
	}
	counts := map[string]core.Count{}
	var warns, measured []string
	switch {
	case *claim != "" && len(*from) > 0:
		return false, usagef("give -from or -claim, not both")
	case *claim != "":
		if len(tests) != 1 {
			return false, usagef("-claim is the count of one test: name exactly one, got %d", len(tests))
		}
		c, err := core.ParseCount("claim", *claim)
		if err != nil {
			return false, err
		}
		counts[tests[0]] = c
	case len(*from) > 0:
		l, ids, err := readIdentified(e, *from, *format, rf.today)
		if err != nil {
			return false, err
		}
		// The claim is measured on these runs: a later check counts them
		// no more.
		measured = runIDs(l, ids)
		rep := quarantine.FromLedger(l)
		warns = rep.Warnings
		if len(tests) == 0 {
			if tests = rep.Flaky(); len(tests) == 0 {
				return false, fmt.Errorf("no test both failed and passed in the %s: nothing to quarantine (name the tests to quarantine them anyway)", core.Nouns(rep.Runs, "run"))
			}
			for _, t := range tests {
				if i := slices.IndexFunc(reg.Tests, func(x quarantine.Entry) bool { return x.Test == t }); i >= 0 {
					warns = append(warns, t+" flaked and is already quarantined: left as it is")
				}
			}
			tests = slices.DeleteFunc(tests, func(t string) bool {
				return slices.ContainsFunc(reg.Tests, func(x quarantine.Entry) bool { return x.Test == t })
			})
		}
		for _, t := range tests {
			c, ok := rep.Count(t)
			if !ok {
				return false, fmt.Errorf("%s is not in the reports: name a test as they do (such as example.com/pkg.TestName)", t)
			}
			counts[t] = c
		}
	default:
		return false, usagef("give -from with reports, or -claim passed/trials and the test")
	}
	var entries []quarantine.Entry
	for _, t := range tests {
		c := counts[t]
		switch {
		case c.Passed == c.Trials:
			warns = append(warns, fmt.Sprintf("%s passed all %s: nothing shows it is flaky", t, core.Nouns(c.Trials, "trial")))
		case c.Passed == 0:
			warns = append(warns, fmt.Sprintf("%s failed all %s: it is broken rather than flaky", t, core.Nouns(c.Trials, "trial")))
		}
		entries = append(entries, quarantine.NewEntry(t, *owner, *reason, rf.today, expires, c, *confidence, rel))
	}
	next, err := quarantine.Add(reg, rf.today, entries...)
	if err != nil {
		return false, inputs.named(err)
	}
	if next, err = quarantine.Remember(next, rf.today, measured...); err != nil {
		return false, err
	}
	needed := quarantine.CleanRunsChecked(rel.Below, rel.Confidence)
	msg := fmt.Sprintf("quarantined %s in %s until %s, owned by %s; each leaves after %s prove it below %s (if none fails).",
		words.Nouns(len(entries), "test"), rf.path, expires, *owner, words.Nouns(needed, "clean run"), words.Level(rel.Below))
	return false, rf.save(e, next, warns, msg, tests)
}

func quarantineList(e *env, args []string) (bool, error) {
	fs, rf := registryVerb(e, "quarantine list", "[flags]")
	pos, err := rf.begin(e, fs, args)
	if err != nil {
		return false, err
	}
	if len(pos) > 0 {
		return false, usagef("list takes no arguments; to check reports, use flakegate quarantine check")
	}
	reg, err := rf.read(false)
	if err != nil {
		return false, err
	}
	res, st, err := judge(reg, rf.today)
	if err != nil {
		return false, err
	}
	return false, rf.print(e, res, st, nil, nil)
}

func quarantineRenew(e *env, args []string) (bool, error) {
	fs, rf := registryVerb(e, "quarantine renew", "(-expires YYYY-MM-DD | -days N) [-owner who] [-reason why] test...")
	dates := addDateFlags(fs, 0, "instead of -expires")
	owner := fs.String("owner", "", "a new owner (default: keep it)")
	reason := fs.String("reason", "", "a new reason (default: keep it)")
	return edit(e, fs, rf, args, "the tests to renew", func(reg *quarantine.Registry, tests []string) (*quarantine.Registry, string, []string, error) {
		expires, err := dates.date(rf.today, flagSet(fs, "days"))
		if err != nil {
			return nil, "", nil, err
		}
		for _, t := range tests {
			if reg, err = quarantine.Renew(reg, rf.today, t, expires, *owner, *reason); err != nil {
				return nil, "", nil, err
			}
		}
		return reg, fmt.Sprintf("renewed %s in %s until %s.", words.Nouns(len(tests), "test"), rf.path, expires), tests, nil
	})
}

// edit runs an editing verb whose flags are on fs: it parses the command
// line, which names tests (what says which, for the message when none is
// named), reads the registry, changes it with change (from the verb's
// positional arguments: the registry after, what changed in a sentence,
// and the tests that is about), writes it and prints what changed.
func edit(e *env, fs *flag.FlagSet, rf *registryFlags, args []string, what string,
	change func(reg *quarantine.Registry, pos []string) (*quarantine.Registry, string, []string, error)) (bool, error) {
	pos, err := rf.begin(e, fs, args)
	if err != nil {
		return false, err
	}
	if len(pos) == 0 {
		return false, usagef("name %s", what)
	}
	reg, err := rf.read(false)
	if err != nil {
		return false, err
	}
	reg, msg, tests, err := change(reg, pos)
	if err != nil {
		return false, err
	}
	return false, rf.save(e, reg, nil, msg, tests)
}

// save writes an edited registry and prints what changed: msg, about
// tests, with the edit's warnings warns before the check's.
func (r *registryFlags) save(e *env, reg *quarantine.Registry, warns []string, msg string, tests []string) error {
	if err := r.write(reg); err != nil {
		return err
	}
	res, st, err := judge(reg, r.today)
	if err != nil {
		return err
	}
	if len(warns) > 0 {
		res.Warnings = append(warns, res.Warnings...)
	}
	return r.print(e, res, st, []string{msg}, tests)
}

func quarantineRemove(e *env, args []string) (bool, error) {
	fs, rf := registryVerb(e, "quarantine remove", "[flags] test...")
	return edit(e, fs, rf, args, "the tests to remove", func(reg *quarantine.Registry, tests []string) (*quarantine.Registry, string, []string, error) {
		reg, err := quarantine.Remove(reg, rf.today, tests...)
		return reg, fmt.Sprintf("removed %s from %s: %s.", words.Nouns(len(tests), "test"), rf.path, strings.Join(tests, ", ")), []string{}, err
	})
}

func quarantineRename(e *env, args []string) (bool, error) {
	fs, rf := registryVerb(e, "quarantine rename", "[flags] old-id new-id")
	return edit(e, fs, rf, args, "the test's old id and its new one", func(reg *quarantine.Registry, pos []string) (*quarantine.Registry, string, []string, error) {
		if len(pos) != 2 {
			return nil, "", nil, usagef("give the test's old id and its new one, got %d arguments", len(pos))
		}
		reg, err := quarantine.Rename(reg, rf.today, pos[0], pos[1])
		return reg, fmt.Sprintf("renamed %s to %s in %s, its claim and trials kept.", pos[0], pos[1], rf.path), pos[1:], err
	})
}

func quarantineRuns(c *calc[quarantine.Release]) (bool, error) {
	_, res, err := calculate(c, "give the rate with -below", func(r quarantine.Release) (*quarantine.CleanRunsResult, error) {
		return quarantine.CleanRunsFor(r.Below, r.Confidence)
	})
	if err != nil {
		return false, err
	}
	link := words.LinkOf(share.CleanRunsOf(res), c.site)
	res.Link = link.URL
	return false, c.print(printed{res: res, link: link,
		markdown: func() string { return words.CleanRunsMarkdown(res, link) },
		text: func(w io.Writer) error {
			_, err := fmt.Fprintln(w, words.CleanRunsSentence(res))
			return err
		}})
}
