package api

import (
	"archive/zip"
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/core/store"
	"github.com/flakegate/flakegate/internal/testfile"
)

// pastStore records the triage fixtures' past (past.zip: 300 planted
// runs, one report each) into a store, one recording per report, each
// run named as the API names a run of an uploaded archive
// ("past.zip:entry"): the same runs as the archive.
func pastStore(t *testing.T) []byte {
	t.Helper()
	data := testfile.Read(t, "../../cmd/flakegate/testdata/triage/past.zip")
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	st := store.NewState()
	var out []byte
	for _, f := range history.ReportEntries(z) {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		name := "past.zip:" + f.Name
		p, err := history.ParseRun(history.RunMeta{Name: name, File: name}, rc, report.Options{}, 0)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := st.Add(store.Entry{Report: p})
		out = append(out, b...)
	}
	return out
}

// multipartOf is a multipart body of (part, file name, bytes) triples.
func multipartOf(t *testing.T, parts ...any) (string, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for i := 0; i < len(parts); i += 3 {
		w, err := mw.CreateFormFile(parts[i].(string), parts[i+1].(string))
		if err != nil {
			t.Fatal(err)
		}
		w.Write(parts[i+2].([]byte))
	}
	mw.Close()
	return b.String(), mw.FormDataContentType()
}

// TestTriageStore: the past sent as a history store (a report part that
// begins with the store's header) gives /v1/triage and /v1/history the
// same answer, byte for byte, as the same runs sent as the zip archive of
// their reports: the reference.
func TestTriageStore(t *testing.T) {
	h := New(Options{})
	fgs := pastStore(t)
	zipped := testfile.Read(t, "../../cmd/flakegate/testdata/triage/past.zip")
	run := testfile.Read(t, "../../cmd/flakegate/testdata/triage/run.xml")
	for _, route := range []string{"/v1/triage?today=2026-01-01", "/v1/history"} {
		body, ct := multipartOf(t, "report", "past.zip", zipped, "run", "run.xml", run)
		sbody, sct := multipartOf(t, "report", "runs.fgs", fgs, "run", "run.xml", run)
		if route == "/v1/history" {
			body, ct = multipartOf(t, "report", "past.zip", zipped)
			sbody, sct = multipartOf(t, "report", "runs.fgs", fgs)
		}
		want := serve(h, http.MethodPost, route, ct, body)
		got := serve(h, http.MethodPost, route, sct, sbody)
		if want.Code != http.StatusOK || got.Code != http.StatusOK {
			t.Fatalf("%s: status %d from the archive, %d from the store: %s", route, want.Code, got.Code, got.Body)
		}
		if got.Body.String() != want.Body.String() {
			t.Errorf("%s: from the store\n%s\nfrom the archive\n%s", route, got.Body, want.Body)
		}
		if !strings.Contains(got.Body.String(), `300`) {
			t.Errorf("%s: no 300 past runs in %s", route, got.Body)
		}
	}
}

// TestTriageStoreBounded: a store whose results unpack past the server's
// unzip limit is refused (413) before it is inflated, naming the limit; a
// record that states more than a store holds is refused as damaged; a
// store cut short is refused with where.
func TestTriageStoreBounded(t *testing.T) {
	fgs := pastStore(t)
	raw := storeRawBytes(fgs)
	if raw <= 0 {
		t.Fatalf("the store's results state %d bytes", raw)
	}
	run := testfile.Read(t, "../../cmd/flakegate/testdata/triage/run.xml")
	h := New(Options{MaxUnzippedBytes: raw - 1})
	body, ct := multipartOf(t, "report", "runs.fgs", fgs, "run", "run.xml", run)
	w := serve(h, http.MethodPost, "/v1/triage", ct, body)
	if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "the store's results unpack to more than this server's limit") {
		t.Errorf("over the unzip limit: %d %s", w.Code, w.Body)
	}
	if w := serve(New(Options{MaxUnzippedBytes: raw}), http.MethodPost, "/v1/triage", ct, body); w.Code != http.StatusOK {
		t.Errorf("at the unzip limit: %d %s", w.Code, w.Body)
	}
	cut := fgs[:len(fgs)-3]
	body, ct = multipartOf(t, "report", "runs.fgs", cut, "run", "run.xml", run)
	if w := serve(New(Options{}), http.MethodPost, "/v1/triage", ct, body); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "runs.fgs: damaged at byte") {
		t.Errorf("a torn store: %d %s", w.Code, w.Body)
	}
}

// FuzzStoreRawBytes: the walk of a store's records never panics, and
// never states more than a store holds per record.
func FuzzStoreRawBytes(f *testing.F) {
	f.Add(append(store.Header(), 1, 0, 0, 0, 'R', 0, 0, 0, 0))
	f.Fuzz(func(t *testing.T, b []byte) {
		if n := storeRawBytes(b); n < 0 || n > int64(len(b))*store.MaxRaw {
			t.Fatalf("%d", n)
		}
	})
}
