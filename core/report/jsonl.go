package report

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/core/ledger"
)

// A pytest plugin of the ledger format writes one JSON object per line:
//
//	{"run": "b1", "arm": "baseline", "nodeid": "tests/t.py::test_x",
//	 "when": "call", "outcome": "passed", "ts": 1700000000.123}
//
// It writes every call report and, besides, setup and teardown reports that
// failed. ReadLedger counts them as the reference analyzer does: a call
// row is a trial of nodeid in (arm, run), the last one in a run standing,
// passed only when outcome is "passed"; failed setup and teardown rows are
// counted apart. Unknown fields are ignored; every known field is checked.
//
// flakegate run writes the same rows and, after each run's rows, a run
// record: a row whose when is "run", without a nodeid, whose outcome is
// "done" (the rows before it are the run's trials) or "error" (the command
// failed before it gave a report: no trials). A run record is no trial.
// Its notes (strings: caveats of reading the run's report) become the
// ledger's warnings, and so does the error of a run that no later record
// of the same run and arm marks done.
//
//	{"run": "p3", "arm": "patched", "when": "run", "outcome": "error",
//	 "error": "the command could not start: go: not found", "seq": 6, "ts": 1700000000.5}

// WhenRun is the when of flakegate run's run records.
const WhenRun = "run"

type ledgerRow struct {
	run, arm, nodeid, when, outcome string
	errText                         string   // a run record's error
	notes                           []string // a run record's notes
}

var ledgerFields = []string{"run", "arm", "nodeid", "when", "outcome"}

// ReadLedger reads the per-trial JSONL ledger (fields run, arm, nodeid, when,
// outcome) into l. Errors carry line and column.
//
// A ledger that flakegate run writes can end torn, when a start was killed
// while appending: a last line cut short (no newline, not a whole object),
// and, once the ledger has run records, rows after the last one (a run
// that has none). ReadLedger reads what is complete, leaves the torn tail
// out and says so in a warning with its lines, as flakegate run's resume
// does (it drops that tail and runs that run again). A file whose only
// line is cut short holds nothing whole: that is an error.
func ReadLedger(r io.Reader, l *ledger.Ledger) error {
	lr := newLineReader(r, MaxLineBytes)
	var scan jsonscan.Scanner
	failed := map[string]runFailure{} // runs whose last record is an error
	var failedOrder []string
	records := false        // a run record has been read
	var pending []ledgerRow // rows since the last run record, once there is one
	pendingLine := 0        // the line of the first of them
	rows := 0               // rows read whole
	for line, err := range lr.lines(false) {
		if err != nil {
			return err
		}
		row, err := parseLedgerRow(&scan, line, lr.line)
		if err != nil {
			if lr.unterminated && rows > 0 && cutShort(line) {
				// The last line, without its newline: cut short by a kill.
				warnf(l, "line %d of the ledger is cut short (the file ends inside it, without a newline): "+
					"a write that stopped part way, as when flakegate run is killed; it is left out", lr.line)
				break
			}
			return err
		}
		rows++
		if row.when != WhenRun {
			if records {
				if len(pending) == 0 {
					pendingLine = lr.line
				}
				pending = append(pending, row)
			} else {
				addLedgerRow(l, row)
			}
			continue
		}
		records = true
		for _, p := range pending {
			addLedgerRow(l, p)
		}
		pending = pending[:0]
		key := row.arm + "\x00" + row.run
		if row.outcome == "error" {
			if _, ok := failed[key]; !ok {
				failedOrder = append(failedOrder, key)
			}
			failed[key] = runFailure{row.run, row.arm, row.errText}
		} else {
			delete(failed, key)
		}
		for _, n := range row.notes {
			l.Warn(n)
		}
	}
	warnFailedRuns(l, failed, failedOrder)
	if len(pending) > 0 {
		var runs []string
		for _, p := range pending {
			if r := p.run + " (" + p.arm + ")"; !slices.Contains(runs, r) {
				runs = append(runs, r)
			}
		}
		warnf(l, "the ledger ends with %s after its last run record (from line %d), of %s %s that has no record: "+
			"a run flakegate run did not finish, as when it is killed; they are left out, as its resume leaves them out and runs it again",
			core.Nouns(len(pending), "row"), pendingLine, core.Nouns(len(runs), "run"), core.ListNames(runs))
	}
	return nil
}

// cutShort reports whether line is the beginning of a JSON value that
// the end of the file cut off: the scanner runs out of text, once a UTF-8
// sequence cut in two at the end is dropped.
func cutShort(line []byte) bool {
	for i := len(line) - 1; i >= 0 && i >= len(line)-3; i-- {
		if utf8.RuneStart(line[i]) {
			if !utf8.FullRune(line[i:]) {
				line = line[:i]
			}
			break
		}
	}
	var s jsonscan.Scanner
	s.Reset(line, 1, "line")
	var e *jsonscan.Error
	return errors.As(s.Skip(), &e) && e.Short
}

// addLedgerRow counts a trial row, or a failed setup or teardown.
func addLedgerRow(l *ledger.Ledger, row ledgerRow) {
	if row.when == "call" {
		if row.outcome == "skipped" {
			l.AddSkippedCall()
		}
		l.Add(row.arm, row.run, row.nodeid, row.outcome == "passed")
		return
	}
	if row.outcome == "failed" {
		l.AddSideFailure(row.arm, row.run, row.nodeid, row.when)
	}
}

// parseLedgerRow reads one JSON object, the nth line, with s.
func parseLedgerRow(s *jsonscan.Scanner, line []byte, n int) (ledgerRow, error) {
	if err := checkUTF8(line, n); err != nil {
		return ledgerRow{}, err
	}
	s.Reset(line, n, "line")
	posErr := func(at jsonscan.Pos, format string, args ...any) error {
		l, c := s.Where(at)
		return core.PosErrorf(core.Invalid, l, c, format, args...)
	}
	start := s.At()
	if k, err := s.Kind(); err != nil || k != jsonscan.Object {
		return ledgerRow{}, posErr(start, "want a JSON object with run, arm, nodeid, when and outcome")
	}
	var row ledgerRow
	var seen [5]bool // of ledgerFields
	var outcomeAt, errAt, notesAt jsonscan.Pos
	var errRaw, notesRaw []byte
	err := s.Object(func(key []byte) error {
		at := s.At()
		var dst *string
		switch string(key) {
		case "run":
			dst, seen[0] = &row.run, true
		case "arm":
			dst, seen[1] = &row.arm, true
		case "nodeid":
			dst, seen[2] = &row.nodeid, true
		case "when":
			dst, seen[3] = &row.when, true
		case "outcome":
			dst, seen[4], outcomeAt = &row.outcome, true, at
		case "error", "notes":
			// A run record's; another row's own, of any kind. Which this
			// row is shows only at its end.
			raw, err := s.Value()
			if key[0] == 'e' {
				errRaw, errAt = raw, at
			} else {
				notesRaw, notesAt = raw, at
			}
			return err
		case "ts":
			if k, err := s.Kind(); err != nil || k != jsonscan.Number {
				raw, err := s.Value()
				if err != nil {
					return err
				}
				return posErr(at, "field \"ts\" must be a number of seconds, got %s", clip(raw))
			}
			_, err := s.Number()
			return err
		default:
			return s.Skip() // fields of newer plugins
		}
		v, err := stringField(s, key)
		if err != nil {
			return err
		}
		*dst = string(v)
		if err := checkLedgerValue(string(key), *dst); err != nil {
			err.Line, err.Column = s.Where(at)
			return err
		}
		return nil
	})
	if err != nil {
		return ledgerRow{}, jsonErr(err)
	}
	if at := s.At(); !s.AtEnd() {
		return ledgerRow{}, posErr(at, "unexpected text after the JSON object: one object per line")
	}
	for i, f := range ledgerFields {
		if !seen[i] && !(f == "nodeid" && row.when == WhenRun) {
			return ledgerRow{}, posErr(start, "missing field %q", f)
		}
	}
	if row.when != WhenRun {
		if row.outcome == "done" || row.outcome == "error" {
			return ledgerRow{}, posErr(outcomeAt, "outcome must be passed, failed or skipped, got %q (done and error are for run records, whose when is \"run\")", row.outcome)
		}
		return row, nil
	}
	// A run record of flakegate run.
	if row.outcome != "done" && row.outcome != "error" {
		return ledgerRow{}, posErr(outcomeAt, "a run record's outcome must be done or error, got %q", row.outcome)
	}
	var sub jsonscan.Scanner
	if errRaw != nil {
		sub.Reset(errRaw, n, "line")
		v, err := sub.String()
		if err != nil && !sub.Null() || err == nil && !sub.AtEnd() {
			return ledgerRow{}, posErr(errAt, "field \"error\" must be a string, got %s", clip(errRaw))
		}
		row.errText = string(v)
	}
	if notesRaw != nil {
		sub.Reset(notesRaw, n, "line")
		var err error
		if !sub.Null() {
			err = sub.Array(func(int) error {
				v, err := sub.String()
				row.notes = append(row.notes, string(v))
				return err
			})
		}
		if err != nil {
			return ledgerRow{}, posErr(notesAt, "field \"notes\" must be a list of strings, got %s", clip(notesRaw))
		}
	}
	return row, nil
}

// runFailure is a run of flakegate run that ended in an error of its own.
type runFailure struct{ run, arm, err string }

// warnFailedRuns says which runs have no trials because their command
// failed, in the order they first failed.
func warnFailedRuns(l *ledger.Ledger, failed map[string]runFailure, order []string) {
	var runs []string
	first := ""
	for _, k := range order {
		f, ok := failed[k]
		if !ok {
			continue
		}
		if first == "" {
			first = f.err
		}
		runs = append(runs, f.run+" ("+f.arm+")")
	}
	if len(runs) == 0 {
		return
	}
	have := "have"
	if len(runs) == 1 {
		have = "has"
	}
	msg := fmt.Sprintf("%s ended in an error of the command's own and %s no trials (%s): not test failures",
		core.Nouns(len(runs), "run"), have, core.ListNames(runs))
	if first != "" {
		msg += "; the first said: " + first
	}
	l.Warn(msg)
}

func checkLedgerValue(key, v string) *core.Error {
	switch key {
	case "arm":
		if v == ledger.ArmBaseline || v == ledger.ArmPatched {
			return nil
		}
		if v == "unset" {
			return &core.Error{Kind: core.Invalid, Msg: `arm is "unset", the plugin's default: set FLAKE_ARM to baseline or patched for each run`}
		}
		return &core.Error{Kind: core.Invalid, Msg: fmt.Sprintf("arm must be baseline or patched, got %q", v)}
	case "when":
		if v == "setup" || v == "call" || v == "teardown" || v == WhenRun {
			return nil
		}
		return &core.Error{Kind: core.Invalid, Msg: fmt.Sprintf("when must be setup, call or teardown (or run, for a run record), got %q", v)}
	case "outcome":
		// done and error are a run record's; the row's when decides.
		if v == "passed" || v == "failed" || v == "skipped" || v == "done" || v == "error" {
			return nil
		}
		return &core.Error{Kind: core.Invalid, Msg: fmt.Sprintf("outcome must be passed, failed or skipped, got %q", v)}
	case "nodeid":
		if v == "" {
			return &core.Error{Kind: core.Invalid, Msg: "nodeid must not be empty"}
		}
	}
	return nil
}

// clip shows at most 40 bytes of a JSON value in a message.
func clip(raw []byte) string {
	if r := []rune(string(raw)); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return string(raw)
}
