//go:build integration

// Package check tests the SQL of docs/WAREHOUSE.md with DuckDB's Go
// driver. It is its own module so that the driver (cgo, a large static
// library) stays out of flakegate's; make test runs it (mk/reports.mk).
package check

import (
	"bytes"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// execution is one row of the warehouse table docs/WAREHOUSE.md assumes:
// test_runs(run, arm, test, passed), one row per execution.
type execution struct {
	run, arm, test string
	passed         bool
}

// executions draws a seeded history: 6 runs per arm, 12 tests, some flaky,
// some retried in the same run after a failure.
func executions() []execution {
	rng := rand.New(rand.NewPCG(14, 2026))
	var out []execution
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		for r := 1; r <= 6; r++ {
			run := fmt.Sprintf("%s-%d", arm, r)
			for t := 1; t <= 12; t++ {
				p := 1 - float64(t%4)*0.15
				for try := 0; try < 3; try++ {
					ok := rng.Float64() < p
					out = append(out, execution{run, arm, fmt.Sprintf("example.com/m.Test%02d", t), ok})
					if ok || t%3 != 0 {
						break // tests 3, 6, 9, 12 are retried after a failure
					}
				}
			}
		}
	}
	return out
}

// goTestJSON writes the executions of one run as go test -json.
func goTestJSON(rows []execution, run string) []byte {
	var b bytes.Buffer
	for _, e := range rows {
		if e.run != run {
			continue
		}
		pkg, name, _ := strings.Cut(e.test, ".")
		action := "fail"
		if e.passed {
			action = "pass"
		}
		fmt.Fprintf(&b, `{"Action":"run","Package":%q,"Test":%q}`+"\n", pkg, name)
		fmt.Fprintf(&b, `{"Action":%q,"Package":%q,"Test":%q}`+"\n", action, pkg, name)
	}
	return b.Bytes()
}

// runSQL runs one of docs/warehouse/duckdb/*.sql against the table and
// returns the CSV its COPY writes.
func runSQL(t *testing.T, db *sql.DB, name string) string {
	t.Helper()
	q, err := os.ReadFile("../duckdb/" + name + ".sql")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), name+"-counts.csv")
	text := strings.Replace(string(q), "'"+name+"-counts.csv'", "'"+out+"'", 1)
	if _, err := db.Exec(text); err != nil {
		t.Fatalf("%s.sql: %v", name, err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestWarehouseCounts checks the SQL of docs/WAREHOUSE.md with DuckDB: the
// counts it writes from one row per execution give the same verdicts,
// budgets and A/A figures as the go test -json reports of those runs.
func TestWarehouseCounts(t *testing.T) {
	rows := executions()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE test_runs (run VARCHAR, arm VARCHAR, test VARCHAR, passed BOOLEAN)`); err != nil {
		t.Fatal(err)
	}
	for _, e := range rows {
		if _, err := db.Exec(`INSERT INTO test_runs VALUES (?, ?, ?, ?)`, e.run, e.arm, e.test, e.passed); err != nil {
			t.Fatal(err)
		}
	}
	// From the raw reports: one go test -json file per run.
	raw := ledger.New()
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		for r := 1; r <= 6; r++ {
			run := fmt.Sprintf("%s-%d", arm, r)
			if err := report.Read(bytes.NewReader(goTestJSON(rows, run)), report.Options{Arm: arm, Run: run}, raw); err != nil {
				t.Fatal(err)
			}
		}
	}
	// ledger: the same tests, counts and verdicts.
	fromCounts := ledger.New()
	if err := report.Read(strings.NewReader(runSQL(t, db, "ledger")), report.Options{}, fromCounts); err != nil {
		t.Fatal(err)
	}
	opt := ledger.DefaultOptions
	opt.MinTrials = 5
	tests := func(l *ledger.Ledger) string { // the ledger's per-test result as JSON
		res, err := l.Result(opt)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		core.WriteJSON(&b, res.Tests)
		return b.String()
	}
	if want, got := tests(raw), tests(fromCounts); got != want {
		t.Errorf("ledger from counts differs:\n got %s\nwant %s", got, want)
	}
	// budget: the same flaky tests and budgets (recovered runs aside: sums
	// carry no order).
	budget := ledger.New()
	if err := report.Read(strings.NewReader(runSQL(t, db, "budget")), report.Options{}, budget); err != nil {
		t.Fatal(err)
	}
	baseOnly := ledger.New()
	for r := 1; r <= 6; r++ {
		run := fmt.Sprintf("baseline-%d", r)
		if err := report.Read(bytes.NewReader(goTestJSON(rows, run)), report.Options{Run: run}, baseOnly); err != nil {
			t.Fatal(err)
		}
	}
	budgets := func(l *ledger.Ledger) *ledger.FlakesResult {
		f, err := l.FlakeBudgets(gate.DefaultBudgetInput)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	wf, gf := budgets(baseOnly), budgets(budget)
	if len(wf.Flakes) != len(gf.Flakes) || len(wf.Flakes) == 0 {
		t.Fatalf("%d flaky tests from counts, %d from reports", len(gf.Flakes), len(wf.Flakes))
	}
	for i := range wf.Flakes {
		w, g := wf.Flakes[i], gf.Flakes[i]
		var wb, gb bytes.Buffer
		core.WriteJSON(&wb, w.Budget)
		core.WriteJSON(&gb, g.Budget)
		if w.NodeID != g.NodeID || w.Fails != g.Fails || w.Executions != g.Executions || wb.String() != gb.String() {
			t.Errorf("budget of %s: counts %+v %+v, reports %+v %+v", w.NodeID, g.FlakeHistory, g.Budget, w.FlakeHistory, w.Budget)
		}
	}
	// aa: the same A/A figures.
	side, err := aa.ReadCounts(strings.NewReader(runSQL(t, db, "aa")))
	if err != nil {
		t.Fatal(err)
	}
	rawSide, err := aa.FromLedger(raw, ledger.ArmBaseline)
	if err != nil {
		t.Fatal(err)
	}
	check := func(s *aa.Side) *aa.Result {
		res, err := aa.Check(s, nil, aa.DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := check(rawSide), check(side)
	if a.Scenarios != b.Scenarios || a.Runs != b.Runs || a.Rows != b.Rows || a.V != b.V || a.Noise.S != b.Noise.S || a.Mixed != b.Mixed {
		t.Errorf("A/A from counts %+v, from reports %+v", b, a)
	}
}
