package page

import (
	"errors"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/param"
)

// The form parsers below turn what a person typed into core inputs. Their
// errors are *core.Error values naming the field (and the column when the
// fault is inside the text), the same shape core's own parsers return, so
// the page shows both kinds at the field.

// errorList is err's parts: the errors of a param.Errors, or err alone.
// A form's errors are a param.Errors, at most one per field, in the order
// found: the page shows each at its own field at once.
func errorList(err error) param.Errors {
	var pe param.Errors
	if errors.As(err, &pe) {
		return pe
	}
	if err == nil {
		return nil
	}
	return param.Errors{err}
}

// collect adds to errs the faults check finds in the fields errs does not
// name yet. check computes with a valid stand-in for each field in bad, so
// every round finds one more field's fault, with the message it gives when
// it is the only one. It stops at a success, at a fault it cannot place
// (an error naming no field, kept only when no stand-in was in use, as it
// could come from one) or at a field it already named. The value is
// check's last, meaningful only when errs is still empty.
func collect[T any](errs param.Errors, check func(bad param.Errors) (T, error)) (T, param.Errors) {
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
