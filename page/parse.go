package page

import (
	"errors"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/param"
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

// errorList is err's parts: the errors of a FieldErrors or a param.Errors,
// or err alone.
func errorList(err error) []error {
	var fe FieldErrors
	if errors.As(err, &fe) {
		return fe
	}
	var pe param.Errors
	if errors.As(err, &pe) {
		return pe
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

// The readers below read one field's text by the calculators' one grammar
// (core/param), with its wording: what the page accepts, the CLI, the API
// and links accept with the same meaning, and what one refuses, all refuse.

// parseFraction reads a fraction ("0.95") or a percentage ("95%"); blank
// text is refused.
func parseFraction(field, s string) (float64, error) {
	v, err := param.Field{Key: field, Kind: param.Fraction}.ReadRequired(s)
	if err != nil {
		return 0, err
	}
	return v.(float64), nil
}

// parseOptSeconds reads seconds ("8") or a duration ("8s", "1m30s");
// blank text gives nil (unknown).
func parseOptSeconds(field, s string) (*float64, error) {
	v, absent, err := param.Field{Key: field, Kind: param.Seconds}.Read(s)
	if err != nil || absent {
		return nil, err
	}
	x := v.(float64)
	return &x, nil
}

// parseInt reads a whole number; blank text is refused.
func parseInt(field, s string) (int64, error) {
	v, err := param.Field{Key: field, Kind: param.Integer}.ReadRequired(s)
	if err != nil {
		return 0, err
	}
	return v.(int64), nil
}

// parseRates reads a list of failure rates, each a fraction or a
// percentage, separated by commas, semicolons or white space; blank text
// is an empty list. A fault names the rate by its place in the list and
// its column.
func parseRates(field, s string) ([]float64, error) {
	v, _, err := param.Field{Key: field, Kind: param.Fractions, Item: "rate"}.Read(s)
	if err != nil {
		return nil, err
	}
	return v.([]float64), nil
}

// countWords names the two numbers of a count in a field's own terms:
// "passed/trials" for an arm, "fails/runs" for an observed history.
type countWords struct {
	part, whole string // plural nouns: "passed", "trials"
	example     string // "17/20"
}

var (
	armCount     = countWords{"passed", "trials", "17/20"}
	historyCount = countWords{"fails", "runs", "1/120"}
)

// parseCount reads "part/whole"; blank text is refused.
func parseCount(field, s string, w countWords) (core.Count, error) {
	v, err := param.Field{Key: field, Kind: param.Count, Part: w.part, Whole: w.whole, Example: w.example}.ReadRequired(s)
	if err != nil {
		return core.Count{}, err
	}
	return v.(core.Count), nil
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
// message with its position inside the text, without repeating the field
// name.
func errText(err error) string {
	var e *core.Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	c := *e
	c.Field = ""
	// A column locates a fault inside the text (the third rate of a list);
	// at the first character it says nothing about a single value.
	if c.Line == 0 && c.Column > 1 {
		return "column " + strconv.Itoa(c.Column) + ": " + c.Msg
	}
	return c.Error()
}

func inputErr(field string, col int, msg string) error {
	return &core.Error{Kind: core.Invalid, Field: field, Column: col, Msg: msg}
}
