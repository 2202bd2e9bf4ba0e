package app

import (
	"regexp"
	"testing"
)

// The ids keep the form github.com/google/uuid gave them (RFC 9562,
// version 4, lowercase hex), and do not repeat.
func TestNewID(t *testing.T) {
	form := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for i := 0; i < 10000; i++ {
		id := newID()
		if !form.MatchString(id) {
			t.Fatalf("newID() = %q, not a version 4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("newID() gave %q twice in %d draws", id, i+1)
		}
		seen[id] = true
	}
}
