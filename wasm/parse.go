package wasm

import (
	"errors"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
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

// parseFraction reads a number in [0,1] or a percentage ("95%").
func parseFraction(field, s string) (float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, inputErr(field, 0, "is required")
	}
	if p, ok := strings.CutSuffix(t, "%"); ok {
		t = percentToFraction(strings.TrimSpace(p))
	}
	v, err := core.ParseFloat(t)
	if err != nil {
		return 0, inputErr(field, badColumn(s), "not a number: "+strconv.Quote(strings.TrimSpace(s)))
	}
	return v, nil
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

// parseNonNeg reads a finite number >= 0; empty gives nil (unknown).
func parseOptSeconds(field, s string) (*float64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, nil
	}
	v, err := core.ParseFloat(t)
	if err != nil {
		return nil, inputErr(field, badColumn(s), "not a number of seconds: "+strconv.Quote(t))
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
			return 0, inputErr(field, 0, "is out of range: "+strconv.Quote(t))
		}
		return 0, inputErr(field, badColumn(s), "not a whole number: "+strconv.Quote(t))
	}
	return v, nil
}

// badColumn is the 1-based column of the first byte that cannot belong to a
// number, or 1.
func badColumn(s string) int {
	for i, c := range s {
		if !strings.ContainsRune("0123456789.eE+-% ", c) {
			return i + 1
		}
	}
	return 1
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
