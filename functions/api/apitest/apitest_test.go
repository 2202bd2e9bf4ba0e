package apitest

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// TestDiff: equal answers agree; a float off in its last digits is named
// as such, a real difference is not.
func TestDiff(t *testing.T) {
	resp := func(body string) Response {
		return Response{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
	}
	a := resp(`{"v":{"range_lower":0.12110463927198253,"x":[1,2]}}`)
	if d := Diff(a, a); d != "" {
		t.Errorf("equal answers differ: %s", d)
	}
	if d := Diff(a, resp(`{"v":{"range_lower":0.12110463927198255,"x":[1,2]}}`)); !strings.Contains(d, "last digits") || !strings.Contains(d, "body.v.range_lower") {
		t.Errorf("last-digit difference not named: %s", d)
	}
	if d := Diff(a, resp(`{"v":{"range_lower":0.13,"x":[1,2]}}`)); d == "" || strings.Contains(d, "last digits") {
		t.Errorf("a real difference: %s", d)
	}
	b := a
	b.Status = 400
	if d := Diff(a, b); !strings.Contains(d, "status 400, want 200") {
		t.Errorf("status: %s", d)
	}
}

// TestOversize: the generated upload has exactly the size asked for and
// starts as a CSV.
func TestOversize(t *testing.T) {
	for _, n := range []int64{10, 6_000_001} {
		b := Oversize(n)
		if int64(len(b)) != n || !bytes.HasPrefix([]byte("scenario,run,passed\n"), b[:min(len(b), 20)]) && !bytes.HasPrefix(b, []byte("scenario,run,passed\n")) {
			t.Errorf("Oversize(%d): %d bytes, starts %q", n, len(b), b[:min(len(b), 20)])
		}
	}
}
