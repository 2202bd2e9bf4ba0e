package runner

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/core/ledger"
)

// maxRowBytes is the longest ledger row Scan reads.
const maxRowBytes = 4 << 20

// State is what a ledger file holds, as a start reads it to resume.
type State struct {
	Records []Record // the run records, in file order
	// Size is the length in bytes of the committed part of the file: up to
	// and with the last run record.
	Size int64
	// Torn is the length of what follows: rows of the run in progress when
	// a kill stopped the last start, and a line it cut short. They are not
	// part of the ledger.
	Torn int64
	// TornRun is the run those rows belonged to, when a row says.
	TornRun string
	// Lines is the number of lines in the committed part.
	Lines int
}

// LedgerError is a fault in a ledger file: what, on which line and, when
// known, at which column; written file:line:column: as flakegate ledger
// and every reader write a position.
type LedgerError struct {
	File   string
	Line   int // 1-based
	Column int // 1-based, in characters; 0 when the fault is the whole row
	Msg    string
}

func (e *LedgerError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// rowError is a fault of a row at a column of its line.
type rowError struct {
	column int
	msg    string
}

func (e *rowError) Error() string { return e.msg }

// scanRow is every field of a ledger row that Scan checks.
type scanRow struct {
	Run     *string  `json:"run"`
	Arm     *string  `json:"arm"`
	NodeID  *string  `json:"nodeid"`
	When    *string  `json:"when"`
	Outcome *string  `json:"outcome"`
	Seq     int64    `json:"seq"`
	Trials  int64    `json:"trials"`
	Passed  int64    `json:"passed"`
	Exit    int64    `json:"exit"`
	Seconds float64  `json:"seconds"`
	Command string   `json:"command"`
	Commit  string   `json:"commit"`
	Error   string   `json:"error"`
	Notes   []string `json:"notes"`
	TS      float64  `json:"ts"`
}

// Scan reads a ledger file written by this package (name is for messages).
// Rows after the last run record are the torn tail, not an error: they
// must all be of one run that has no record yet. Anything else that this
// package would not have written is an error with its line.
func Scan(r io.Reader, name string) (*State, error) {
	st := &State{}
	br := bufio.NewReaderSize(r, 64<<10)
	var off int64
	line := 0
	// pending counts the trial rows since the last record, all of one run.
	var pendingRun, pendingArm string
	var pendingCalls int64
	pendingLine := 0
	done := map[string]int{} // run id -> line of its done record
	var sc rowScanner
	bad := func(n int, format string, args ...any) error {
		return &LedgerError{File: name, Line: n, Msg: fmt.Sprintf(format, args...)}
	}
	for {
		raw, err := readLine(br)
		if len(raw) == 0 && errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, bufio.ErrBufferFull) {
				return nil, bad(line+1, "a row longer than %d bytes", maxRowBytes)
			}
			return nil, err
		}
		line++
		off += int64(len(raw))
		if raw[len(raw)-1] != '\n' {
			// A last line without its newline: cut short by a kill.
			st.Torn = off - st.Size
			break
		}
		t := bytes.TrimSpace(raw)
		if len(t) == 0 {
			if pendingLine == 0 {
				st.Size, st.Lines = off, line
			}
			continue
		}
		row, err := sc.row(t)
		if err != nil {
			var re *rowError
			if errors.As(err, &re) {
				return nil, &LedgerError{File: name, Line: line, Column: re.column, Msg: "not a JSON ledger row: " + re.msg}
			}
			return nil, bad(line, "not a JSON ledger row: %v", err)
		}
		if row.Run == nil || *row.Run == "" || row.Arm == nil || row.When == nil || row.Outcome == nil {
			return nil, bad(line, "a ledger row needs run, arm, when and outcome")
		}
		run, arm, when, outcome := *row.Run, *row.Arm, *row.When, *row.Outcome
		if arm != ledger.ArmBaseline && arm != ledger.ArmPatched {
			return nil, bad(line, "arm must be baseline or patched, got %q", arm)
		}
		if when != WhenRun {
			switch {
			case when != "call" && when != "setup" && when != "teardown":
				return nil, bad(line, "when must be call, setup, teardown or run, got %q", when)
			case row.NodeID == nil || *row.NodeID == "":
				return nil, bad(line, "a trial row needs a nodeid")
			case outcome != "passed" && outcome != "failed" && outcome != "skipped":
				return nil, bad(line, "outcome must be passed, failed or skipped, got %q", outcome)
			case pendingLine != 0 && (run != pendingRun || arm != pendingArm):
				return nil, bad(line, "a row of run %s (%s) among the rows of run %s (%s) from line %d, before any run record: "+
					"this ledger was not written by flakegate run, or it was edited", run, arm, pendingRun, pendingArm, pendingLine)
			}
			if pendingLine == 0 {
				pendingRun, pendingArm, pendingLine = run, arm, line
			}
			if when == "call" {
				pendingCalls++
			}
			continue
		}
		rec := Record{Run: run, Arm: arm, When: when, Outcome: outcome, Seq: int(row.Seq), Trials: row.Trials,
			Passed: row.Passed, Exit: int(row.Exit), Seconds: row.Seconds, Command: row.Command, Commit: row.Commit,
			Error: row.Error, Notes: row.Notes, TS: row.TS}
		switch {
		case outcome != OutcomeDone && outcome != OutcomeError:
			return nil, bad(line, "a run record's outcome must be done or error, got %q", outcome)
		case pendingLine != 0 && (run != pendingRun || arm != pendingArm):
			return nil, bad(line, "the record of run %s (%s) follows rows of run %s (%s) from line %d: "+
				"this ledger was not written by flakegate run, or it was edited", run, arm, pendingRun, pendingArm, pendingLine)
		case outcome == OutcomeDone && pendingCalls != rec.Trials:
			return nil, bad(line, "run %s's record counts %s, the rows before it %d", run, core.Nouns(rec.Trials, "trial"), pendingCalls)
		case outcome == OutcomeDone && (rec.Trials < 1 || rec.Passed < 0 || rec.Passed > rec.Trials):
			return nil, bad(line, "run %s's record counts %d passed of %d trials", run, rec.Passed, rec.Trials)
		case outcome == OutcomeError && pendingLine != 0:
			return nil, bad(line, "run %s's error record follows trial rows from line %d", run, pendingLine)
		case rec.Seconds < 0 || rec.Seq < 0:
			return nil, bad(line, "run %s's record has a negative seq or seconds", run)
		}
		if outcome == OutcomeDone {
			if prev, ok := done[arm+"\x00"+run]; ok {
				return nil, bad(line, "run %s (%s) is recorded twice, on lines %d and %d", run, arm, prev, line)
			}
			done[arm+"\x00"+run] = line
		}
		st.Records = append(st.Records, rec)
		pendingRun, pendingArm, pendingCalls, pendingLine = "", "", 0, 0
		st.Size, st.Lines = off, line
	}
	st.Torn = off - st.Size
	if st.Torn > 0 && pendingLine != 0 {
		st.TornRun = pendingRun
	}
	return st, nil
}

// readLine reads one line with its newline (none at the end of the file).
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > maxRowBytes {
			return nil, bufio.ErrBufferFull
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, err
	}
}

// rowScanner decodes ledger rows with the core's strict scanner: the
// fields of scanRow by their exact names (null leaves one unset), other
// fields checked and skipped, no field twice.
type rowScanner struct{ s jsonscan.Scanner }

// The names of scanRow's fields by the kind of their value, in the order
// row lists where each one goes.
var (
	stringKeys = [...]string{"run", "arm", "nodeid", "when", "outcome"} // a string that may be missing
	textKeys   = [...]string{"command", "commit", "error"}              // a string, "" when missing
	wholeKeys  = [...]string{"seq", "exit", "trials", "passed"}         // a whole number
	numberKeys = [...]string{"seconds", "ts"}                           // any number
)

// keyIndex returns where key stands in keys, or -1.
func keyIndex(keys []string, key []byte) int {
	for i, k := range keys {
		if string(key) == k {
			return i
		}
	}
	return -1
}

// row decodes one row; an error says at which column and field.
func (r *rowScanner) row(line []byte) (scanRow, error) {
	s := &r.s
	s.Reset(line, 1, "line")
	var row scanRow
	strs := [len(stringKeys)]**string{&row.Run, &row.Arm, &row.NodeID, &row.When, &row.Outcome}
	texts := [len(textKeys)]*string{&row.Command, &row.Commit, &row.Error}
	wholes := [len(wholeKeys)]*int64{&row.Seq, &row.Exit, &row.Trials, &row.Passed}
	nums := [len(numberKeys)]*float64{&row.Seconds, &row.TS}
	err := s.Object(func(key []byte) error {
		if s.Null() {
			return nil // as if the field were not there
		}
		var err error
		if i := keyIndex(stringKeys[:], key); i >= 0 {
			v, err := s.Text()
			*strs[i] = &v
			return err
		}
		if i := keyIndex(textKeys[:], key); i >= 0 {
			*texts[i], err = s.Text()
			return err
		}
		if i := keyIndex(wholeKeys[:], key); i >= 0 {
			*wholes[i], err = s.Int()
			return err
		}
		if i := keyIndex(numberKeys[:], key); i >= 0 {
			if k, err := s.Kind(); err != nil || k != jsonscan.Number {
				if err == nil {
					err = s.Errorf(s.At(), "want a number, got %s", k)
				}
				return err
			}
			raw, err := s.Number()
			if err == nil {
				*nums[i], err = strconv.ParseFloat(string(raw), 64)
			}
			return err
		}
		if string(key) == "notes" {
			return s.Array(func(int) error {
				t, err := s.Text()
				row.Notes = append(row.Notes, t)
				return err
			})
		}
		return s.Skip()
	})
	if err == nil {
		err = s.End()
	}
	var e *jsonscan.Error
	if errors.As(err, &e) {
		return row, &rowError{column: e.Column, msg: e.PathMsg()}
	}
	return row, err
}

// done reports, per arm, the runs with a done record.
func (st *State) done() map[string]map[string]bool {
	out := map[string]map[string]bool{ledger.ArmBaseline: {}, ledger.ArmPatched: {}}
	for _, r := range st.Records {
		if r.Outcome == OutcomeDone {
			out[r.Arm][r.Run] = true
		}
	}
	return out
}

// Unresolved returns the error records of runs that have no done record
// after them: the runs still missing because the command failed.
func (st *State) Unresolved() []Record {
	d := st.done()
	var out []Record
	seen := map[string]int{}
	for _, r := range st.Records {
		if r.Outcome != OutcomeError || d[r.Arm][r.Run] {
			continue
		}
		k := r.Arm + "\x00" + r.Run
		if i, ok := seen[k]; ok {
			out[i] = r // the latest attempt
			continue
		}
		seen[k] = len(out)
		out = append(out, r)
	}
	return out
}

// ledgerFile is a ledger open for appending, locked against a second start.
type ledgerFile struct {
	f    *os.File
	name string
	size int64
}

// openLedger opens (or creates) the ledger at path, locks it, reads it and
// drops a torn tail. The warnings say what was dropped.
func openLedger(path string) (*ledgerFile, *State, []string, error) {
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("ledger %s: %w", path, unwrapPath(err))
	}
	if errors.Is(statErr, os.ErrNotExist) {
		syncDir(filepath.Dir(path))
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("ledger %s: %w", path, err)
	}
	st, err := Scan(f, path)
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	var warns []string
	if st.Torn > 0 {
		if err := f.Truncate(st.Size); err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("ledger %s: dropping the torn tail: %w", path, unwrapPath(err))
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("ledger %s: %w", path, unwrapPath(err))
		}
		what := "an unfinished line"
		if st.TornRun != "" {
			what = "the rows of run " + st.TornRun + ", which has no run record"
		}
		warns = append(warns, fmt.Sprintf("the ledger ended with %s (%s after line %d), left by a start that was killed: dropped; that run is done again",
			what, core.Nouns(st.Torn, "byte"), st.Lines))
	}
	return &ledgerFile{f: f, name: path, size: st.Size}, st, warns, nil
}

// append writes one run's rows and record with one write and flushes them
// to the disk. On a failed write it cuts the file back to what it was.
func (lf *ledgerFile) append(batch []byte) error {
	n, err := lf.f.Write(batch)
	if err == nil && n < len(batch) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = lf.f.Sync()
	}
	if err != nil {
		lf.f.Truncate(lf.size)
		return fmt.Errorf("ledger %s: writing a run: %w", lf.name, unwrapPath(err))
	}
	lf.size += int64(n)
	return nil
}

func (lf *ledgerFile) close() error { return lf.f.Close() }

// ReadState reads the ledger at path without locking or changing it; a
// ledger that does not exist yet is empty.
func ReadState(path string) (*State, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return &State{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ledger %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	return Scan(f, path)
}

// syncDir flushes a directory entry (a new file's name) to the disk; where
// that is not possible it does nothing.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
