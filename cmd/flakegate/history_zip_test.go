package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/testfile"
)

// TestHistoryZipSameAsAPI reads functions/api's testdata/history_extras.zip
// (history_runs.zip's four go test runs plus a README.md, a hidden
// ci/.run0.jsonl, a ci/run5.log and a folder; the hidden file and the log
// are failing runs, so reading them would change the figures) as
// archive.zip: the CLI's -json must be the API's answer byte for byte (its
// corpus case history-zip-extras, the same archive uploaded as
// archive.zip, served on http://example.com), and the same bytes as for
// history_runs.zip, which holds the four reports alone.
func TestHistoryZipSameAsAPI(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	apiDir := filepath.Join(wd, "..", "..", "functions", "api", "testdata")
	golden := testfile.Read(t, filepath.Join(apiDir, "golden", "history-zip-extras.txt"))
	_, body, ok := strings.Cut(string(golden), "\n\n")
	if !ok {
		t.Fatal("no body in the API's golden answer")
	}
	for _, file := range []string{"history_extras.zip", "history_runs.zip"} {
		b := testfile.Read(t, filepath.Join(apiDir, file))
		t.Chdir(t.TempDir())
		if err := os.WriteFile("archive.zip", b, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := cli(t, "", "history", "-json", "-site", "http://example.com", "archive.zip")
		if code != exitOK || out != body {
			t.Errorf("%s: exit %d (%s), output differs from the API's answer:\n%s\nwant\n%s", file, code, errs, out, body)
		}
	}
}
