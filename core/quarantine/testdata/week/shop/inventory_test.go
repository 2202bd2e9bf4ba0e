package shop

import "testing"

// TestInventory is renamed TestStock from night 3 on (../gen.sh).
func TestInventory(t *testing.T) { check(t, "inventory") }
