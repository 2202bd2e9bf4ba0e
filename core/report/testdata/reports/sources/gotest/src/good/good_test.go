package good

import "testing"

func TestA(t *testing.T) {}
func TestB(t *testing.T) {
	t.Run("one", func(t *testing.T) {})
	t.Run("two", func(t *testing.T) {})
}
func TestSkip(t *testing.T) { t.Skip("not today") }
