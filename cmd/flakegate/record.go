package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/core/store"
	"github.com/flakegate/flakegate/internal/words"
)

const recordSynopsis = `-store FILE [flags] report ... | -store FILE -merge store ...

Appends one CI run to a history store (docs/STORE.md): the reports given
(any format flakegate reads; several files are one run, as a job's shards),
with its commit, branch, job, CI run and attempt from the flags, else from
the CI's environment (GitHub Actions, GitLab CI, Buildkite, Jenkins), else
from what the reports carry. The same run recorded twice counts once.
flakegate history, quarantine check and budget -from read a store wherever
they read reports.

  flakegate record -store runs.fgs report.xml
  flakegate record -store runs.fgs -merge shard-*.fgs     # parallel jobs' stores
  flakegate record -store runs.fgs -keep 90d report.xml   # and drop runs older than 90 days`

// recordResult is what record did, as -json gives it.
type recordResult struct {
	Store string `json:"store"`
	// Appended counts the entries appended (a recorded run; a merged
	// store's runs); Already those the store held already.
	Appended int `json:"appended"`
	Already  int `json:"already"`
	// Runs and Bytes are the store's, after.
	Runs  int   `json:"runs"`
	Bytes int64 `json:"bytes"`
	// TornBytes were a torn append's bytes, removed before appending.
	TornBytes int64 `json:"torn_bytes"`
	// Dropped counts the runs retention (-keep) removed.
	Dropped int `json:"dropped"`
	// SetAside names the file -repair moved a damaged store's rest to.
	SetAside string `json:"set_aside,omitempty"`
}

func runRecord(e *env, args []string) (bool, error) {
	fs := newFlags(e, "record", recordSynopsis)
	path := fs.String("store", "", "the history store `file` (created when missing)")
	merge := fs.Bool("merge", false, "the arguments are stores: append their runs not yet in -store")
	keep := fs.String("keep", "", "retention: keep runs newer than `N`d (days before the newest run) or the newest N runs")
	repair := fs.Bool("repair", false, "keep a damaged store's intact records and move the rest to FILE.damaged")
	format := fs.String("format", "", formatUsage)
	commit := fs.String("commit", "", "the run's commit (default: the CI's, else the report's)")
	branch := fs.String("branch", "", "the run's branch")
	job := fs.String("job", "", "the run's CI job")
	runID := fs.String("run-id", "", "the CI run's id: with -attempt and the job, the run's identity")
	attempt := fs.Int64("attempt", 0, "the CI run's attempt, 1-based")
	when := fs.String("time", "", "when the run started, RFC 3339 (default: the report's)")
	o := outputFlags(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return false, err
	}
	if _, err := o.check(e); err != nil {
		return false, err
	}
	if *path == "" {
		return false, usagef("name the store: -store FILE")
	}
	if len(pos) == 0 && *keep == "" && !*repair {
		return false, usagef("name the run's reports (or, with -merge, the stores to merge)")
	}
	var retain func([]time.Time) []bool
	if *keep != "" {
		if retain, err = retention(*keep); err != nil {
			return false, err
		}
	}
	var t time.Time
	if *when != "" {
		if t, err = time.Parse(time.RFC3339, *when); err != nil {
			return false, usagef("-time: %q is not an RFC 3339 time (2026-12-01T09:30:00Z)", *when)
		}
	}
	if *attempt < 0 {
		return false, usagef("-attempt: %d is not an attempt (1, 2, ...)", *attempt)
	}
	f, err := openStore(*path, true)
	if err != nil {
		return false, err
	}
	defer f.Close()
	res := recordResult{Store: *path}
	st, data, release, err := scanStore(f, *path)
	if err != nil {
		return false, err
	}
	size := int64(len(data))
	release() // the state is all the rest needs
	if d := st.Damage; d != nil {
		switch {
		case *repair:
			if res.SetAside, err = setAside(f, *path, size, st.End); err != nil {
				return false, err
			}
			fmt.Fprintf(e.stderr, "flakegate record: %v\nkept the %s before it; the %s after it are in %s\n", d, words.Nouns(st.Runs, "run"), words.Nouns(int(size-st.End), "byte"), res.SetAside)
			// The store was replaced: the rest works on the new file.
			f.Close()
			if f, err = openStore(*path, true); err != nil {
				return false, err
			}
			defer f.Close()
			if st, _, release, err = scanStore(f, *path); err != nil {
				return false, err
			}
			release()
		case d.Torn:
			res.TornBytes = size - st.End
			if err := f.Truncate(st.End); err != nil {
				return false, fmt.Errorf("%s: removing a torn append: %w", *path, unwrapPathError(err))
			}
			fmt.Fprintf(e.stderr, "flakegate record: %s: removed a torn append of %s at byte %d (a run whose recording was cut short); the %s before it are intact\n", *path, words.Nouns(int(res.TornBytes), "byte"), st.End, words.Nouns(st.Runs, "run"))
		default:
			return false, d
		}
	}
	var out []byte
	add := func(en store.Entry) {
		if b, ok := st.Add(en); ok {
			out = append(out, b...)
			res.Appended++
		} else {
			res.Already++
		}
	}
	switch {
	case *merge:
		for _, name := range pos {
			if err := mergeStore(e, name, add); err != nil {
				return false, err
			}
		}
	case len(pos) > 0:
		ci := ciEnv(e.getenv)
		meta := history.RunMeta{Commit: or(*commit, ci.commit), Branch: or(*branch, ci.branch), Job: or(*job, ci.job), Time: t}
		en := store.Entry{RunID: or(*runID, ci.runID), Attempt: *attempt, Recorded: time.Now().UTC()}
		if *runID == "" && *attempt == 0 {
			en.Attempt = ci.attempt
		}
		if en.Report, en.Ledger, err = readRun(e, pos, meta, report.Options{Format: *format}, en.RunID); err != nil {
			return false, err
		}
		add(en)
	}
	if len(out) > 0 {
		// One write of every new record at the end of the intact ones,
		// then to disk: a crash leaves a torn tail the next record
		// removes, never a damaged earlier record.
		if _, err := f.WriteAt(out, st.End-int64(len(out))); err != nil {
			return false, fmt.Errorf("%s: appending: %w", *path, unwrapPathError(err))
		}
		if err := f.Sync(); err != nil {
			return false, fmt.Errorf("%s: syncing to disk: %w", *path, unwrapPathError(err))
		}
	}
	res.Runs, res.Bytes = st.Runs, st.End
	if retain != nil {
		if err := applyRetention(f, *path, retain, &res); err != nil {
			return false, err
		}
	}
	return false, o.print(e, printed{res: res,
		markdown: func() string { return recordText(res) + "\n" },
		text: func(w io.Writer) error {
			_, err := fmt.Fprintln(w, recordText(res))
			return err
		}})
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// recordText says what record did in a sentence, then the figures.
func recordText(r recordResult) string {
	var s string
	switch {
	case r.Appended > 0:
		s = fmt.Sprintf("Recorded %s in %s.", words.Nouns(r.Appended, "new recording"), r.Store)
	case r.Already > 0:
		s = fmt.Sprintf("Already recorded: %s holds this run; nothing was appended.", r.Store)
	default:
		s = fmt.Sprintf("Nothing new to record in %s.", r.Store)
	}
	if r.Already > 0 && r.Appended > 0 {
		s += fmt.Sprintf(" %s already there counted once.", words.Nouns(r.Already, "entry"))
	}
	if r.Dropped > 0 {
		s += fmt.Sprintf(" Retention dropped %s.", words.Nouns(r.Dropped, "old run"))
	}
	return s + fmt.Sprintf(" It holds %s in %s.", words.Nouns(r.Runs, "run"), words.Nouns(int(r.Bytes), "byte"))
}

// openStore opens the store at path (creating it when exclusive) and locks
// it: exclusive for an appender, shared for a reader. A store replaced
// while the lock was awaited (retention, -repair) is opened again.
func openStore(path string, exclusive bool) (*os.File, error) {
	for {
		var f *os.File
		var err error
		if exclusive {
			f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		} else {
			f, err = os.Open(path)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
		}
		if err := lockFile(f, exclusive); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: locking: %w", path, err)
		}
		a, err1 := f.Stat()
		b, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(a, b) {
			return f, nil
		}
		f.Close()
		if err2 != nil && !exclusive {
			return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err2))
		}
	}
}

// readWhole reads the first size bytes of f into a buffer of that size.
func readWhole(f *os.File, size int64) ([]byte, func(), error) {
	data := make([]byte, size)
	if n, err := f.ReadAt(data, 0); err != nil && !(errors.Is(err, io.EOF) && n == len(data)) {
		return nil, nil, err
	}
	return data, func() {}, nil
}

// scanStore reads the whole store f for appending: mapped, not copied,
// where the system maps files. The bytes it returns are valid until
// release is called, and only while nothing truncates the file.
func scanStore(f *os.File, path string) (st *store.State, data []byte, release func(), err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	data, release, err = mapFile(f, fi.Size())
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	st, err = store.ScanBytes(data, path)
	if err != nil {
		release()
		return nil, nil, nil, err
	}
	if st.End == 0 && len(data) > 0 {
		// A header cut short: nothing was recorded, the header is written
		// again.
		release()
		if err := f.Truncate(0); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
		}
		return st, nil, func() {}, nil
	}
	return st, data, release, nil
}

// setAside keeps the first end of the size bytes of f as the store at
// path and writes the rest to a file beside it, whose name it returns.
func setAside(f *os.File, path string, size, end int64) (string, error) {
	data, _, err := readWhole(f, size)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	aside := path + ".damaged"
	if err := writeFileAtomic(aside, data[end:]); err != nil {
		return "", err
	}
	return aside, writeFileAtomic(path, data[:end])
}

// readRun reads the reports of one run, with what quarantine check and
// budget -from read beyond history (store.Recorded). One file is its runs
// as history reads it; several are one run (shards of one job), named
// after the CI run when known, else after the files: that run's identity
// for quarantine check is not kept (each shard is a run of its own there),
// and its retries are kept when every shard is one baseline run.
func readRun(e *env, files []string, meta history.RunMeta, opt report.Options, runID string) (*history.Parsed, *store.Recorded, error) {
	var ps []*history.Parsed
	var recs []*store.Recorded
	today := time.Now().UTC().Format(time.DateOnly)
	for _, name := range files {
		m := meta
		m.Name, m.File = displayName(name), displayName(name)
		var rec *store.Recorded
		p, err := readFile(e, name, func(r io.Reader) (*history.Parsed, error) {
			ri, err := identify(report.LimitReader(r, maxHistoryFileBytes), name, opt.Format)
			if err != nil {
				return nil, err
			}
			var p *history.Parsed
			var l *ledger.Ledger
			err = ri.read(func(r io.Reader) error {
				p, l, err = history.ParseRunLedger(m, r, opt, 0)
				return err
			})
			if err != nil {
				return nil, err
			}
			rec = recorded(e, l, ri, name, today)
			return p, nil
		})
		if err != nil {
			return nil, nil, err
		}
		ps = append(ps, p)
		recs = append(recs, rec)
	}
	if len(ps) == 1 {
		return ps[0], recs[0], nil
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = displayName(f)
	}
	var one []history.TestResult
	var notes []string
	secs := map[string]history.Seconds{}
	var order []string
	first, _ := ps[0].Runs()
	m := first[0]
	m.File = strings.Join(names, ", ")
	m.Name = or(runID, m.File)
	merged := &store.Recorded{Arms: []string{ledger.ArmBaseline}, CheckIDs: []string{""}, Retries: [][]ledger.Retry{nil}}
	for i, p := range ps {
		_, runs := p.Runs()
		for _, rs := range runs {
			one = append(one, rs...)
		}
		if merged != nil && len(runs) == 1 && recs[i].Arms[0] == ledger.ArmBaseline {
			merged.Retries[0] = append(merged.Retries[0], recs[i].Retries[0]...)
		} else {
			merged = nil
		}
		for _, n := range p.Notes() {
			notes = append(notes, names[i]+": "+n)
		}
		for _, s := range p.Seconds() {
			c, ok := secs[s.Test]
			if !ok {
				order = append(order, s.Test)
			}
			secs[s.Test] = history.Seconds{Test: s.Test, Sum: c.Sum + s.Sum, N: c.N + s.N}
		}
	}
	timed := make([]history.Seconds, len(order))
	for i, t := range order {
		timed[i] = secs[t]
	}
	return history.NewParsed(m.File, []history.RunMeta{m}, [][]history.TestResult{one}, notes, timed), merged, nil
}

// recorded is what the ledger l, which read the report name, says beyond
// its Parsed (store.RecordedOf), with its runs' identities for quarantine
// check.
func recorded(e *env, l *ledger.Ledger, ri *runIdentity, name, today string) *store.Recorded {
	return store.RecordedOf(l, func(arm, run string) string { return ri.id(e, name, today, arm, run) })
}

// mergeStore gives add every entry of the store at name.
func mergeStore(e *env, name string, add func(store.Entry)) error {
	f, err := openStore(name, false)
	if err != nil {
		return err
	}
	defer f.Close()
	return store.Each(f, name, func(en store.Entry) error {
		add(en)
		return e.ctx.Err()
	})
}

// retention parses -keep: "90d" keeps the runs at most 90 days older than
// the newest, "500" the newest 500 entries.
func retention(s string) (func([]time.Time) []bool, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 {
			return nil, usagef("-keep: %q is not a number of days (90d)", s)
		}
		return func(ts []time.Time) []bool {
			var newest time.Time
			for _, t := range ts {
				if t.After(newest) {
					newest = t
				}
			}
			cut := newest.Add(-time.Duration(n) * 24 * time.Hour)
			keep := make([]bool, len(ts))
			for i, t := range ts {
				keep[i] = t.IsZero() || !t.Before(cut)
			}
			return keep
		}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return nil, usagef("-keep: %q is neither days (90d) nor a number of runs (500)", s)
	}
	return func(ts []time.Time) []bool {
		keep := make([]bool, len(ts))
		for i := range ts {
			keep[i] = i >= len(ts)-n
		}
		return keep
	}, nil
}

// applyRetention rewrites the store f (locked) without the entries retain
// drops: a new file, written whole and renamed over path.
func applyRetention(f *os.File, path string, retain func([]time.Time) []bool, res *recordResult) error {
	var ts []time.Time
	rd, err := store.NewReader(io.NewSectionReader(f, 0, 1<<62), path)
	if err != nil {
		return err
	}
	rd.Skim()
	for {
		en, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		ts = append(ts, store.When(en))
	}
	keep := retain(ts)
	dropped := 0
	for _, k := range keep {
		if !k {
			dropped++
		}
	}
	if dropped == 0 {
		return nil
	}
	st := store.NewState()
	var out []byte
	rd, err = store.NewReader(io.NewSectionReader(f, 0, 1<<62), path)
	if err != nil {
		return err
	}
	for i := range keep {
		en, err := rd.Next()
		if err != nil {
			return err
		}
		if !keep[i] {
			metas, _ := en.Report.Runs()
			res.Dropped += len(metas)
			continue
		}
		b, _ := st.Add(en)
		out = append(out, b...)
	}
	if len(out) == 0 {
		out = store.Header()
	}
	if err := writeFileAtomic(path, out); err != nil {
		return err
	}
	res.Runs, res.Bytes = st.Runs, int64(len(out))
	return nil
}
