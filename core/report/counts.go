package report

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// countsKind says which counts CSV a header names: "ledger" for
// test,arm,passed,trials (a two-arm ledger's sums), "budget" for
// test,fails,runs (a rerun budget's history), "" for neither.
func countsKind(header []string) string {
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = core.ColumnName(h)
	}
	return core.KindOf(names, core.CSVKind{Name: "ledger", Columns: []string{"test", "arm", "passed", "trials"}},
		core.CSVKind{Name: "budget", Columns: []string{"test", "fails", "runs"}})
}

// csvHeader is the first line of head split at commas, or nil.
func csvHeader(head []byte) []string {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	line, _, _ := bytes.Cut(head, []byte("\n"))
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] == '{' || line[0] == '<' {
		return nil
	}
	var out []string
	for _, f := range strings.Split(string(line), ",") {
		out = append(out, strings.Trim(strings.TrimSpace(f), `"`))
	}
	return out
}

// readCounts reads sums a warehouse reduced its history to (docs/
// WAREHOUSE.md gives the SQL), as one run of the file:
//   - test,arm,passed,trials: each row is trials executions of test in arm
//     (baseline or patched), passed of them passing;
//   - test,fails,runs: each row is runs executions of test in arm, fails of
//     them failing, as a rerun budget's --observe takes them.
//
// Other columns are ignored. The sums carry no order, so a ledger read from
// them has no recovered runs.
func readCounts(r *bufio.Reader, arm, run string, l *ledger.Ledger) error {
	t := core.NewCSVTable(r, false)
	t.SkipBlank = true
	if err := t.ReadHeader(); err != nil {
		return core.CSVError(err, "malformed CSV", "the counts CSV is empty", true)
	}
	kind := countsKind(t.Header)
	if kind == "" {
		return core.PosErrorf(core.Invalid, 1, 1, "a counts CSV names its columns test,arm,passed,trials (a ledger's sums) or test,fails,runs (a budget's); this header has %s", core.ListNames(t.Header))
	}
	rows := 0
	for line, err := range t.Rows() {
		if err != nil {
			return core.CSVError(err, "malformed CSV", "", true)
		}
		field := func(name string) (string, int) {
			s, c := t.Field(name)
			return s, max(c, 1)
		}
		num := func(name string) (int64, error) {
			s, c := field(name)
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v < 0 {
				return 0, core.PosErrorf(core.Invalid, line, c, "%s must be a whole number >= 0, got %q", name, s)
			}
			return v, nil
		}
		test, c := field("test")
		if test == "" {
			return core.PosErrorf(core.Invalid, line, c, "the row has no test name")
		}
		var passed, trials int64
		rowArm := arm
		if kind == "ledger" {
			a, c := field("arm")
			if a != ledger.ArmBaseline && a != ledger.ArmPatched {
				return core.PosErrorf(core.Invalid, line, c, "arm must be baseline or patched, got %q", a)
			}
			rowArm = a
			if passed, err = num("passed"); err != nil {
				return err
			}
			if trials, err = num("trials"); err != nil {
				return err
			}
		} else {
			fails, err := num("fails")
			if err != nil {
				return err
			}
			if trials, err = num("runs"); err != nil {
				return err
			}
			passed = trials - fails
		}
		if passed < 0 || passed > trials {
			return core.PosErrorf(core.Invalid, line, 1, "the row counts more passes or fails than trials: %d of %d", passed, trials)
		}
		l.AddCounts(rowArm, run, test, passed, trials)
		rows++
	}
	if rows == 0 {
		warnf(l, "run %s: the counts CSV has no rows", run)
	}
	return nil
}
