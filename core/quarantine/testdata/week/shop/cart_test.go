package shop

import "testing"

// TestCart is deleted from night 5 on (../gen.sh).
func TestCart(t *testing.T) { check(t, "cart") }
