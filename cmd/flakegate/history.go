package main

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// maxHistoryFileBytes bounds one report of a history (a file, or a file in
// a zip archive, uncompressed).
const maxHistoryFileBytes = 1 << 30

// reportExts are the files a folder contributes: the report formats'
// usual names. A file named on the command line is read whatever its name.
var reportExts = history.ReportExts

// historyInput is one run's report: a file, or a file inside a zip archive.
type historyInput struct {
	name  string // as messages and the manifest name it
	entry string // for a file in a zip archive, its name there
	store bool   // a history store (docs/STORE.md): many runs
	open  func() (io.ReadCloser, error)
}

// historyInputs expands the arguments: files, folders (their report files,
// recursively, sorted), globs, and zip archives (each file inside one run).
func historyInputs(args []string) ([]historyInput, func(), error) {
	var out []historyInput
	var closers []io.Closer
	done := func() {
		for _, c := range closers {
			c.Close()
		}
	}
	add := func(path string, fromFolder bool) error {
		if strings.EqualFold(filepath.Ext(path), ".zip") {
			z, err := zip.OpenReader(path)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
					return fmt.Errorf("%s: %w", path, unwrapPathError(err))
				}
				return &core.Error{Kind: core.Invalid, File: path, Msg: history.ZipProblem(err)}
			}
			closers = append(closers, z)
			for _, f := range history.ReportEntries(&z.Reader) {
				if f.UncompressedSize64 > maxHistoryFileBytes {
					return &core.Error{Kind: core.TooLarge, File: path + ":" + f.Name, Msg: "over 1 GiB uncompressed"}
				}
				out = append(out, historyInput{name: path + ":" + f.Name, entry: f.Name, open: f.Open})
			}
			return nil
		}
		if fromFolder && !slices.Contains(reportExts, strings.ToLower(filepath.Ext(path))) {
			return nil
		}
		out = append(out, historyInput{name: path, store: isStoreFile(path), open: func() (io.ReadCloser, error) {
			f, err := os.Open(path)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
			}
			return f, nil
		}})
		return nil
	}
	for _, a := range args {
		paths := []string{a}
		if strings.ContainsAny(a, "*?[") {
			m, err := filepath.Glob(a)
			if err != nil {
				done()
				return nil, nil, usagef("%s: not a valid glob: %v", a, err)
			}
			if len(m) == 0 {
				done()
				return nil, nil, usagef("%s: no file matches", a)
			}
			paths = m
		}
		for _, p := range paths {
			st, err := os.Stat(p)
			if err != nil {
				done()
				return nil, nil, fmt.Errorf("%s: %w", p, unwrapPathError(err))
			}
			if !st.IsDir() {
				if err := add(p, false); err != nil {
					done()
					return nil, nil, err
				}
				continue
			}
			err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if strings.HasPrefix(d.Name(), ".") && path != p {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if d.Type().IsRegular() {
					return add(path, true)
				}
				return nil
			})
			if err != nil {
				done()
				return nil, nil, err
			}
		}
	}
	return out, done, nil
}

func runHistory(c *calc[history.Options]) (bool, error) {
	manifest := c.fs.String("manifest", "", "a CSV `file` with the columns file,run,commit,branch,time,job: what each report file's run was")
	format := c.fs.String("format", "", formatUsage)
	q := quarantineFlags(c.fs)
	if err := c.begin(); err != nil {
		return false, err
	}
	pos := c.pos
	if len(pos) == 0 {
		return false, usagef("name the runs' reports: files, folders, globs or zip archives")
	}
	o, err := c.parsed()
	if err != nil {
		return false, err
	}
	// The settings are checked before the reports are read.
	if err := o.Check(); err != nil {
		return false, c.inputs.named(err)
	}
	h, unlisted, err := readHistory(c.e, pos, *manifest, *format)
	if err != nil {
		return false, err
	}
	res, err := h.Result(o)
	if err != nil {
		return false, err
	}
	if unlisted > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s not in the manifest: their runs are named after their files, with what the reports carry", words.Nouns(unlisted, "file")))
	}
	hq, held, err := q.apply(res, o.Today)
	if err != nil {
		return false, err
	}
	view, err := share.History(res)
	if err != nil {
		return false, err
	}
	link := words.SetLink(view, c.site, &res.Link, &res.LinkNote)
	blocks := historyBlocks(res, held)
	err = c.print(printed{res: historyOutput{res, hq}, link: link,
		markdown: func() string { return words.HistoryMarkdown(res, link) + historyQuarantineMarkdown(hq) },
		text: func(w io.Writer) error {
			if err := historyText(w, res); err != nil {
				return err
			}
			io.WriteString(w, historyQuarantineMarkdown(hq))
			return nil
		}})
	return blocks, err
}

// readHistory reads the runs' reports the arguments name (historyInputs),
// each its own run, named by the manifest when one is given; it returns
// the history and how many files the manifest did not list.
func readHistory(e *env, pos []string, manifest, format string) (*history.History, int, error) {
	var man *history.Manifest
	if manifest != "" {
		var err error
		man, err = readFile(e, manifest, func(f io.Reader) (*history.Manifest, error) {
			m, err := history.ReadManifest(f)
			return m, core.WithFile(err, manifest)
		})
		if err != nil {
			return nil, 0, err
		}
	}
	inputs, done, err := historyInputs(pos)
	if err != nil {
		return nil, 0, err
	}
	defer done()
	if len(inputs) == 0 {
		return nil, 0, usagef("no report files in %s (a folder gives its %s files)", strings.Join(pos, ", "), strings.Join(reportExts, ", "))
	}
	h := history.New()
	unlisted := 0
	metas := make([]history.RunMeta, len(inputs))
	for i, in := range inputs {
		metas[i] = history.RunMeta{Name: in.name, File: in.name}
		if man == nil {
			continue
		}
		m, ok := man.Lookup(in.entry)
		if !ok || in.entry == "" {
			m, ok = man.Lookup(in.name)
		}
		if !ok {
			unlisted++
			continue
		}
		m.File = in.name
		if m.Name == "" {
			m.Name = in.name
		}
		metas[i] = m
	}
	err = readInputs(e, inputs, func(i int) (*history.Parsed, error) {
		rc, err := inputs[i].open()
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		p, err := history.ParseRun(metas[i], report.LimitReader(rc, maxHistoryFileBytes), report.Options{Format: format}, 0)
		if err != nil && history.IsZipError(err) {
			return nil, &core.Error{Kind: core.Invalid, File: inputs[i].name, Msg: history.ZipProblem(err)}
		}
		return p, err
	}, h)
	if err != nil {
		return nil, 0, err
	}
	return h, unlisted, nil
}

// readSideBySide parses n files on as many goroutines as there are CPUs
// and adds them in their order: at most twice that many files are parsed
// and not yet added. The first error (in file order) stops it.
func readSideBySide(e *env, n int, parse func(i int) (*history.Parsed, error), add func(*history.Parsed) error) error {
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	type result struct {
		p   *history.Parsed
		err error
	}
	slots := make([]chan result, n)
	for i := range slots {
		slots[i] = make(chan result, 1)
	}
	next := make(chan int)
	stop := make(chan struct{})
	tokens := make(chan struct{}, 2*workers) // files parsed or being parsed, not yet added
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				p, err := parse(i)
				slots[i] <- result{p, err}
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range n {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	var err error
	for i := range n {
		// At most 2×workers files are parsed ahead of the one added: the
		// feeder takes a token per file, and a token comes back when the
		// file is added.
		r := <-slots[i]
		<-tokens
		err = r.err
		if err == nil {
			err = e.ctx.Err()
		}
		if err == nil {
			err = add(r.p)
		}
		if err != nil {
			close(stop)
			break
		}
	}
	// The workers never block (each slot holds its one result): once the
	// feeder stops, they finish the files they hold and return.
	wg.Wait()
	return err
}

// historyBlocks: the history blocks when a flaky test needs more reruns
// than the cap and is not in the quarantine registry given.
func historyBlocks(res *history.Result, quarantined map[string]bool) bool {
	for _, f := range res.Flakes {
		if f.OverCap && !quarantined[f.Test] {
			return true
		}
	}
	return false
}

// historyText is the text report: the answer, the flaky tests, incidents.
func historyText(w io.Writer, r *history.Result) error {
	fmt.Fprintln(w, words.HistoryAnswer(r))
	fmt.Fprintf(w, "naive rule (failed and passed at least once): %s\n", words.Nouns(r.Naive, "test"))
	if len(r.Flakes) > 0 {
		fmt.Fprintln(w, "\nflaky tests (rate: share of its runs that failed; 95% Wilson interval):")
		t := newTable(w)
		head := []string{"test", "failed/ran", "rate", "interval", "flips on one commit", "trend", "lane", "reruns"}
		cost := words.HistoryHasCost(r)
		if cost {
			head = append(head, "costs per run")
		}
		t.row(head...)
		for _, f := range r.Flakes {
			k := "-"
			if f.Reruns != nil {
				k = words.Count(*f.Reruns)
			}
			cells := []string{f.Test, words.Fraction(f.Failures, f.Runs), words.Percent(f.Rate), words.Interval(f.Lower, f.Upper),
				words.Count(f.SameCommitFlips), f.Trend.Direction, f.Lane, k}
			if cost {
				cells = append(cells, words.CostCell(f))
			}
			t.row(cells...)
		}
		t.flush()
		if cost {
			fmt.Fprintln(w, words.CostNote)
		}
	}
	if len(r.Incidents) > 0 {
		fmt.Fprintln(w, "\nincidents (kept out of the rates unless -keep-incidents):")
		t := newTable(w)
		t.row("kind", "runs", "failed tests", "p")
		for _, inc := range r.Incidents {
			var runs []string
			for _, rr := range inc.Runs {
				runs = append(runs, "#"+words.Count(int64(rr.Index))+" "+rr.Run)
			}
			t.row(inc.Kind, strings.Join(runs, ", "), words.Count(inc.FailedTests), words.PValue(inc.PValue))
		}
		t.flush()
	}
	if len(r.Broken) > 0 {
		fmt.Fprintln(w, "\nbroken, not flaky:")
		for _, b := range r.Broken {
			fmt.Fprintf(w, "  %s  %s, failed %s\n", b.Test, b.Status, words.Fraction(b.Failures, b.Runs))
		}
	}
	writeWarnings(w, r.Warnings)
	return nil
}
