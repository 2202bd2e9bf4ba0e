package api

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestHistoryZipReadsReportsOnly posts testdata/history_extras.zip: the
// four runs of history_runs.zip (ci/run1..4.jsonl) plus what a CI artifact
// also holds, a README.md, a hidden ci/.run0.jsonl, a ci/run5.log and a
// folder ci/notes/. The hidden file and the log are failing go test runs
// (gotest_fail.jsonl), so reading either would change the figures. The
// answer must be the same bytes as for history_runs.zip, and the same
// bytes as core/history's reader gives for the four runs read one by one
// straight from history_runs.zip (listed by hand, not by ReportEntries).
// cmd/flakegate's TestHistoryZipSameAsAPI reads the same archive.
func TestHistoryZipReadsReportsOnly(t *testing.T) {
	h := New(Options{})
	post := func(file string) []byte {
		t.Helper()
		b := testfile.Read(t, "testdata/"+file)
		w := serve(h, http.MethodPost, "/v1/history", "application/zip", string(b))
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", file, w.Code, w.Body)
		}
		return w.Body.Bytes()
	}
	extras, clean := post("history_extras.zip"), post("history_runs.zip")
	if !bytes.Equal(extras, clean) {
		t.Errorf("a zip with a README, a hidden file and a log answers differently:\n%s\nwant\n%s", extras, clean)
	}

	z, err := zip.OpenReader("testdata/history_runs.zip")
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	hist := history.New()
	for _, entry := range []string{"ci/run1.jsonl", "ci/run2.jsonl", "ci/run3.jsonl", "ci/run4.jsonl"} {
		f, err := z.Open(entry)
		if err != nil {
			t.Fatal(err)
		}
		name := historyUpload.bodyAs + ":" + entry
		if err := hist.ReadRun(history.RunMeta{Name: name, File: name}, f, report.Options{Format: report.FormatAuto}); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	res, err := hist.Result(history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := core.WriteJSON(&want, res); err != nil {
		t.Fatal(err)
	}
	// The API adds a link to the page; the figures are the rest.
	var api history.Result
	if err := json.Unmarshal(extras, &api); err != nil {
		t.Fatal(err)
	}
	if api.Link == "" {
		t.Error("no link in the API's answer")
	}
	api.Link, api.LinkNote = "", ""
	var got bytes.Buffer
	if err := core.WriteJSON(&got, api); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("the API's answer differs from core/history's reader:\n%s\nwant\n%s", got.Bytes(), want.Bytes())
	}
	if res.Runs != 4 {
		t.Errorf("%d runs, want the archive's 4 reports", res.Runs)
	}
}
