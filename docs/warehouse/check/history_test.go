//go:build integration

package check

import (
	"bufio"
	"database/sql"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
)

// HistoryFigures runs docs/warehouse/duckdb/history.sql on db's test_runs
// and returns its per-test figures (test → runs, failures, incident
// failures) and its outage runs.
func historyFigures(t *testing.T, db *sql.DB) (map[string][3]int64, []string) {
	t.Helper()
	q, err := os.ReadFile("../duckdb/history.sql")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	text := strings.NewReplacer("'history-tests.csv'", "'"+filepath.Join(dir, "tests.csv")+"'",
		"'history-outages.csv'", "'"+filepath.Join(dir, "outages.csv")+"'").Replace(string(q))
	if _, err := db.Exec(text); err != nil {
		t.Fatalf("history.sql: %v", err)
	}
	read := func(name string) [][]string {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows[1:]
	}
	figures := map[string][3]int64{}
	for _, r := range read("tests.csv") {
		var v [3]int64
		for i := range 3 {
			v[i], _ = strconv.ParseInt(r[1+i], 10, 64)
		}
		figures[r[0]] = v
	}
	var outages []string
	for _, r := range read("outages.csv") {
		outages = append(outages, r[0])
	}
	return figures, outages
}

// TestHistorySQL checks docs/warehouse/duckdb/history.sql with DuckDB: on a
// planted history (outages, a group of tests failing together, a broken
// test, renames), the outage runs and every listed test's runs, failures
// and incident failures equal flakegate history's, and every test the SQL
// finds failing outside incidents is one flakegate lists.
func TestHistorySQL(t *testing.T) {
	cfg := histsim.Config{Seed: 5, Runs: 400, Stable: 80, Flaky: []float64{0.02, 0.05, 0.1, 0.3, 0.01},
		Outages: 3, OutageShare: [2]float64{0.3, 0.7}, Groups: 1, GroupSize: 3, GroupRuns: 4, Broken: 1, BrokenCommits: 8,
		Renamed: 2, Added: 5, Removed: 5}
	h := history.New()
	rows := filepath.Join(t.TempDir(), "rows.csv")
	f, err := os.Create(rows)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("run,arm,test,passed\n")
	if _, err := histsim.Generate(cfg, func(m history.RunMeta, rs []history.TestResult) error {
		for _, r := range rs {
			fmt.Fprintf(w, "%s,baseline,%s,%v\n", m.Name, r.Test, r.Passed == r.Trials)
		}
		return h.AddRun(m, rs)
	}); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	f.Close()
	res, err := h.Result(history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE test_runs AS SELECT * FROM read_csv('` + rows + `', header = true,
		columns = {'run': 'VARCHAR', 'arm': 'VARCHAR', 'test': 'VARCHAR', 'passed': 'BOOLEAN'})`); err != nil {
		t.Fatal(err)
	}
	figures, outages := historyFigures(t, db)

	var want []string
	groups := 0
	for _, inc := range res.Incidents {
		switch inc.Kind {
		case history.IncidentOutage:
			want = append(want, inc.Runs[0].Run)
		case history.IncidentGroup:
			groups++
		}
	}
	slices.Sort(want)
	if !slices.Equal(outages, want) || len(want) != cfg.Outages || groups != 1 {
		t.Errorf("outage runs: DuckDB %v, flakegate %v (and %d groups); planted %d outages, 1 group", outages, want, groups, cfg.Outages)
	}
	listed := map[string]bool{}
	for _, l := range [][]history.TestHistory{res.Flakes, res.Broken} {
		for _, th := range l {
			listed[th.Test] = true
			if got := figures[th.Test]; got != [3]int64{th.Runs, th.Failures, th.IncidentFailures} {
				t.Errorf("%s: DuckDB runs, failures, incident failures %v; flakegate %v", th.Test, got, [3]int64{th.Runs, th.Failures, th.IncidentFailures})
			}
		}
	}
	for test, v := range figures {
		if v[1] > 0 && !listed[test] {
			t.Errorf("%s failed %d times outside incidents in DuckDB's figures, but flakegate does not list it", test, v[1])
		}
	}
	if len(listed) < len(cfg.Flaky) {
		t.Errorf("flakegate lists %d tests; the planted flakes alone are %d", len(listed), len(cfg.Flaky))
	}
	t.Logf("%d tests, %d outage runs, %d tests listed: DuckDB's figures equal flakegate's", len(figures), len(outages), len(listed))
}
