package stat

import "testing"

// FirstTrue finds every threshold a plain scan finds, at the ends of its
// range too, and says when there is none.
func TestFirstTrue(t *testing.T) {
	for lo := int64(0); lo < 5; lo++ {
		for limit := lo + 1; limit < 70; limit++ {
			for th := lo + 1; th <= limit+1; th++ {
				calls := 0
				got, found := FirstTrue(lo, limit, func(n int64) bool {
					calls++
					if n <= lo || n > limit {
						t.Fatalf("ok(%d) outside (%d, %d]", n, lo, limit)
					}
					return n >= th
				})
				if want := th <= limit; found != want || found && got != th {
					t.Errorf("lo %d limit %d threshold %d: %d %v", lo, limit, th, got, found)
				}
				if calls > 16 {
					t.Errorf("lo %d limit %d threshold %d: %d calls", lo, limit, th, calls)
				}
			}
		}
	}
}
