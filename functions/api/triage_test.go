package api

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/flakegate/flakegate/core/triage"
	"github.com/flakegate/flakegate/internal/testfile"
)

// triageBody is a multipart body of the parts given, in order: name and
// file pairs read from cmd/flakegate's triage fixtures (a planted past of
// 300 runs and a run with a 3% flake, a new failure and an outage of
// suite pkg12 failing; cmd/flakegate's TestTriageClasses holds the CLI
// to the same classes).
func triageBody(t *testing.T, parts ...string) (string, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for i := 0; i < len(parts); i += 2 {
		w, err := mw.CreateFormFile(parts[i], parts[i+1])
		if err != nil {
			t.Fatal(err)
		}
		w.Write(testfile.Read(t, "../../cmd/flakegate/testdata/triage/"+parts[i+1]))
	}
	mw.Close()
	return b.String(), mw.FormDataContentType()
}

// TestTriagePlanted posts the planted past and run and checks each
// failure's class and that only the new failure blocks.
func TestTriagePlanted(t *testing.T) {
	h := New(Options{})
	body, ct := triageBody(t, "report", "past.zip", "run", "run.xml")
	w := serve(h, http.MethodPost, "/v1/triage", ct, body)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	var res triage.Result
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	classes := map[string]int{}
	for _, f := range res.Failures {
		classes[f.Class]++
		if f.Blocks != (f.Class == triage.ClassNew) {
			t.Errorf("%s (%s): blocks %v", f.Test, f.Class, f.Blocks)
		}
	}
	if classes[triage.ClassNew] != 1 || classes[triage.ClassFlake] != 1 || classes[triage.ClassOutage] != 5 || len(classes) != 3 {
		t.Errorf("classes %v, want 1 new, 1 known flake, 5 outage", classes)
	}
	if !res.Blocks || res.PastRuns != 300 {
		t.Errorf("blocks %v, past runs %d: want true, 300", res.Blocks, res.PastRuns)
	}
}

// TestTriageRefuses: no run part, no past, a setting out of range and an
// unknown part are 400s with a problem naming what is wrong.
func TestTriageRefuses(t *testing.T) {
	h := New(Options{})
	for _, tc := range []struct {
		name, query string
		parts       []string
		field       string
	}{
		{"no run", "", []string{"report", "past.zip"}, "run"},
		{"no past", "", []string{"run", "run.xml"}, "report"},
		{"min_rate", "?min_rate=2", []string{"report", "past.zip", "run", "run.xml"}, "min_rate"},
		{"unknown part", "", []string{"past", "past.zip"}, "past"},
	} {
		body, ct := triageBody(t, tc.parts...)
		w := serve(h, http.MethodPost, "/v1/triage"+tc.query, ct, body)
		if w.Code != http.StatusBadRequest || w.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s: status %d %s: %s", tc.name, w.Code, w.Header().Get("Content-Type"), w.Body)
			continue
		}
		var p struct {
			Field string `json:"field"`
		}
		json.Unmarshal(w.Body.Bytes(), &p)
		if p.Field != tc.field {
			t.Errorf("%s: problem names %q, want %q: %s", tc.name, p.Field, tc.field, w.Body)
		}
	}
}
