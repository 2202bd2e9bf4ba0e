package aa

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// readReport reads one of the report readers' go test -json samples into l.
func readReport(t *testing.T, l *ledger.Ledger, name string, opt report.Options) error {
	t.Helper()
	f, err := os.Open("../report/testdata/reports/gotest/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return report.Read(f, opt, l)
}

// A run is a file and a test is a scenario for the A/A calculator.
func TestFromLedger(t *testing.T) {
	l := ledger.New()
	for i := range 3 {
		l.AddTrial(ledger.ArmBaseline, fmt.Sprint("r", i), "a", true)
		l.AddTrial(ledger.ArmBaseline, fmt.Sprint("r", i), "b", i != 1)
	}
	l.AddTrial(ledger.ArmBaseline, "r0", "a", false) // a second trial of a in r0
	side, err := FromLedger(l, ledger.ArmBaseline)
	if err != nil {
		t.Fatal(err)
	}
	want := "[{a 3 4} {b 2 3}] [{r0 2 3} {r1 1 2} {r2 2 2}] rows 7 dup 1"
	if got := fmt.Sprintf("%v %v rows %d dup %d", side.Scenarios, side.Runs, side.Rows, side.Duplicates); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if _, err := FromLedger(l, ledger.ArmPatched); core.ErrorKind(err) != core.Unusable {
		t.Errorf("an empty arm is unusable: %v", err)
	}
	// The same side through the A/A calculator: scenario a is mixed.
	res := mustCheck(t, side, nil, DefaultOptions)
	if res.Scenarios != 2 || res.Runs != 3 || res.Rows != 7 {
		t.Errorf("AA: %d scenarios %d runs %d rows", res.Scenarios, res.Runs, res.Rows)
	}
}

// The A/A calculator gives the same bytes for a ledger arm as for the CSV
// with one row per trial (scenario = test, run = run), duplicates included.
func TestFromLedgerMatchesCSV(t *testing.T) {
	l := ledger.New()
	var csv strings.Builder
	csv.WriteString("scenario,run,passed\n")
	state := uint64(12345)
	rnd := func() float64 { // a fixed LCG: deterministic on every platform
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) / (1 << 53)
	}
	for r := range 6 {
		run := fmt.Sprintf("run-%d", r)
		for s := range 40 {
			test := fmt.Sprintf("example.com/p.Test%02d", (s*7)%40)
			reps := 1
			if s%13 == 0 {
				reps = 2 // a -count=2 test: two rows of one (scenario, run)
			}
			for range reps {
				pass := rnd() < 0.5+float64(s)/100
				l.AddTrial(ledger.ArmBaseline, run, test, pass)
				fmt.Fprintf(&csv, "%s,%s,%d\n", test, run, map[bool]int{true: 1, false: 0}[pass])
			}
		}
	}
	side, err := FromLedger(l, ledger.ArmBaseline)
	if err != nil {
		t.Fatal(err)
	}
	fromCSV, err := ReadCSV(strings.NewReader(csv.String()))
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	ra := mustCheck(t, side, side, DefaultOptions)
	rb := mustCheck(t, fromCSV, fromCSV, DefaultOptions)
	core.WriteJSON(&a, ra)
	core.WriteJSON(&b, rb)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("ledger side and CSV differ:\n%s\n%s", a.String(), b.String())
	}
	if side.Duplicates != fromCSV.Duplicates || side.Rows != fromCSV.Rows || side.Duplicates == 0 {
		t.Fatalf("rows %d/%d duplicates %d/%d", side.Rows, fromCSV.Rows, side.Duplicates, fromCSV.Duplicates)
	}
}

// Report files feed the A/A check: each file a run, each test a scenario.
func TestCheckLedger(t *testing.T) {
	l := ledger.New()
	for _, f := range []string{"count5.json", "seed2.json", "panic.json"} {
		if err := readReport(t, l, f, report.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := CheckLedger(l, DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	base, _ := FromLedger(l, ledger.ArmBaseline)
	want := mustCheck(t, base, nil, DefaultOptions)
	if res.Runs != 3 || res.Candidate != nil || res.Scenarios != want.Scenarios || res.V != want.V {
		t.Fatalf("%+v", res)
	}
	if err := readReport(t, l, "seed2.json", report.Options{Arm: ledger.ArmPatched}); err != nil {
		t.Fatal(err)
	}
	if res, err = CheckLedger(l, DefaultOptions); err != nil || res.Candidate == nil || res.Candidate.Runs != 1 {
		t.Fatalf("with a candidate: %+v %v", res, err)
	}
	if _, err := CheckLedger(ledger.New(), DefaultOptions); core.ErrorKind(err) != core.Unusable {
		t.Errorf("empty: %v", err)
	}
}
