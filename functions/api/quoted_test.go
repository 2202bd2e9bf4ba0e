package api

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// quotedRe is the pattern clipEchoes used before quoted, run by Go's
// regexp package: every expected value in this file is its.
var quotedRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// clipEchoesRegexp is clipEchoes as it was, on quotedRe.
func clipEchoesRegexp(s string) string {
	if len(s) > maxEcho+2 {
		s = quotedRe.ReplaceAllStringFunc(s, func(q string) string {
			if len(q) <= maxEcho+2 {
				return q
			}
			return cutRunes(q[:len(q)-1], maxEcho+1) + `…"`
		})
	}
	return clipText(s)
}

// sameAsRegexp fails t where quoted's matches in s, one after another, or
// clipEchoes of s differ from the regexp-based original (Go's regexp
// running the pattern the code used before gives the expected values).
func sameAsRegexp(t *testing.T, s string) {
	t.Helper()
	var got [][]int
	for at := 0; ; {
		start, end := quoted(s[at:])
		if start < 0 {
			break
		}
		got = append(got, []int{at + start, at + end})
		at += end
	}
	if want := quotedRe.FindAllStringIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("quoted values in %q: %v; regexp: %v", s, got, want)
	}
	if got, want := clipEchoes(s), clipEchoesRegexp(s); got != want {
		t.Errorf("clipEchoes(%q):\n%q\nregexp:\n%q", s, got, want)
	}
}

// quotedCases are the pattern's edge cases: escapes, a backslash before a
// newline or the end (which does not escape it: . is not \n), values left
// open, invalid UTF-8 (a byte that is a rune of its own, U+FFFD, to
// regexp), each also in a detail long enough to be clipped.
var quotedCases = []string{
	``, `"`, `""`, `"a"`, `"a" "b"`, `""""`, `"a"b"c"`,
	`"a\"b"`, `"a\\"b"`, `"\"`, `"\\"`, `x\"y"`, `"a\`,
	"\"a\\\nb\" \"c\"", "\"a\\\n\"", "\"a\nb\"", "\"a\\\\\n\"", "\"\\\r\"",
	`"abc`, `"abc "x"`, `"a\"b "c"`, `"a\" \"b`, `"a\" "b\"c" "d"`,
	"\"\xff\"", "\"\\\xff\"", "\"\\\xe2\x82\"", "\xff\"\xfe\\\"\xff\"",
	`"é"`, `"\é"`, "\"\\\u2028\"", `"\x00" and "\u00e9"`,
}

// TestQuotedMatchesRegexp holds quoted and clipEchoes to the
// regexp-based original; the expected values are Go's regexp running the
// pattern the code used before.
func TestQuotedMatchesRegexp(t *testing.T) {
	long := strings.Repeat("é", 40)
	for _, c := range quotedCases {
		sameAsRegexp(t, c)
		sameAsRegexp(t, `property: must be passed, got "`+long+c+long+`"`)
		sameAsRegexp(t, c+` "`+long+`" `+c+` "`+long+`\"`+long+`" `+c)
	}
	for _, d := range details(t) {
		sameAsRegexp(t, d)
	}
}

// details are the problem details of the API's golden answers.
func details(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txt"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no golden answers: %v", err)
	}
	var out []string
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var p problem
		if _, body, ok := bytes.Cut(b, []byte("\n\n")); ok && json.Unmarshal(body, &p) == nil && p.Detail != "" {
			out = append(out, p.Detail)
		}
	}
	if len(out) == 0 {
		t.Fatal("no problem details in the golden answers")
	}
	return out
}

// FuzzClipEchoes holds quoted and clipEchoes to the regexp-based original
// (Go's regexp running the pattern the code used before gives the
// expected values) on any detail.
func FuzzClipEchoes(f *testing.F) {
	for _, s := range append(details(f), quotedCases...) {
		f.Add(s)
	}
	f.Fuzz(sameAsRegexp)
}
