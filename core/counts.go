package core

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParseCount reads "passed/trials" (for a budget: "fails/runs"), such as
// "17/20". Spaces and tabs around either number are allowed. Both numbers
// are decimal integers >= 0 without a sign, and passed <= trials. Errors are
// *Error values of Kind Invalid naming field and the 1-based column (in
// characters) of the fault in s.
func ParseCount(field, s string) (Count, error) {
	return ParseCountOf(field, s, "passed", "trials", "17/20")
}

// ParseCountOf reads a count as ParseCount does, its errors naming the two
// numbers part and whole ("fails", "runs") and giving example ("1/120").
func ParseCountOf(field, s, part, whole, example string) (Count, error) {
	slash := strings.IndexByte(s, '/')
	if slash < 0 {
		col := firstNonBlank(s, 0)
		return Count{}, countErr(field, s, col, "want %s/%s such as %s, got %s", part, whole, example, Quote(s))
	}
	if j := strings.IndexByte(s[slash+1:], '/'); j >= 0 {
		return Count{}, countErr(field, s, slash+1+j, "want one slash in %s/%s, got %s", part, whole, Quote(s))
	}
	passed, err := parseCountPart(field, s, 0, slash, part)
	if err != nil {
		return Count{}, err
	}
	trials, err := parseCountPart(field, s, slash+1, len(s), whole)
	if err != nil {
		return Count{}, err
	}
	if passed > trials {
		return Count{}, countErr(field, s, firstNonBlank(s, 0), "%d is more than the %d %s", passed, trials, whole)
	}
	return Count{Passed: passed, Trials: trials}, nil
}

// parseCountPart reads the integer in s[from:to], blanks allowed around it.
func parseCountPart(field, s string, from, to int, what string) (int64, error) {
	start := from
	for start < to && isBlank(s[start]) {
		start++
	}
	end := to
	for end > start && isBlank(s[end-1]) {
		end--
	}
	if start == end {
		return 0, countErr(field, s, start, "missing the number of %s in %s", what, Quote(s))
	}
	for i := start; i < end; i++ {
		if c := s[i]; c < '0' || c > '9' {
			return 0, countErr(field, s, i, "the number of %s must be a whole number >= 0, found %q", what, nextRune(s[i:]))
		}
	}
	if s[start] == '0' && end-start > 1 {
		return 0, countErr(field, s, start, "the number of %s %s has leading zeros; write it without them", what, s[start:end])
	}
	n, err := ParseInt(s[start:end])
	if err != nil { // only out of range is left
		return 0, countErr(field, s, start, "the number of %s %s is too large", what, s[start:end])
	}
	return n, nil
}

// ParseRates reads a comma-separated list of numbers, such as "0.05,0.02".
// Spaces and tabs around each number are allowed; an empty or blank s is an
// empty list. Each number must be finite; whether it is in range is for the
// calculator that uses it to say. Errors are *Error values of Kind Invalid
// naming field and the 1-based column of the fault in s.
func ParseRates(field, s string) ([]float64, error) {
	out := []float64{}
	if strings.TrimLeft(s, " \t") == "" {
		return out, nil
	}
	from := 0
	for {
		to := strings.IndexByte(s[from:], ',')
		last := to < 0
		if last {
			to = len(s)
		} else {
			to += from
		}
		start, end := from, to
		for start < end && isBlank(s[start]) {
			start++
		}
		for end > start && isBlank(s[end-1]) {
			end--
		}
		if start == end {
			return nil, countErr(field, s, start, "empty item %d in the list %q", len(out)+1, s)
		}
		item := s[start:end]
		v, err := ParseFloat(item)
		switch {
		case strings.HasSuffix(item, "%"):
			return nil, countErr(field, s, end-1, "%q: give a fraction (0.05), not a percentage", item)
		case errors.Is(err, strconv.ErrRange):
			return nil, countErr(field, s, start, "%q is out of the range of a float64", item)
		case err != nil:
			return nil, countErr(field, s, start, "%q is not a number: %s", item, numberSyntax(item, false))
		}
		out = append(out, v)
		if last {
			return out, nil
		}
		from = to + 1
	}
}

// nonZeroMantissa reports whether the number in s has a digit other than 0
// before its exponent: then a parsed zero is an underflow, not a zero.
func nonZeroMantissa(s string) bool {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	return strings.ContainsAny(s, "123456789")
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func firstNonBlank(s string, from int) int {
	for from < len(s) && isBlank(s[from]) {
		from++
	}
	return from
}

func nextRune(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	return string(r)
}

// countErr builds a field error whose column is the 1-based character
// position of byte offset off in s.
func countErr(field, s string, off int, format string, args ...any) *Error {
	e := FieldErrorf(field, format, args...)
	e.Column = utf8.RuneCountInString(s[:min(off, len(s))]) + 1
	return e
}

// Count is a number of successes out of a number of trials.
type Count struct {
	Passed int64 `json:"passed"` // in [0, Trials]
	Trials int64 `json:"trials"` // >= 0
}

// Check returns an Invalid *Error naming field when c is not a count:
// negative trials, or passes outside [0, Trials].
func (c Count) Check(field string) error {
	if c.Trials < 0 {
		return FieldErrorf(field, "trials must not be negative, got %d", c.Trials)
	}
	if c.Passed < 0 || c.Passed > c.Trials {
		return FieldErrorf(field, "passed must be in [0, %d], got %d", c.Trials, c.Passed)
	}
	return nil
}
