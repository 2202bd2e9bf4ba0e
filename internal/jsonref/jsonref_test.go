package jsonref

import (
	"encoding/json"
	"strings"
	"testing"
)

type pair struct {
	A int `json:"a"`
}

// TestDiff: Diff tells a reader that agrees with encoding/json from one
// that reads another value or accepts what encoding/json refuses.
func TestDiff(t *testing.T) {
	std := func(b []byte) (pair, error) {
		var p pair
		return p, json.Unmarshal(b, &p)
	}
	plusOne := func(b []byte) (pair, error) {
		p, err := std(b)
		p.A++
		return p, err
	}
	for _, c := range []struct {
		read func([]byte) (pair, error)
		in   string
		diff string // its start; "" for none
	}{
		{std, `{"a": 1}`, ""},
		{plusOne, `{"a": 1}`, "read {A:2}, encoding/json {A:1}"},
		{std, `{"a": 1, "b": 2}`, "accepted what encoding/json refuses"}, // Unmarshal takes unknown fields
	} {
		_, diff, err := Diff(c.read, []byte(c.in))
		if err != nil || !strings.HasPrefix(diff, c.diff) || (c.diff == "") != (diff == "") {
			t.Errorf("%s: diff %q, %v; want %q", c.in, diff, err, c.diff)
		}
	}
	if _, err := Decode[pair]([]byte(`{"A": 1, "b": 2}`)); err == nil || !strings.Contains(err.Error(), `unknown field "b"`) {
		t.Errorf("Decode took an unknown field: %v", err)
	}
}
