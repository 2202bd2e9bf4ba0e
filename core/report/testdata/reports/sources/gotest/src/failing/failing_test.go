package failing

import "testing"

func TestFails(t *testing.T)  { t.Error("boom") }
func TestPasses(t *testing.T) {}
