package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordJSONStrict: a stored claim is read by the rules of every JSON
// input (jsonscan.Decode): a key in another case, a key given twice, an
// unknown field, NaN or data after the value are refused with their place
// (columns counted by hand on the text) and path; a claim's fields alone
// are a stored claim too.
func TestRecordJSONStrict(t *testing.T) {
	p := filepath.Join(t.TempDir(), "claim.json")
	for _, c := range []struct {
		in   string
		code int
		want string // in stderr, or in stdout for an accepted claim
	}{
		{`{"claim": {"passed": 57, "trials": 60, "passed": 1}}`, exitUsage, `claim.json:1:40: claim: field "passed" appears twice`},
		{`{"Claim": {"passed": 57, "trials": 60}}`, exitUsage, `claim.json:1:2: unknown field "Claim"`},
		{`{"claim": {"Passed": 57, "trials": 60}}`, exitUsage, `claim.json:1:12: claim: unknown field "Passed"`},
		{`{"PASSED": 57, "trials": 60}`, exitUsage, `claim.json:1:2: unknown field "PASSED"`},
		{`{"passed": 57, "trials": 60, "rate": NaN}`, exitUsage, `claim.json:1:38: rate: malformed JSON: NaN and Infinity are not JSON numbers`},
		{`{"passed": 57, "trials": 60} x`, exitUsage, `claim.json:1:30: malformed JSON: 'x' after the end of the value`},
		{`{"status": "recorded", "passed": 57, "trials": 60}`, exitUsage, `claim.json: not a stored claim: a freeze result's fields beside a claim's own`},
		{`{"claim": {"passed": 0, "trials": 0}}`, exitUsage, `claim.json: not a stored claim: no trials`},
		{`{"passed": 57, "trials": 60, "date": "2026-11-30"}`, exitBlock, `2026-11-30`},
	} {
		if err := os.WriteFile(p, []byte(c.in), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := cli(t, "", "freeze", "-record", p, "-newer", "40/60")
		if code != c.code || !strings.Contains(out+errs, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.in, code, out, errs, c.code, c.want)
		}
	}
}
