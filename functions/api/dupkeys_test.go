package api

import (
	"errors"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// TestDuplicateKey: a member repeated in one object, at any depth, is
// refused with the object's path and the place of the member's second
// occurrence (counted by hand in each body); the same name in different
// objects is not a repeat.
func TestDuplicateKey(t *testing.T) {
	for _, tc := range []struct {
		body      string
		msg       string
		line, col int
	}{
		{`{"baseline":"10/20","baseline":"1/20","patched":"17/20"}`, `field "baseline" appears twice`, 1, 21},
		{`{"observe": {"fails": 1, "runs": 120, "fails": 2}}`, `field "fails" appears twice`, 1, 39},
		{"{\"a\": 1,\n  \"a\": 2}", `field "a" appears twice`, 2, 3},
		{`{"x": [{"k": 1}, {"k": 1, "k": 2}]}`, `field "k" appears twice`, 1, 27},
		{`{"x": [[1], {"k": 1, "j": {"k": 1}, "k": 3}]}`, `field "k" appears twice`, 1, 37},
		{`{"a": {"b": 1}, "a": 2}`, `field "a" appears twice`, 1, 17},
		{`{"ab": 1, "a\u0062": 2}`, `field "ab" appears twice`, 1, 11}, // the same name, escaped
	} {
		_, err := jsonObject([]byte(tc.body), "body")
		var e *core.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: no repeat found (%v)", tc.body, err)
			continue
		}
		if e.Msg != tc.msg || e.Line != tc.line || e.Column != tc.col || e.Kind != core.Invalid {
			t.Errorf("%s: %q at %d:%d, want %q at %d:%d", tc.body, e.Msg, e.Line, e.Column, tc.msg, tc.line, tc.col)
		}
	}
	for _, body := range []string{
		`{"a": 1, "b": {"a": 1}, "c": [{"a": 1}, {"a": 2}]}`,
		`{"a": "a", "b": ["a", "a"]}`,
	} {
		if _, err := jsonObject([]byte(body), "body"); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
}

// TestJSONObjectRefusals: what is not one object is refused where it goes
// wrong (positions counted by hand).
func TestJSONObjectRefusals(t *testing.T) {
	for _, tc := range []struct {
		body, msg string
		line, col int
	}{
		{"", "the body is empty; send a JSON object", 1, 1},
		{" [1]", "the body must be a JSON object, not an array", 1, 2},
		{"null", "the body must be a JSON object, not null", 1, 1},
		{`{"a": 1} {}`, "malformed JSON: '{' after the end of the value", 1, 10},
		{`{"rate": NaN}`, "rate: malformed JSON: NaN and Infinity are not JSON numbers", 1, 10},
		{"{\"a\":\n 1", "a: malformed JSON: the body ends where ',' or '}' after the value should be (is it cut short?)", 2, 3},
	} {
		_, err := jsonObject([]byte(tc.body), "body")
		var e *core.Error
		if !errors.As(err, &e) || e.Msg != tc.msg || e.Line != tc.line || e.Column != tc.col {
			t.Errorf("%q: %v, want %d:%d %q", tc.body, err, tc.line, tc.col, tc.msg)
		}
	}
}
