package wasm

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/words"
)

// The form parsers below turn what a person typed into core inputs. Their
// errors are *core.Error values naming the field (and the column when the
// fault is inside the text), the same shape core's own parsers return, so
// the page shows both kinds at the field.

// FieldErrors is every input error of a form, at most one per field, in
// the order found: the page shows each at its own field at once. Its parts
// are *core.Error values.
type FieldErrors []error

func (e FieldErrors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap gives the parts to errors.Is and errors.As.
func (e FieldErrors) Unwrap() []error { return e }

// For is the error of field key, or nil.
func (e FieldErrors) For(key string) error {
	for _, err := range e {
		if errField(err) == key {
			return err
		}
	}
	return nil
}

// add keeps err unless it is nil.
func (e *FieldErrors) add(err error) {
	if err != nil {
		*e = append(*e, err)
	}
}

// orNil is e as an error, nil when it holds none.
func (e FieldErrors) orNil() error {
	if len(e) == 0 {
		return nil
	}
	return e
}

// errorList is err's parts: the errors of a FieldErrors, or err alone.
func errorList(err error) []error {
	var fe FieldErrors
	if errors.As(err, &fe) {
		return fe
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// collect adds to errs the faults check finds in the fields errs does not
// name yet. check computes with a valid stand-in for each field in bad, so
// every round finds one more field's fault, with the message it gives when
// it is the only one. It stops at a success, at a fault it cannot place
// (an error naming no field, kept only when no stand-in was in use, as it
// could come from one) or at a field it already named. The value is
// check's last, meaningful only when errs is still empty.
func collect[T any](errs FieldErrors, check func(bad FieldErrors) (T, error)) (T, FieldErrors) {
	for {
		v, err := check(errs)
		if err == nil {
			return v, errs
		}
		f := errField(err)
		switch {
		case f == "" && len(errs) == 0:
			return v, append(errs, err)
		case f == "" || errs.For(f) != nil:
			return v, errs
		}
		errs = append(errs, err)
	}
}

func inputErr(field string, col int, msg string) error {
	return &core.Error{Kind: core.Invalid, Field: field, Column: col, Msg: msg}
}

// parseFraction reads a fraction ("0.95") or a percentage ("95%"). The
// field holds one value, so its messages say what is wrong with it, not
// where.
func parseFraction(field, s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, inputErr(field, 0, "is required")
	}
	return readFraction(field, t)
}

// readFraction reads one trimmed fraction or percentage, by the one number
// grammar (core.ParseFloat) with an optional "%" after it.
func readFraction(field, t string) (float64, error) {
	if p, ok := strings.CutSuffix(t, "%"); ok {
		num := strings.TrimSpace(p)
		if r := core.NumberProblem(num, false); r != "" {
			return 0, inputErr(field, 0, strconv.Quote(t)+" is not a percentage: "+r)
		}
		v, err := core.ParseFloat(percentToFraction(num))
		if err != nil {
			return 0, inputErr(field, 0, strconv.Quote(t)+" is out of the range of a number")
		}
		return v, nil
	}
	v, err := core.ParseNumber(field, t)
	if err != nil {
		return 0, inputErr(field, 0, strconv.Quote(t)+" is not a number: "+numberReason(t, err))
	}
	return v, nil
}

// numberReason is why core refused a number, without core's own quote of
// it: the caller names the text once.
func numberReason(num string, err error) string {
	if r := core.NumberProblem(num, false); r != "" {
		return r
	}
	return "it is out of the range of a number"
}

// percentToFraction rewrites a decimal percentage as the same number over
// 100, in decimal ("99.9" → "99.9e-2"), so that parsing it rounds once:
// "95%" is then exactly 0.95 as the CLI reads it, where 95*0.01 is
// 0.9500000000000001. Text that is not a number is returned as it is, for
// the parser to refuse.
func percentToFraction(p string) string {
	mant, exp := p, 0
	if i := strings.IndexAny(p, "eE"); i >= 0 {
		e, err := strconv.Atoi(p[i+1:])
		if err != nil || e < -100000 || e > 100000 {
			return p
		}
		mant, exp = p[:i], e
	}
	return mant + "e" + strconv.Itoa(exp-2)
}

// parseOptSeconds reads a number of seconds; empty gives nil (unknown).
func parseOptSeconds(field, s string) (*float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, nil
	}
	v, err := core.ParseNumber(field, t)
	if err != nil {
		return nil, inputErr(field, 0, fmt.Sprintf("%s is not a number of seconds: %s", strconv.Quote(t), numberReason(t, err)))
	}
	return &v, nil
}

// parseInt reads a whole number.
func parseInt(field, s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, inputErr(field, 0, "is required")
	}
	v, err := core.ParseInt(t)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return 0, inputErr(field, 0, strconv.Quote(t)+" is too large a number")
		}
		return 0, inputErr(field, 0, strconv.Quote(t)+" is not a whole number: "+core.NumberProblem(t, true))
	}
	return v, nil
}

// rateSeparator reports whether c separates the rates of a list: a comma,
// a semicolon, or white space (spaces, tabs, line breaks), as people write
// lists ("0.05 0.02 0.01", "5%, 2%", one per line).
func rateSeparator(c rune) bool {
	return c == ',' || c == ';' || unicode.IsSpace(c)
}

// parseRates reads a list of failure rates, each a fraction or a
// percentage, separated by commas, semicolons or white space; blank text
// is an empty list. A fault names the rate by its place in the list and
// its column.
func parseRates(field, s string) ([]float64, error) {
	out := []float64{}
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if rateSeparator(r) {
			i += n
			continue
		}
		start := i
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if rateSeparator(r) {
				break
			}
			i += n
		}
		item := s[start:i]
		// "5 %" is one rate: a "%" standing alone belongs to the number
		// before it.
		if j := skipBlanks(s, i); j < len(s) && s[j] == '%' {
			item, i = s[start:j+1], j+1
		}
		v, err := readFraction(field, item)
		if err != nil {
			if strings.TrimSpace(s) == item {
				return nil, err // the only rate: no place to name
			}
			var e *core.Error
			errors.As(err, &e)
			col := utf8.RuneCountInString(s[:start]) + 1
			return nil, inputErr(field, col, "rate "+strconv.Itoa(len(out)+1)+": "+e.Msg)
		}
		out = append(out, v)
	}
	return out, nil
}

// skipBlanks is the offset of the first byte at or after i that is not a
// space or a tab.
func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// countWords names the two numbers of a count in a field's own terms:
// "passed/trials" for an arm, "failures/runs" for an observed history.
type countWords struct {
	part, whole string // plural nouns: "passed", "trials"
	example     string // "17/20"
}

var (
	armCount     = countWords{"passed", "trials", "17/20"}
	historyCount = countWords{"failures", "runs", "1/120"}
)

// parseCount reads "part/whole" as core.ParseCount does (the same grammar:
// whole numbers without sign or leading zeros, blanks around them), with
// messages in the field's terms. A fault inside the text gives its column.
func parseCount(field, s string, w countWords) (core.Count, error) {
	if strings.TrimSpace(s) == "" {
		return core.Count{}, inputErr(field, 0, "is required: write "+w.part+"/"+w.whole+", such as "+w.example)
	}
	col := func(off int) int { return utf8.RuneCountInString(s[:off]) + 1 }
	slash := strings.IndexByte(s, '/')
	if slash < 0 {
		return core.Count{}, inputErr(field, 0, fmt.Sprintf("write %s/%s, such as %s; got %s", w.part, w.whole, w.example, strconv.Quote(strings.TrimSpace(s))))
	}
	if j := strings.IndexByte(s[slash+1:], '/'); j >= 0 {
		return core.Count{}, inputErr(field, col(slash+1+j), fmt.Sprintf("write one slash, as in %s", w.example))
	}
	part := func(from, to int, noun string) (int64, error) {
		start, end := skipBlanks(s, from), to
		for end > start && (s[end-1] == ' ' || s[end-1] == '\t') {
			end--
		}
		t := s[start:end]
		switch {
		case t == "":
			return 0, inputErr(field, col(start), fmt.Sprintf("the number of %s is missing, as in %s", noun, w.example))
		case strings.TrimLeft(t, "0123456789") != "":
			bad := start + len(t) - len(strings.TrimLeft(t, "0123456789"))
			r, _ := utf8.DecodeRuneInString(s[bad:])
			return 0, inputErr(field, col(bad), fmt.Sprintf("the number of %s must be a whole number, found %s", noun, strconv.Quote(string(r))))
		case len(t) > 1 && t[0] == '0':
			return 0, inputErr(field, col(start), fmt.Sprintf("the number of %s, %s, has leading zeros; write it without them", noun, t))
		}
		v, err := core.ParseInt(t)
		if err != nil {
			return 0, inputErr(field, col(start), fmt.Sprintf("the number of %s, %s, is too large", noun, t))
		}
		return v, nil
	}
	a, err := part(0, slash, w.part)
	if err != nil {
		return core.Count{}, err
	}
	b, err := part(slash+1, len(s), w.whole)
	if err != nil {
		return core.Count{}, err
	}
	if a > b {
		return core.Count{}, inputErr(field, 0, fmt.Sprintf("%s/%s: the %s cannot be more than the %s", words.Count(a), words.Count(b), w.part, w.whole))
	}
	return core.Count{Passed: a, Trials: b}, nil
}

// errField returns the field an error belongs to ("" when it names none).
func errField(err error) string {
	var e *core.Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// errText is an error's message for display at its field: the core's
// message with its position, without repeating the field name.
func errText(err error) string {
	var e *core.Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	c := *e
	c.Field = ""
	if c.Line == 0 && c.Column > 0 {
		return "column " + strconv.Itoa(c.Column) + ": " + c.Msg
	}
	return c.Error()
}
