package main

import (
	"os"
	"strings"
	"testing"
)

// TestSuiteHistoryInDocs holds docs/SUITE.md to the store it describes:
// flakegate's own integration tests over the make test runs recorded in
// docs/suite/runs.fgs (bench/suite/run.sh writes it) are quoted there as
// `flakegate history -markdown` prints them today, so the table a reader
// sees is the one those runs give, not one copied from an older build.
func TestSuiteHistoryInDocs(t *testing.T) {
	code, out, errs := cli(t, "", "history", "-markdown", "../../docs/suite/runs.fgs")
	if code != 0 && code != 1 {
		t.Fatalf("flakegate history -markdown docs/suite/runs.fgs: exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "**") || !strings.Contains(out, " tests ") {
		t.Fatalf("history -markdown printed no summary sentence:\n%s", out)
	}
	doc, err := os.ReadFile("../../docs/SUITE.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), out) {
		t.Errorf("docs/SUITE.md does not quote `flakegate history -markdown docs/suite/runs.fgs` as it prints now; paste this in its place:\n%s", out)
	}
}
