package share

import "testing"

// TestShareStateStrict: the compare and history links are held to the
// grammar of every link: a key given twice, NaN or data after the state
// are refused where they are (columns counted on the text).
func TestShareStateStrict(t *testing.T) {
	var s CompareState
	for _, c := range []struct{ in, want string }{
		{`{"v":1,"v":1}`, `share data: 1:8: field "v" appears twice`},
		{`{"v":NaN}`, `share data: 1:6: v: malformed JSON: NaN and Infinity are not JSON numbers`},
		{`{"v":1} {}`, `share data: 1:9: malformed JSON: '{' after the end of the value`},
	} {
		if err := decodeState([]byte(c.in), &s); err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %s", c.in, err, c.want)
		}
	}
}
