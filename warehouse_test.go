package flakegate_test

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestWarehouseHistoryShape holds the three warehouse history.sql files
// (docs/WAREHOUSE.md) to one structure: the same seven numbered steps in
// order, creating the same tables in the same order, so that the BigQuery
// and ClickHouse translations, which cannot run here, stay step for step
// with the DuckDB text that docs/warehouse/check runs against flakegate.
func TestWarehouseHistoryShape(t *testing.T) {
	step := regexp.MustCompile(`(?m)^-- (Steps? [0-9][^:]*):`)
	table := regexp.MustCompile(`(?i)CREATE (?:OR REPLACE )?TEMP(?:ORARY)? TABLE (hist_(?:cells|runs|sets|groups|excluded))\b`)
	want := map[string][]string{}
	for _, dialect := range []string{"duckdb", "bigquery", "clickhouse"} {
		b, err := os.ReadFile("docs/warehouse/" + dialect + "/history.sql")
		if err != nil {
			t.Fatal(err)
		}
		var steps, tables []string
		for _, m := range step.FindAllSubmatch(b, -1) {
			steps = append(steps, string(m[1]))
		}
		for _, m := range table.FindAllSubmatch(b, -1) {
			tables = append(tables, string(m[1]))
		}
		got := map[string][]string{"steps": steps, "tables": tables}
		if dialect == "duckdb" {
			want = got
			if len(steps) < 7 || len(tables) != 5 {
				t.Fatalf("duckdb: steps %q, tables %q: the structure is not found", steps, tables)
			}
			continue
		}
		// ClickHouse does steps 2 and 3 in one (lgamma in each round).
		if dialect == "clickhouse" {
			steps = slices.DeleteFunc(slices.Clone(want["steps"]), func(s string) bool { return s == "Step 2" || s == "Step 3" })
			steps = slices.Insert(steps, 1, "Steps 2 and 3")
			if !slices.Equal(got["steps"], steps) {
				t.Errorf("clickhouse: steps %q, want %q", got["steps"], steps)
			}
		} else if !slices.Equal(got["steps"], want["steps"]) {
			t.Errorf("%s: steps %q, want duckdb's %q", dialect, got["steps"], want["steps"])
		}
		if !slices.Equal(got["tables"], want["tables"]) {
			t.Errorf("%s: tables %q, want duckdb's %q", dialect, got["tables"], want["tables"])
		}
	}
}
