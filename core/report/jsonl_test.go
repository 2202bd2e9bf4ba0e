package report

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// A ledger that flakegate run wrote: the pytest plugin's rows, and after each run's
// rows its run record. b1 and b2 ran; p1 failed once and then ran; p2
// failed and never ran. The counts below are the rows, counted by hand.
const runLedger = `{"run":"p2","arm":"patched","when":"run","outcome":"error","seq":1,"error":"the command could not start: gotest: not found","ts":1}
{"run":"b1","arm":"baseline","nodeid":"t.A","when":"call","outcome":"passed","ts":2}
{"run":"b1","arm":"baseline","nodeid":"t.B","when":"call","outcome":"failed","executions":2,"failures":1,"ts":2}
{"run":"b1","arm":"baseline","when":"run","outcome":"done","seq":2,"trials":2,"passed":1,"exit":1,"seconds":1.5,"command":"go test -json ./...","notes":["run b1: 1 test ran more than once in the run"],"ts":2}
{"run":"p1","arm":"patched","when":"run","outcome":"error","seq":3,"error":"no report","ts":3}
{"run":"p1","arm":"patched","nodeid":"t.A","when":"call","outcome":"passed","ts":4}
{"run":"p1","arm":"patched","nodeid":"t.B","when":"call","outcome":"passed","ts":4}
{"run":"p1","arm":"patched","when":"run","outcome":"done","seq":4,"trials":2,"passed":2,"exit":0,"seconds":1.2,"command":"go test -json ./...","ts":4}
{"run":"b2","arm":"baseline","nodeid":"t.A","when":"setup","outcome":"failed","ts":5}
{"run":"b2","arm":"baseline","nodeid":"t.B","when":"call","outcome":"passed","ts":5}
{"run":"b2","arm":"baseline","when":"run","outcome":"done","seq":5,"trials":1,"passed":1,"exit":0,"seconds":1.1,"command":"go test -json ./...","ts":5}
`

// TestRunRecords reads flakegate run's ledger: run records are no trials,
// their notes and the errors of runs never done are warnings.
func TestRunRecords(t *testing.T) {
	if got := DetectFormat([]byte(runLedger)); got != FormatLedger {
		t.Errorf("a ledger that starts with a failed run is detected as %q", got)
	}
	l := ledger.New()
	if err := Read(strings.NewReader(runLedger), Options{}, l); err != nil {
		t.Fatal(err)
	}
	if got := armCounts(l, ledger.ArmBaseline); !reflect.DeepEqual(got, map[string]core.Count{"t.A": {Passed: 1, Trials: 1}, "t.B": {Passed: 1, Trials: 2}}) {
		t.Errorf("baseline %v", got)
	}
	if got := armCounts(l, ledger.ArmPatched); !reflect.DeepEqual(got, map[string]core.Count{"t.A": {Passed: 1, Trials: 1}, "t.B": {Passed: 1, Trials: 1}}) {
		t.Errorf("patched %v", got)
	}
	if got := sides(l, ledger.ArmBaseline)["t.A"]; got.Setup != 1 {
		t.Errorf("baseline t.A's setup failures %+v", got)
	}
	if got, want := l.Runs(ledger.ArmPatched), []string{"p1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("patched runs %v, want %v: a failed run has no trials", got, want)
	}
	want := []string{"run b1: 1 test ran more than once in the run",
		"1 run ended in an error of the command's own and has no trials (p2 (patched)): not test failures; the first said: the command could not start: gotest: not found"}
	if got := l.Notes(); !reflect.DeepEqual(got, want) {
		t.Errorf("notes %q\nwant  %q", got, want)
	}
}

// TestRunRecordErrors: the columns are 1-based byte offsets of the faulty
// value, counted with Python's str.index.
func TestRunRecordErrors(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		line, col int
		frag      string
	}{
		{"record outcome", `{"run":"b1","arm":"baseline","when":"run","outcome":"passed"}`, 1, 53, "a run record's outcome must be done or error"},
		{"trial outcome", `{"run":"b1","arm":"baseline","nodeid":"t","when":"call","outcome":"done"}`, 1, 67, "done and error are for run records"},
		{"error type", `{"run":"b1","arm":"baseline","when":"run","outcome":"error","error":7}`, 1, 69, `field "error" must be a string`},
		{"notes type", `{"run":"b1","arm":"baseline","when":"run","outcome":"done","notes":"x"}`, 1, 68, `field "notes" must be a list of strings`},
		{"no run", `{"arm":"baseline","when":"run","outcome":"done"}`, 1, 1, `missing field "run"`},
		{"trial without nodeid", `{"run":"b1","arm":"baseline","when":"call","outcome":"passed"}`, 1, 1, `missing field "nodeid"`},
		{"bad when", `{"run":"b1","arm":"baseline","nodeid":"t","when":"later","outcome":"passed"}`, 1, 50, "or run, for a run record"},
	} {
		err := ReadLedger(strings.NewReader(c.in), ledger.New())
		var e *core.Error
		if !errors.As(err, &e) || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.frag) {
			t.Errorf("%s: got %v; want %d:%d %q", c.name, err, c.line, c.col, c.frag)
		}
	}
	// Fields named error or notes in other rows are some plugin's own, as before.
	l := ledger.New()
	if err := ReadLedger(strings.NewReader(`{"run":"b1","arm":"baseline","nodeid":"t","when":"call","outcome":"passed","error":{},"notes":1}`), l); err != nil {
		t.Errorf("a trial row's own error and notes fields: %v", err)
	}
}

// TestLedgerTornTail: a ledger flakegate run was killed while appending to
// is read up to what is complete, with a warning naming the torn lines,
// as the runner's resume drops them (runner.Scan). The counts are
// runLedger's, counted by hand in TestRunRecords.
func TestLedgerTornTail(t *testing.T) {
	wantBaseline := map[string]core.Count{"t.A": {Passed: 1, Trials: 1}, "t.B": {Passed: 1, Trials: 2}}
	for _, c := range []struct{ name, tail, warn string }{
		{"cut line", `{"run":"b3","arm":"baseline","nodeid":"t.A","when":"ca`,
			"line 12 of the ledger is cut short"},
		{"cut in a character", "{\"run\":\"b3\",\"arm\":\"baseline\",\"nodeid\":\"t.\xc3",
			"line 12 of the ledger is cut short"},
		{"cut after an escape", `{"run":"b3","arm":"baseline","nodeid":"t.\ud834\u`,
			"line 12 of the ledger is cut short"},
		{"rows without their record", `{"run":"b3","arm":"baseline","nodeid":"t.A","when":"call","outcome":"failed","ts":6}
{"run":"b3","arm":"baseline","nodeid":"t.B","when":"setup","outcome":"failed","ts":6}
`, "the ledger ends with 2 rows after its last run record (from line 12), of 1 run b3 (baseline) that has no record"},
		{"rows and a cut line", `{"run":"b3","arm":"baseline","nodeid":"t.A","when":"call","outcome":"failed","ts":6}
{"run":"b3","arm":"baseline","nodeid":"t.B","when":"call","outc`, "line 13 of the ledger is cut short"},
	} {
		l := ledger.New()
		if err := Read(strings.NewReader(runLedger+c.tail), Options{}, l); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := armCounts(l, ledger.ArmBaseline); !reflect.DeepEqual(got, wantBaseline) {
			t.Errorf("%s: baseline %v, want %v: the torn tail counts", c.name, got, wantBaseline)
		}
		if got := sides(l, ledger.ArmBaseline)["t.B"]; got.Setup != 0 {
			t.Errorf("%s: t.B's setup failures %+v", c.name, got)
		}
		if w := strings.Join(l.Notes(), "\n"); !strings.Contains(w, c.warn) {
			t.Errorf("%s: warnings %q, want one saying %q", c.name, l.Notes(), c.warn)
		}
	}
	// A last line without a newline that is whole, or wrong other than by
	// its end, is read or refused as any other line.
	l := ledger.New()
	if err := ReadLedger(strings.NewReader(runLedger+`{"run":"b3","arm":"baseline","when":"run","outcome":"error","error":"x"}`), l); err != nil || len(l.Notes()) != 2 {
		t.Errorf("a whole last line: %v, notes %q", err, l.Notes())
	}
	err := ReadLedger(strings.NewReader(runLedger+`{"run":"b3","arm":"baseline","nodeid":"t","when":"body","outcome":"passed"}`), ledger.New())
	var e *core.Error
	if !errors.As(err, &e) || e.Line != 12 || !strings.Contains(e.Msg, "when must be") {
		t.Errorf("a wrong last line: %v", err)
	}
	err = ReadLedger(strings.NewReader(runLedger+`{"run":"b3","arm":"baseline","nodeid":"t","when":"call","outcome":tru}`), ledger.New())
	if !errors.As(err, &e) || e.Line != 12 || !strings.Contains(e.Msg, "malformed JSON") {
		t.Errorf("a malformed last line: %v", err)
	}
	// A ledger of the pytest plugin has no run records: every row counts.
	plugin := `{"run":"b1","arm":"baseline","nodeid":"t.A","when":"call","outcome":"passed"}
{"run":"b1","arm":"baseline","nodeid":"t.B","when":"call","outcome":"failed"}
`
	l = ledger.New()
	if err := ReadLedger(strings.NewReader(plugin), l); err != nil || len(l.Notes()) != 0 || len(armCounts(l, ledger.ArmBaseline)) != 2 {
		t.Errorf("plugin ledger: %v, notes %q, counts %v", err, l.Notes(), armCounts(l, ledger.ArmBaseline))
	}
}
