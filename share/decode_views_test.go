package share

import "testing"

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
