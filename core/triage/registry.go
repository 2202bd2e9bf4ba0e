package triage

import (
	"github.com/flakegate/flakegate/core/quarantine"
)

// KeepRegistry is the registry kept for its team: reg with the proposed
// entries added (quarantine.Add) and the entries whose release the run
// proved (Result.Releases, by quarantine.ReleaseProven) removed, as
// flakegate quarantine check -write removes a released test
// (quarantine.Remove), in canonical form. A proposal for a test the
// registry holds, or a release of one it does not, is a *core.Error.
func KeepRegistry(reg *quarantine.Registry, today string, proposed []quarantine.Entry, released []Release) (*quarantine.Registry, error) {
	out, err := quarantine.Add(reg, today, proposed...)
	if err != nil {
		return nil, err
	}
	if len(released) == 0 {
		return out, nil
	}
	tests := make([]string, len(released))
	for i, r := range released {
		tests[i] = r.Test
	}
	return quarantine.Remove(out, today, tests...)
}
