package api

import (
	"testing"
)

// TestDuplicateKey: a member repeated in one object, at any depth, is
// refused with its path and the place of its second occurrence (counted by
// hand in each body); the same name in different objects is not a repeat.
func TestDuplicateKey(t *testing.T) {
	for _, tc := range []struct {
		body      string
		field     string
		line, col int
	}{
		{`{"baseline":"10/20","baseline":"1/20","patched":"17/20"}`, "baseline", 1, 21},
		{`{"observe": {"fails": 1, "runs": 120, "fails": 2}}`, "observe.fails", 1, 39},
		{"{\"a\": 1,\n  \"a\": 2}", "a", 2, 3},
		{`{"x": [{"k": 1}, {"k": 1, "k": 2}]}`, "x[1].k", 1, 27},
		{`{"x": [[1], {"k": 1, "j": {"k": 1}, "k": 3}]}`, "x[1].k", 1, 37},
		{`{"a": {"b": 1}, "a": 2}`, "a", 1, 17},
		{`{"ab": 1, "a\u0062": 2}`, "ab", 1, 11}, // the same name, escaped
	} {
		err := duplicateKey([]byte(tc.body))
		if err == nil {
			t.Errorf("%s: no repeat found", tc.body)
			continue
		}
		if err.Field != tc.field || err.Line != tc.line || err.Column != tc.col {
			t.Errorf("%s: %s at %d:%d, want %s at %d:%d", tc.body, err.Field, err.Line, err.Column, tc.field, tc.line, tc.col)
		}
	}
	for _, body := range []string{
		`{"a": 1, "b": {"a": 1}, "c": [{"a": 1}, {"a": 2}]}`,
		`{"a": "a", "b": ["a", "a"]}`,
		`[{"a": 1}, {"a": 1}]`,
		``,
	} {
		if err := duplicateKey([]byte(body)); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
}
