package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// The seed's pytest plugin writes one JSON object per line:
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

// ReadLedger reads the seed's per-trial JSONL (fields run, arm, nodeid, when,
// outcome) into l. Errors carry line and column.
func ReadLedger(r io.Reader, l *ledger.Ledger) error {
	lr := newLineReader(r, MaxLineBytes)
	failed := map[string]runFailure{} // runs whose last record is an error
	var failedOrder []string
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			warnFailedRuns(l, failed, failedOrder)
			return nil
		}
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		row, err := parseLedgerRow(line, lr.line)
		if err != nil {
			return err
		}
		switch row.when {
		case WhenRun:
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
		case "call":
			if row.outcome == "skipped" {
				l.AddSkippedCall()
			}
			l.Add(row.arm, row.run, row.nodeid, row.outcome == "passed")
		default:
			if row.outcome == "failed" {
				l.AddSideFailure(row.arm, row.run, row.nodeid, row.when)
			}
		}
	}
}

// parseLedgerRow reads one JSON object; n is its line number.
func parseLedgerRow(line []byte, n int) (ledgerRow, error) {
	if err := checkUTF8(line, n); err != nil {
		return ledgerRow{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	syntax := func(err error) error {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			// The offset lands at or just before the offending token.
			off := min(int(se.Offset), len(bytes.TrimRight(line, " \t\r"))-1)
			return core.PosErrorf(core.Invalid, n, valueStart(line, max(off, 0)), "malformed JSON: %v", se)
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return core.PosErrorf(core.Invalid, n, column(line, len(line)), "malformed JSON: the line ends inside the object")
		}
		return core.PosErrorf(core.Invalid, n, column(line, int(dec.InputOffset())), "malformed JSON: %v", err)
	}
	start := len(line) - len(bytes.TrimLeft(line, " \t\r"))
	tok, err := dec.Token()
	if err != nil {
		return ledgerRow{}, syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return ledgerRow{}, core.PosErrorf(core.Invalid, n, column(line, start), "want a JSON object with run, arm, nodeid, when and outcome")
	}
	var row ledgerRow
	seen := map[string]bool{}
	outcomeAt := 0
	var errRaw, notesRaw json.RawMessage
	errAt, notesAt := 0, 0
	for dec.More() {
		keyStart := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return ledgerRow{}, syntax(err)
		}
		key, _ := tok.(string)
		keyEnd := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return ledgerRow{}, syntax(err)
		}
		at := valueStart(line, keyEnd)
		if seen[key] {
			return ledgerRow{}, core.PosErrorf(core.Invalid, n, valueStart(line, keyStart), "field %q appears twice", key)
		}
		seen[key] = true
		var dst *string
		switch key {
		case "run":
			dst = &row.run
		case "arm":
			dst = &row.arm
		case "nodeid":
			dst = &row.nodeid
		case "when":
			dst = &row.when
		case "outcome":
			dst = &row.outcome
			outcomeAt = at
		case "error":
			errRaw, errAt = raw, at
			continue
		case "notes":
			notesRaw, notesAt = raw, at
			continue
		case "ts":
			var num json.Number
			if json.Unmarshal(raw, &num) != nil {
				return ledgerRow{}, core.PosErrorf(core.Invalid, n, at, "field \"ts\" must be a number of seconds, got %s", clip(raw))
			}
			continue
		default:
			continue // fields of newer plugins
		}
		if json.Unmarshal(raw, dst) != nil {
			return ledgerRow{}, core.PosErrorf(core.Invalid, n, at, "field %q must be a string, got %s", key, clip(raw))
		}
		if err := checkLedgerValue(key, *dst); err != nil {
			err.Line, err.Column = n, at
			return ledgerRow{}, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return ledgerRow{}, syntax(err)
	}
	if end := int(dec.InputOffset()); len(bytes.TrimSpace(line[end:])) > 0 {
		return ledgerRow{}, core.PosErrorf(core.Invalid, n, column(line, end+len(line[end:])-len(bytes.TrimLeft(line[end:], " \t\r"))),
			"unexpected text after the JSON object: one object per line")
	}
	for _, f := range ledgerFields {
		if !seen[f] && !(f == "nodeid" && row.when == WhenRun) {
			return ledgerRow{}, core.PosErrorf(core.Invalid, n, column(line, start), "missing field %q", f)
		}
	}
	if row.when != WhenRun {
		if row.outcome == "done" || row.outcome == "error" {
			return ledgerRow{}, core.PosErrorf(core.Invalid, n, outcomeAt, "outcome must be passed, failed or skipped, got %q (done and error are for run records, whose when is \"run\")", row.outcome)
		}
		return row, nil
	}
	// A run record of flakegate run.
	switch {
	case row.outcome != "done" && row.outcome != "error":
		return ledgerRow{}, core.PosErrorf(core.Invalid, n, outcomeAt, "a run record's outcome must be done or error, got %q", row.outcome)
	case errRaw != nil && json.Unmarshal(errRaw, &row.errText) != nil:
		return ledgerRow{}, core.PosErrorf(core.Invalid, n, errAt, "field \"error\" must be a string, got %s", clip(errRaw))
	case notesRaw != nil && json.Unmarshal(notesRaw, &row.notes) != nil:
		return ledgerRow{}, core.PosErrorf(core.Invalid, n, notesAt, "field \"notes\" must be a list of strings, got %s", clip(notesRaw))
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

// valueStart is the column of the next token after off, past blanks,
// colons and commas: the value after a key, or the key after a comma.
func valueStart(line []byte, off int) int {
	for off < len(line) && (line[off] == ' ' || line[off] == '\t' || line[off] == '\r' || line[off] == '\n' || line[off] == ':' || line[off] == ',') {
		off++
	}
	return column(line, off)
}

// clip shows at most 40 bytes of a JSON value in a message.
func clip(raw []byte) string {
	if r := []rune(string(raw)); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return string(raw)
}
