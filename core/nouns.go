package core

import (
	"fmt"
	"strconv"
	"strings"
)

// Nouns is "1 test", "2 tests": a count and a regular English noun that
// agrees with it, as warnings and every surface's text use them.
func Nouns[N ~int | ~int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(int64(n), 10) + " " + noun + "s"
}

// ListNames shows up to four names, joined with commas, and how many more
// there are: "a, b, c, d and 3 more". Warnings use it to name what they
// are about without growing with the input.
func ListNames(names []string) string {
	const show = 4
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:show], ", "), len(names)-show)
}
