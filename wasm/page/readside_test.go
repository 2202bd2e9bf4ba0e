package page

import (
	"os"
	"strings"
	"testing"
)

// A dropped file is read by its content: an A/A CSV of rows or of counts,
// or a report that holds several runs; one run alone is not an A/A check.
func TestReadSideFormats(t *testing.T) {
	counts := "scenario,run,passed,trials\na,,3,3\nb,,2,3\n,r1,3,3\n,r2,2,3\n"
	side, _, err := readSide(strings.NewReader(counts), "counts.csv")
	if err != nil || len(side.Scenarios) != 2 || len(side.Runs) != 2 || side.Rows != 6 {
		t.Fatalf("counts: %+v, %v", side, err)
	}
	// The JSONL trial ledger names its runs: 20 runs per arm.
	raw, err := os.ReadFile("../../core/ledger/testdata/ledger/seed_20x20.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	side, _, err = readSide(strings.NewReader(string(raw)), "runs.jsonl")
	if err != nil || len(side.Runs) != 20 {
		t.Fatalf("ledger: %d runs, %v", len(side.Runs), err)
	}
	// One inspect_ai log is one run.
	raw, err = os.ReadFile("../../core/report/testdata/reports/inspect/arith-run1.json")
	if err != nil {
		t.Fatal(err)
	}
	side, _, err = readSide(strings.NewReader(string(raw)), "runs.jsonl")
	if err != nil || len(side.Runs) != 1 || len(side.Scenarios) != 5 {
		t.Fatalf("inspect log: %+v, %v", side, err)
	}
}
