package core

import "fmt"

// Nouns agrees with the count: the singular for exactly 1, the plural for
// everything else, 0 and negative counts too; no thousands separator (the
// words package adds those).
func ExampleNouns() {
	fmt.Println(Nouns(1, "failure"), "in", Nouns(120, "run"))
	fmt.Println(Nouns(0, "test"), Nouns(1, "test"), Nouns(2, "run"), Nouns(-1, "run"), Nouns(1_000_000, "row"))
	// Output:
	// 1 failure in 120 runs
	// 0 tests 1 test 2 runs -1 runs 1000000 rows
}
