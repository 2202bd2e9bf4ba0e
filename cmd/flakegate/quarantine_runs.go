package main

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/core/report"
)

// readCheckReports reads a check's reports into a ledger, each file one run
// (a JSONL ledger holds its own runs), with the identity of every run, and
// returns what they say of reg's tests: a run reg has counted already, or
// one given twice, is left out and named in a warning (the run-identity
// rule is docs/QUARANTINE.md's and quarantine.RunHash's).
func readCheckReports(e *env, reg *quarantine.Registry, files []string, format, today string) (*quarantine.Reports, error) {
	l, ids, err := readIdentified(e, files, format, today)
	if err != nil {
		return nil, err
	}
	return quarantine.FromLedgerRuns(l, ids, reg), nil
}

// runIDs are the identities of l's baseline runs, in their order.
func runIDs(l *ledger.Ledger, ids map[string]string) []string {
	var out []string
	for _, run := range l.Runs(ledger.ArmBaseline) {
		if id := ids[run]; id != "" {
			out = append(out, id)
		}
	}
	return out
}

// readIdentified reads report files into a ledger, each file one run (a
// JSONL ledger holds its own runs), and returns the identity of every
// baseline run, keyed by run name.
func readIdentified(e *env, files []string, format, today string) (*ledger.Ledger, map[string]string, error) {
	l := ledger.New()
	ids := map[string]string{}
	for _, name := range files {
		if isStoreFile(name) {
			if err := readStoreLedger(e, l, name, ids); err != nil {
				return nil, nil, err
			}
			continue
		}
		f, err := e.open(name)
		if err != nil {
			return nil, nil, err
		}
		ri, err := identify(f, name, format)
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		before := runSet(l)
		o := report.Options{Format: format, Arm: ledger.ArmBaseline, Run: runName(l, ledger.ArmBaseline, displayName(name))}
		err = ri.read(func(r io.Reader) error { return report.Read(r, o, l) })
		f.Close()
		if err != nil {
			return nil, nil, core.WithFile(err, displayName(name))
		}
		e.recordRuns(l, before, displayName(name))
		for _, run := range l.Runs(ledger.ArmBaseline) {
			if !before[ledger.ArmBaseline+"\x00"+run] {
				ids[run] = ri.id(e, name, today, ledger.ArmBaseline, run)
			}
		}
	}
	return l, ids, nil
}

// runIdentity takes a report's run identities (quarantine.RunHash) as it
// is read.
type runIdentity struct {
	br       *bufio.Reader
	h        *quarantine.RunHash
	isLedger bool
}

// identify starts the identity of the report f (named name, of format, or
// detected).
func identify(f io.Reader, name, format string) (*runIdentity, error) {
	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(4 << 10)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, core.WithFile(err, displayName(name))
	}
	isLedger := format == report.FormatLedger || format == "" && report.DetectFormat(head) == report.FormatLedger
	return &runIdentity{br: br, h: quarantine.NewRunHash(isLedger), isLedger: isLedger}, nil
}

// read gives the report to parse, and hashes what it left unread too.
func (ri *runIdentity) read(parse func(io.Reader) error) error {
	if err := parse(io.TeeReader(ri.br, ri.h)); err != nil {
		return err
	}
	_, err := io.Copy(ri.h, ri.br) // what the reader left unread is the report's too
	return err
}

// id is the identity of the report's run of arm: a JSONL ledger's own
// run, else the report made where runContext says.
func (ri *runIdentity) id(e *env, name, today, arm, run string) string {
	if ri.isLedger {
		return ri.h.LedgerIDs()[arm+"\x00"+run]
	}
	return ri.h.ID(runContext(e, name, today))
}

// runContext says where a report was made, for the identity of a report
// that carries no time of its own: the CI system's run and attempt and the
// file's path when the environment gives them (GitHub Actions, GitLab CI),
// else the file's absolute path and modification time; standard input
// outside CI is told apart by the day of the check.
func runContext(e *env, name, today string) string {
	path := filepath.ToSlash(filepath.Clean(name))
	if id := e.getenv("GITHUB_RUN_ID"); id != "" {
		return "github:" + id + "." + e.getenv("GITHUB_RUN_ATTEMPT") + ":" + path
	}
	if id := e.getenv("CI_JOB_ID"); id != "" {
		return "gitlab:" + id + ":" + path
	}
	if name == "-" {
		return "stdin:" + today
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		abs = name
	}
	mtime := ""
	if st, err := os.Stat(name); err == nil {
		mtime = st.ModTime().UTC().Format(time.RFC3339Nano)
	}
	return "file:" + strings.ReplaceAll(filepath.ToSlash(abs), "@", "%40") + "@" + mtime
}
