// Package coretest holds the checks that tests of every layer make of the
// core's errors. It is imported by tests only.
package coretest

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// Refused fails t unless err is the core's refusal of invalid input (kind
// core.Invalid) and its text holds frag; input names what was refused, in
// the message.
func Refused(t testing.TB, err error, frag string, input any) {
	t.Helper()
	if err == nil || core.ErrorKind(err) != core.Invalid || !strings.Contains(err.Error(), frag) {
		t.Errorf("%q: got %v, want refused as invalid with %q", input, err, frag)
	}
}
