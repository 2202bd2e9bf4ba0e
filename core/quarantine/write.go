package quarantine

import (
	"github.com/flakegate/flakegate/core/internal/sorts"
	"io"
	"slices"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// Canonical returns a copy of reg in the form Write writes: entries sorted
// by test id, the counted runs by date and identity (at most MaxCounted,
// the newest), each claim's rate and interval computed from its counts, an
// empty list rather than none. The same tests in any order give the same
// registry, so that a change to one test changes only its lines.
func Canonical(reg *Registry) *Registry {
	out := &Registry{Version: Version, Tests: make([]Entry, len(reg.Tests))}
	copy(out.Tests, reg.Tests)
	for i := range out.Tests {
		c := &out.Tests[i].Claim
		*c = claimOf(c.Passed, c.Trials, c.Confidence, c.Date)
	}
	sorts.Stable(out.Tests, func(a, b Entry) int { return strings.Compare(a.Test, b.Test) })
	if len(reg.Counted) > 0 {
		// Oldest first; past MaxCounted the oldest are forgotten.
		out.Counted = slices.Clone(reg.Counted)
		sorts.Stable(out.Counted, func(a, b CountedRun) int {
			if c := strings.Compare(a.Date, b.Date); c != 0 {
				return c
			}
			return strings.Compare(a.Run, b.Run)
		})
		if n := len(out.Counted); n > MaxCounted {
			out.Counted = out.Counted[n-MaxCounted:]
		}
	}
	return out
}

// Write writes reg in its canonical form (Canonical) as indented JSON with
// a trailing newline, the fields in a fixed order and numbers in their
// shortest round-trip form: the same registry is the same bytes on every
// platform. It does not validate; Read and Validate do.
func Write(w io.Writer, reg *Registry) error { return core.WriteJSON(w, Canonical(reg)) }
