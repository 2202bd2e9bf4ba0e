package api

import (
	"archive/zip"
	"bytes"
	"os"
	"testing"
)

// FuzzHistoryZip sends any bytes to /v1/history as a zip archive, and as
// the one file of a zip archive: a result or a 4xx problem, never a 500 or
// a panic (fuzzCheck).
func FuzzHistoryZip(f *testing.F) {
	if data, err := os.ReadFile("testdata/history_runs.zip"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte(`{"Action":"fail","Package":"p","Test":"TestX"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzCheck(t, "POST", "/v1/history", "application/zip", data)
		var z bytes.Buffer
		zw := zip.NewWriter(&z)
		w, _ := zw.Create("runs/r1.json")
		w.Write(data)
		zw.Close()
		fuzzCheck(t, "POST", "/v1/history?format=auto", "application/zip", z.Bytes())
	})
}
