package coretest

import (
	"errors"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// recorder is a testing.TB that keeps whether Errorf was called.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }

// TestRefused: only an invalid-input error with the fragment passes.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		err  error
		frag string
		pass bool
	}{
		{core.PosErrorf(core.Invalid, 2, 3, "passed must be a whole number"), "whole number", true},
		{core.PosErrorf(core.Invalid, 2, 3, "passed must be a whole number"), "2:3: passed", true},
		{core.PosErrorf(core.Invalid, 2, 3, "passed must be a whole number"), "trials", false},
		{core.PosErrorf(core.Unusable, 1, 1, "no trials"), "no trials", false},
		{errors.New("whole number"), "whole number", false},
		{nil, "", false},
	} {
		r := &recorder{TB: t}
		Refused(r, c.err, c.frag, "in")
		if r.failed == c.pass {
			t.Errorf("Refused(%v, %q): failed %v, want %v", c.err, c.frag, r.failed, !c.pass)
		}
	}
}
