package core

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an input error so that every surface can map it the same
// way: the API to an HTTP status, the CLI to an exit status.
type Kind string

const (
	// Invalid input is malformed or out of range (HTTP 400).
	Invalid Kind = "invalid"
	// Unusable input is well formed, but the statistics cannot use it, such as
	// a scenario seen in only one run (HTTP 422).
	Unusable Kind = "unusable"
	// TooLarge input exceeds a stated size limit (HTTP 413).
	TooLarge Kind = "too_large"
)

// Error is an input error. It names what was wrong and, when the input was
// text, where: File (may be empty), Line and Column, both 1-based (0 when not
// known). Field names the input parameter for errors outside a file, such as
// "target" or "baseline".
type Error struct {
	Kind   Kind
	File   string
	Line   int
	Column int
	Field  string
	Msg    string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, "%d:", e.Column)
		}
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// WithFile returns err with its File set to name when err is an *Error
// without one. Other errors are returned unchanged.
func WithFile(err error, name string) error {
	var e *Error
	if errors.As(err, &e) && e.File == "" {
		c := *e
		c.File = name
		return &c
	}
	return err
}

// ErrorKind reports the Kind of err, or "" when err is not an *Error.
func ErrorKind(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}

// FieldErrorf returns an Invalid *Error about the input parameter field, its
// message formatted as fmt.Sprintf does: the error of a setting out of range.
func FieldErrorf(field, format string, args ...any) *Error {
	return &Error{Kind: Invalid, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// PosErrorf returns a *Error of kind at a 1-based line and column of a text
// input (0 when not known), its message formatted as fmt.Sprintf does. The
// caller adds the file name with WithFile.
func PosErrorf(kind Kind, line, col int, format string, args ...any) *Error {
	return &Error{Kind: kind, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}
