package api

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	schema "github.com/flakegate/flakegate/core/param"
)

// TestBodyKeysExact: a body's members and a count object's keys match the
// parameters' names exactly, as every JSON input's do (jsonscan.Decode):
// a name in another case is an unknown parameter or member, named as it
// was sent; a JSON string is read as text whatever the kind.
func TestBodyKeysExact(t *testing.T) {
	params := schemaParams(schema.Decide.Fields, nil, nil)
	for _, c := range []struct{ body, field, msg string }{
		{`{"Baseline": "57/60", "patched": "40/60"}`, "Baseline", `unknown parameter "Baseline"; this route reads `},
		{`{"baseline": "57/60", "PATCHED": "40/60"}`, "PATCHED", `unknown parameter "PATCHED"; this route reads `},
		{`{"baseline": {"passed": 57, "trials": 60, "Passed": 1}, "patched": "40/60"}`, "baseline", `unknown member "Passed"; the object has "passed" and "trials"`},
		{`{"baseline": {"passed": 57, "Trials": 60}, "patched": "40/60"}`, "baseline", `the object needs "passed" and "trials"`},
		{`{"baseline": {"passed": 57, "trials": 60}, "patched": "40/60", "confidence": true}`, "confidence", `must be a JSON number or a string such as "95%", got true`},
		{`{"baseline": {"passed": 57, "trials": 60}, "patched": "40/60", "confidence": "95%"}`, "", ""},
	} {
		_, err := schemaArgs(jsonArgs(params, []byte(c.body)), schema.Decide)
		if c.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", c.body, err)
			}
			continue
		}
		e, ok := err.(*core.Error)
		if !ok || e.Field != c.field || !strings.HasPrefix(e.Msg, c.msg) {
			t.Errorf("%s: %#v, want %s: %s", c.body, err, c.field, c.msg)
		}
	}
}
