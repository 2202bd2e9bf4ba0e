package badbuild

import "testing"

func TestNever(t *testing.T) { Broken() }
