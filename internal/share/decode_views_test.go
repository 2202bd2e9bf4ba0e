package share

import (
	"encoding/json"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/internal/jsonref"
)

// TestShareStateStrict: the compare and history links are held to the
// rules of every link: a key in another case (which encoding/json took),
// a key given twice, NaN or data after the state are refused where they
// are (columns counted on the text), with the path.
func TestShareStateStrict(t *testing.T) {
	for _, c := range []struct {
		in   string
		into any
		want string
	}{
		{`{"v":1,"v":1}`, &CompareState{}, `share data: 1:8: field "v" appears twice`},
		{`{"v":NaN}`, &CompareState{}, `share data: 1:6: v: malformed JSON: NaN and Infinity are not JSON numbers`},
		{`{"v":1} {}`, &CompareState{}, `share data: 1:9: malformed JSON: '{' after the end of the value`},
		{`{"V":2}`, &CompareState{}, `share data: 1:2: unknown field "V"`},
		{`{"v":2,"a":[{"ID":"x","passed":1,"total":1}]}`, &CompareState{}, `share data: 1:14: a[0]: unknown field "ID"`},
		{`{"v":1,"Result":{}}`, &HistoryState{}, `share data: 1:8: unknown field "Result"`},
		{`{"v":1,"result":{"RUNS":1}}`, &HistoryState{}, `share data: 1:18: result: unknown field "RUNS"`},
		{`{"v":1,"result":{"flakes":[{"claim":{"Passed":1}}]}}`, &HistoryState{}, `share data: 1:38: result.flakes[0].claim: unknown field "Passed"`},
	} {
		if err := decodeState([]byte(c.in), c.into); err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %s", c.in, err, c.want)
		}
	}
}

// readInto is readState into a new T.
func readInto[T any](raw []byte) (T, error) {
	var v T
	err := readState(raw, &v)
	return v, err
}

// FuzzCompareStateJSON and FuzzHistoryStateJSON: whatever a compare or a
// history link's reader accepts, encoding/json reads the same (jsonref.Fuzz).
func FuzzCompareStateJSON(f *testing.F) {
	seed, _ := json.Marshal(CompareState{Version: 2, A: []aa.Tally{{ID: "a\"☃", Passed: 1, Total: 2}}, B: []aa.Tally{},
		Options: map[string]string{"level": "0.95"}, Clusters: map[string]string{"a": "x"}})
	jsonref.Fuzz(f, readInto[CompareState], seed, []byte(`{"v":1,"a":null,"level":0.9,"cluster_field":"c"}`), []byte(`{"V":1}`))
}

func FuzzHistoryStateJSON(f *testing.F) {
	cost := 1.5
	seed, _ := json.Marshal(HistoryState{Version: 1, Result: &history.Result{Runs: 3, Tests: 2, CostSeconds: &cost, Warnings: []string{},
		Flakes:    []history.TestHistory{{Test: "t", Runs: 3, Failures: 1, FirstFailure: &history.RunRef{Index: 1, Run: "r1"}, Trend: history.Trend{Direction: "steady"}}},
		Incidents: []history.Incident{{Kind: "outage", Runs: []history.RunRef{{Index: 2}}, Tests: []string{"t"}}}}})
	jsonref.Fuzz(f, readInto[HistoryState], seed, []byte(`{"v":1,"result":null}`), []byte(`{"v":1,"result":{"flakes":[{"claim":{"passed":1}}]}}`))
}
