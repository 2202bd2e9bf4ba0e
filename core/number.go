package core

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// flakegate reads every number a person types by one grammar, wherever it
// is typed: CLI flags and arguments, API query strings, forms and JSON
// bodies, and the page. It is the grammar of a JSON number:
//
//	number  = [ "-" ] int [ "." digits ] [ ( "e" | "E" ) [ "+" | "-" ] digits ]
//	int     = "0" | nonzero { digit }
//	integer = [ "-" ] int
//
// So 0.05, 5e-2, 1E+3, -0.5 and 120 are numbers, and these are refused:
// hexadecimal (0x1p-4), a leading '+' (+0.05), a missing leading digit
// (.05) or trailing one (5.), leading zeros (003, 007.5), digit separators
// (1_000), Inf, NaN, blanks inside, and numbers that overflow a float64 or
// underflow it to zero (1e400, 1e-400). An integer has no fraction and no
// exponent. Callers trim the blanks around a number themselves.

// ParseFloat reads s as a number of the grammar above. It is a drop-in for
// strconv.ParseFloat(s, 64): its errors are *strconv.NumError with Err
// strconv.ErrSyntax or strconv.ErrRange, and NumberProblem says in words
// what is wrong.
func ParseFloat(s string) (float64, error) {
	if numberSyntax(s, false) != "" {
		return 0, &strconv.NumError{Func: "ParseFloat", Num: s, Err: strconv.ErrSyntax}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || (v == 0 && nonZeroMantissa(s)) {
		return 0, &strconv.NumError{Func: "ParseFloat", Num: s, Err: strconv.ErrRange}
	}
	return v, nil
}

// ParseInt reads s as an integer of the grammar above. It is a drop-in for
// strconv.ParseInt(s, 10, 64), with the same kinds of errors.
func ParseInt(s string) (int64, error) {
	if numberSyntax(s, true) != "" {
		return 0, &strconv.NumError{Func: "ParseInt", Num: s, Err: strconv.ErrSyntax}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, &strconv.NumError{Func: "ParseInt", Num: s, Err: strconv.ErrRange}
	}
	return v, nil
}

// NumberProblem says in words why s is not a number (integer when integer
// is true) of the grammar, such as "hexadecimal is not read: write 0.0625",
// or "" when it is one. It does not check the range.
func NumberProblem(s string, integer bool) string {
	return numberSyntax(s, integer)
}

// ParseNumber reads s as ParseFloat does, and returns an Invalid *Error
// naming field and saying what is wrong in words.
func ParseNumber(field, s string) (float64, error) {
	v, err := ParseFloat(s)
	if err != nil {
		return 0, numberErr(field, s, false, err)
	}
	return v, nil
}

// ParseInteger reads s as ParseInt does, and returns an Invalid *Error
// naming field and saying what is wrong in words.
func ParseInteger(field, s string) (int64, error) {
	v, err := ParseInt(s)
	if err != nil {
		return 0, numberErr(field, s, true, err)
	}
	return v, nil
}

func numberErr(field, s string, integer bool, err error) *Error {
	if errors.Is(err, strconv.ErrRange) {
		return FieldErrorf(field, "%s is out of the range of a number", Quote(s))
	}
	what := "a number"
	if integer {
		what = "a whole number"
	}
	return FieldErrorf(field, "%s is not %s: %s", Quote(s), what, numberSyntax(s, integer))
}

// Quote quotes s for a refusal, shortened to at most 40 bytes of text and
// 64 of quotation, with "…" after it when shortened: a refusal says what
// was wrong, never all of it, and every surface shows the same words (the
// API clips no quotation shorter than that).
func Quote(s string) string {
	const most, quoted = 40, 64
	q := strconv.Quote(s)
	if len(s) <= most && len(q) <= quoted {
		return q
	}
	s = s[:min(len(s), most)]
	for q = strconv.Quote(s); len(q) > quoted; q = strconv.Quote(s) {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
	}
	return q + "…"
}

// numberSyntax is NumberProblem.
func numberSyntax(s string, integer bool) string {
	want := "a number such as 0.05 or 5e-2"
	if integer {
		want = "one such as 3"
	}
	i := 0
	switch {
	case s == "":
		return "it is empty; write " + want
	case s[0] == '+':
		return "write it without the leading '+'"
	case s[0] == '-':
		i++
	}
	digitsFrom := func(j int) int {
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j
	}
	j := digitsFrom(i)
	switch {
	case j == i && i < len(s) && s[i] == '.' && !integer:
		return fmt.Sprintf("write a digit before the point (%s0%s)", s[:i], s[i:])
	case j == i:
		return "write " + want
	case s[i] == '0' && j-i > 1:
		return "write it without leading zeros"
	case s[i] == '0' && j < len(s) && (s[j] == 'x' || s[j] == 'X' || s[j] == 'o' || s[j] == 'O' || s[j] == 'b' || s[j] == 'B'):
		return "only decimal is read, not hexadecimal, octal or binary"
	}
	if integer {
		if j < len(s) {
			return "write digits only, such as 3"
		}
		return ""
	}
	if j < len(s) && s[j] == '.' {
		k := digitsFrom(j + 1)
		if k == j+1 {
			return "write a digit after the point"
		}
		j = k
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		e := digitsFrom(k)
		if e == k {
			return "write the exponent's digits after the " + string(s[j])
		}
		j = e
	}
	if j < len(s) {
		return "write " + want + ", with nothing after it"
	}
	return ""
}

// FloatVar is a flag.Value (flag.FlagSet.Var) of a float64 read by
// ParseFloat.
type FloatVar struct{ P *float64 }

func (v FloatVar) String() string {
	if v.P == nil {
		return "0"
	}
	return strconv.FormatFloat(*v.P, 'g', -1, 64)
}

func (v FloatVar) Set(s string) error {
	x, err := ParseNumber("", s)
	if err != nil {
		return errors.New(err.(*Error).Msg)
	}
	*v.P = x
	return nil
}
