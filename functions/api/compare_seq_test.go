package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"testing"
)

// TestCompareSequentialBatches: the state an answer returns, sent back
// with the next batch as docs/SEQUENTIAL.md shows (its members merged into
// the request's object), gives the same state as one call with both
// batches: the API keeps nothing between calls and loses nothing.
func TestCompareSequentialBatches(t *testing.T) {
	h := New(Options{})
	post := func(body map[string]any) map[string]json.RawMessage {
		b, _ := json.Marshal(body)
		w := serve(h, http.MethodPost, "/v1/compare-sequential", "application/json", string(b))
		if w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", b, w.Code, w.Body)
		}
		var out map[string]json.RawMessage
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	a1, b1 := []float64{0, 0, 0, 1, 1, 1, 0, 1}, []float64{1, 1, 0, 1, 1, 1, 1, 1}
	a2, b2 := []float64{1, 0, 0.5, 1}, []float64{1, 1, 1, 0}
	first := post(map[string]any{"effect": 0.1, "a": a1, "b": b1})
	var state map[string]any
	if err := json.Unmarshal(first["state"], &state); err != nil {
		t.Fatal(err)
	}
	second := map[string]any{"effect": 0.1, "a": a2, "b": b2}
	maps.Copy(second, state)
	twice := post(second)
	once := post(map[string]any{"effect": 0.1, "a": append(a1, a2...), "b": append(b1, b2...)})
	if string(twice["state"]) != string(once["state"]) || string(twice["verdict"]) != string(once["verdict"]) {
		t.Errorf("in two batches: %s %s; in one: %s %s", twice["state"], twice["verdict"], once["state"], once["verdict"])
	}
	if !strings.Contains(string(once["state"]), `"questions": 12`) {
		t.Errorf("state %s, want 12 questions", once["state"])
	}
}
