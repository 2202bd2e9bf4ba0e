// Command histduck is the DuckDB peer of flakegate history's benchmark
// (bench/history): it reads go test -json reports, one file per run, into
// the warehouse table docs/WAREHOUSE.md assumes (a test named as
// flakegate names it: its package, a dot, its name) and runs
// docs/warehouse/duckdb/history.sql on it, writing the per-test figures and
// the outage runs to -out. It lives in this module so that DuckDB's driver
// stays out of flakegate's.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

func main() {
	glob := flag.String("glob", "", "the go test -json reports, one per run, as a DuckDB glob")
	query := flag.String("sql", "docs/warehouse/duckdb/history.sql", "the history SQL")
	out := flag.String("out", ".", "the folder for history-tests.csv and history-outages.csv")
	plain := flag.Bool("plain", false, "instead, only count each test's runs and failed runs, incidents included, in one GROUP BY over the files (plain-counts.csv)")
	flag.Parse()
	var err error
	if *plain {
		err = plainCounts(*glob, *out)
	} else {
		err = run(*glob, *query, *out)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "histduck:", err)
		os.Exit(1)
	}
}

func run(glob, query, out string) error {
	q, err := os.ReadFile(query)
	if err != nil {
		return err
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	load := `CREATE TABLE test_runs AS
SELECT filename AS run, 'baseline' AS arm, "Package" || '.' || "Test" AS test, "Action" = 'pass' AS passed
FROM read_json('` + strings.ReplaceAll(glob, "'", "''") + `', format = 'newline_delimited', filename = true,
  columns = {'Action': 'VARCHAR', 'Package': 'VARCHAR', 'Test': 'VARCHAR'})
WHERE "Action" IN ('pass', 'fail') AND "Test" IS NOT NULL`
	if _, err := db.Exec(load); err != nil {
		return fmt.Errorf("loading the reports: %w", err)
	}
	loaded := time.Since(start)
	text := strings.NewReplacer("'history-tests.csv'", "'"+filepath.Join(out, "history-tests.csv")+"'",
		"'history-outages.csv'", "'"+filepath.Join(out, "history-outages.csv")+"'").Replace(string(q))
	if _, err := db.Exec(text); err != nil {
		return fmt.Errorf("history.sql: %w", err)
	}
	fmt.Printf("loaded in %v, history.sql in %v\n", loaded.Round(time.Millisecond), (time.Since(start) - loaded).Round(time.Millisecond))
	return nil
}

// plainCounts is the least DuckDB does for per-test counts: one GROUP BY
// over the reports, each test's runs and the runs in which it failed, no
// incident filter.
func plainCounts(glob, out string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	q := `COPY (
  SELECT test, count(*) AS runs, count_if(failed) AS failures FROM (
    SELECT filename, "Package" || '.' || "Test" AS test, bool_or("Action" = 'fail') AS failed
    FROM read_json('` + strings.ReplaceAll(glob, "'", "''") + `', format = 'newline_delimited', filename = true,
      columns = {'Action': 'VARCHAR', 'Package': 'VARCHAR', 'Test': 'VARCHAR'})
    WHERE "Action" IN ('pass', 'fail') AND "Test" IS NOT NULL
    GROUP BY filename, "Package", "Test")
  GROUP BY test ORDER BY test
) TO '` + strings.ReplaceAll(filepath.Join(out, "plain-counts.csv"), "'", "''") + `' (HEADER)`
	if _, err := db.Exec(q); err != nil {
		return err
	}
	fmt.Printf("plain counts in %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}
