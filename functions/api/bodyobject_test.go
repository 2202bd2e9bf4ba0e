package api

import (
	"testing"

	"github.com/flakegate/flakegate/core"
)

// TestJSONObject: a body is one JSON object read with the core's scanner. A
// member repeated in one object, at any depth, is refused at its second
// occurrence with its path as the field; the same name in different
// objects is no repeat; what is not one object is refused where it goes
// wrong. Every position was counted by hand in its body.
func TestJSONObject(t *testing.T) {
	for _, tc := range []struct {
		body, field, msg string // msg "" for a body read whole
		line, col        int
	}{
		{`{"baseline":"10/20","baseline":"1/20","patched":"17/20"}`, "baseline", `field "baseline" appears twice`, 1, 21},
		{`{"observe": {"fails": 1, "runs": 120, "fails": 2}}`, "observe.fails", `field "fails" appears twice`, 1, 39},
		{"{\"a\": 1,\n  \"a\": 2}", "a", `field "a" appears twice`, 2, 3},
		{`{"x": [{"k": 1}, {"k": 1, "k": 2}]}`, "x[1].k", `field "k" appears twice`, 1, 27},
		{`{"x": [[1], {"k": 1, "j": {"k": 1}, "k": 3}]}`, "x[1].k", `field "k" appears twice`, 1, 37},
		{`{"a": {"b": 1}, "a": 2}`, "a", `field "a" appears twice`, 1, 17},
		{`{"ab": 1, "a\u0062": 2}`, "ab", `field "ab" appears twice`, 1, 11}, // the same name, escaped
		{"", "", "the body is empty; send a JSON object", 1, 1},
		{" [1]", "", "the body must be a JSON object, not an array", 1, 2},
		{"null", "", "the body must be a JSON object, not null", 1, 1},
		{`{"a": 1} {}`, "", "malformed JSON: '{' after the end of the value", 1, 10},
		{`{"rate": NaN}`, "", "rate: malformed JSON: NaN and Infinity are not JSON numbers", 1, 10},
		{"{\"a\":\n 1", "", "a: malformed JSON: the body ends where ',' or '}' after the value should be (is it cut short?)", 2, 3},
		{`{"a": 1, "b": {"a": 1}, "c": [{"a": 1}, {"a": 2}]}`, "", "", 0, 0},
		{`{"a": "a", "b": ["a", "a"]}`, "", "", 0, 0},
	} {
		_, err := jsonObject([]byte(tc.body), "body")
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.body, err)
			}
			continue
		}
		e, ok := err.(*core.Error)
		if !ok || e.Msg != tc.msg || e.Field != tc.field || e.Line != tc.line || e.Column != tc.col || e.Kind != core.Invalid {
			t.Errorf("%q: %#v, want %q %q at %d:%d", tc.body, err, tc.field, tc.msg, tc.line, tc.col)
		}
	}
}
