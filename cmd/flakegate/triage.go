package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/core/triage"
	"github.com/flakegate/flakegate/internal/words"
)

// triageOutput is the triage's JSON result, with what -quarantine
// proposed.
type triageOutput struct {
	*triage.Result
	Quarantine *historyQuarantine `json:"quarantine,omitempty"`
	// Registry is the registry's change (-registry): the proposals added,
	// the proven releases removed, as one diff.
	Registry *registryChange `json:"registry,omitempty"`
}

func runTriage(c *calc[triage.Options]) (bool, error) {
	past := filesFlag(c.fs, "history", "the past runs' `reports`: a file, folder, glob or zip archive, each report one run (as flakegate history reads them); repeat")
	c.fs.Func("store", "a history store `file` (flakegate record -store) holding the past runs; repeat, or mix with -history", past.Set)
	manifest := c.fs.String("manifest", "", "a CSV `file` with the columns file,run,commit,branch,time,job: what each past report's run was")
	format := c.fs.String("format", "", formatUsage)
	q := quarantineFlags(c.fs)
	rf := triageRegistryFlagsOn(c.fs, q)
	if err := c.begin(); err != nil {
		return false, err
	}
	if err := rf.begin(q); err != nil {
		return false, err
	}
	if len(c.pos) == 0 {
		return false, usagef("name this run's reports (the run to triage), and its past with -history")
	}
	if len(*past) == 0 {
		return false, usagef("give the past runs with -history: report files, folders, globs or zip archives")
	}
	o, err := c.parsed()
	if err != nil {
		return false, err
	}
	if err := o.Check(); err != nil {
		return false, c.inputs.named(err)
	}
	h, _, err := readHistory(c.e, *past, *manifest, *format)
	if err != nil {
		return false, err
	}
	meta, run, failedIn, err := readTriageRun(c.e, c.pos, *format)
	if err != nil {
		return false, err
	}
	res, err := h.Result(o.History)
	if err != nil {
		return false, err
	}
	today := o.History.Today
	if today == "" {
		today = time.Now().UTC().Format(time.DateOnly)
	}
	hq, _, err := q.apply(res, today)
	if err != nil {
		return false, err
	}
	if hq != nil {
		o.Quarantine = hq.entries
	}
	o.Today = today
	tr, err := triage.Triage(h, res, meta, run, o)
	if err != nil {
		return false, err
	}
	var rc *registryChange
	quarantineWords := func() string { return historyQuarantineMarkdown(hq) }
	if hq != nil {
		if rc, err = rf.keep(q.path, hq, tr, today); err != nil {
			return false, err
		}
		quarantineWords = func() string { return registryMarkdown(rc, hq, tr, res) }
	}
	err = c.print(printed{res: triageOutput{tr, hq, rc}, notes: func() []annotation { return triageNotes(tr, failedIn) },
		markdown: func() string { return words.TriageMarkdown(tr, words.Link{}) + quarantineWords() },
		text: func(w io.Writer) error {
			if rf.diff {
				_, err := io.WriteString(w, rc.Diff)
				return err
			}
			triageText(w, tr)
			io.WriteString(w, quarantineWords())
			return nil
		}})
	return tr.Blocks, err
}

// readTriageRun reads this run's reports (historyInputs: files, folders, globs,
// zip archives) as one run: a sharded job's reports together. failedIn
// names, per failed test, the first report it failed in.
func readTriageRun(e *env, pos []string, format string) (meta history.RunMeta, run []history.TestResult, failedIn map[string]string, err error) {
	inputs, done, err := historyInputs(pos)
	if err != nil {
		return meta, nil, nil, err
	}
	defer done()
	if len(inputs) == 0 {
		return meta, nil, nil, usagef("no report files in %s", strings.Join(pos, ", "))
	}
	failedIn = map[string]string{}
	err = readSideBySide(e, len(inputs), func(i int) (*history.Parsed, error) {
		rc, err := inputs[i].open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		m := history.RunMeta{Name: inputs[i].name, File: inputs[i].name}
		p, err := history.ParseRun(m, report.LimitReader(rc, maxHistoryFileBytes), report.Options{Format: format}, 0)
		if err != nil && history.IsZipError(err) {
			return nil, &core.Error{Kind: core.Invalid, File: inputs[i].name, Msg: history.ZipProblem(err)}
		}
		return p, err
	}, func(p *history.Parsed) error {
		if meta.Name == "" {
			meta = p.Meta()
		}
		for _, r := range p.Results() {
			if _, ok := failedIn[r.Test]; !ok && r.Passed < r.Trials {
				failedIn[r.Test] = p.Meta().File
			}
			run = append(run, r)
		}
		return nil
	})
	return meta, run, failedIn, err
}

// triageText is the text report: the answer, then each failure's class
// and why.
func triageText(w io.Writer, r *triage.Result) {
	fmt.Fprintln(w, words.TriageAnswer(r))
	if len(r.Failures) > 0 {
		fmt.Fprintln(w)
		t := newTable(w)
		t.row("test", "class", "blocks", "why")
		for _, f := range r.Failures {
			b := "no"
			if f.Blocks {
				b = "yes"
			}
			t.row(f.Test, f.Class, b, words.TriageWhy(r, f))
		}
		t.flush()
	}
	if rs := words.TriageReleases(r); len(rs) > 0 {
		fmt.Fprintln(w, "\nquarantine releases proven:")
		for _, s := range rs {
			fmt.Fprintln(w, "  "+s)
		}
	}
	fmt.Fprintf(w, "\njudged against %s of %s\n", words.Nouns(r.PastRuns, "past run"), words.Nouns(r.PastTests, "test"))
	writeWarnings(w, r.Warnings)
}

// triageNotes are an annotation per failure (an error when it blocks, a
// notice when it is noise) on the first report it failed in (failedIn),
// then the answer and the caveats.
func triageNotes(r *triage.Result, failedIn map[string]string) []annotation {
	var out []annotation
	for _, f := range r.Failures {
		level := "notice"
		if f.Blocks {
			level = "error"
		}
		out = append(out, annotation{level: level, file: failedIn[f.Test], title: "flakegate: " + f.Test + " (" + f.Class + ")",
			msg: sentence(words.TriageWhy(r, f))})
	}
	return append(out, answerNotes(r.Blocks, r.Warnings, func() string { return words.TriageAnswer(r) })()...)
}
