package core

import (
	"fmt"
	"testing"
)

func TestNounsAgreeWithTheCount(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		noun string
		want string
	}{
		{0, "test", "0 tests"},
		{1, "test", "1 test"},
		{2, "run", "2 runs"},
		{-1, "run", "-1 runs"},
		{1_000_000, "row", "1000000 rows"},
	} {
		if got := Nouns(tc.n, tc.noun); got != tc.want {
			t.Errorf("Nouns(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}

func ExampleNouns() {
	fmt.Println(Nouns(1, "failure"), "in", Nouns(120, "run"))
	// Output: 1 failure in 120 runs
}
