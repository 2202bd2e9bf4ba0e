package param

import (
	"strings"

	"github.com/flakegate/flakegate/core"
)

// Schema describes the inputs of one calculator whose core input is T: its
// fields in the form's order, how a read value is stored in T, and how T
// is written back as text.
type Schema[T any] struct {
	Name   string  // the calculator: "budget", "decide", "aa", "quarantine check"...
	Fields []Field // in the form's order
	def    func() T
	// bind gives where each field's value is stored in in, by key (see
	// bound.go); text and set, when not nil, take its place for an input
	// that stores a field otherwise.
	bind func(in *T) map[string]any
	text func(T) map[string]string
	set  func(in *T, key string, v Value)
	// check, when not nil, checks what the fields say together (or a
	// range the calculator does not check), once every field is read;
	// given reports whether a field's text was given. Its error is a
	// *core.Error naming a field.
	check func(in *T, given func(key string) bool) error
}

// Field is the field of key, and whether there is one.
func (s *Schema[T]) Field(key string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// Default is the calculator's default input (gate.DefaultBudgetInput...),
// read when called.
func (s *Schema[T]) Default() T { return s.def() }

// Defaults is each field's default text, "" for one without a default.
func (s *Schema[T]) Defaults() map[string]string {
	d := s.textOf(s.def())
	for _, f := range s.Fields {
		if f.Required {
			d[f.Key] = ""
		}
	}
	return d
}

// DefaultOf is the default text of field key ("" for none).
func (s *Schema[T]) DefaultOf(key string) string { return s.Defaults()[key] }

// Starts is the text each field of the page's form starts with: its Start,
// or else its default.
func (s *Schema[T]) Starts() map[string]string {
	d := s.Defaults()
	for _, f := range s.Fields {
		if f.Start != "" {
			d[f.Key] = f.Start
		}
	}
	return d
}

// Text is in's canonical text: every field's, "" for an absent optional
// input. Parse reads it back to in.
func (s *Schema[T]) Text(in T) map[string]string { return s.textOf(in) }

// Parse reads the text of the fields given (by key) into the calculator's
// input, starting from its default: a field not given keeps its default.
// Its error is an Errors with one *core.Error for each field it cannot
// read, or that is required and missing, in the fields' order; those
// fields keep their default.
func (s *Schema[T]) Parse(text map[string]string) (T, error) {
	in := s.def()
	text, err := s.split(text)
	if err != nil {
		return in, Errors{err}
	}
	var errs Errors
	for _, f := range s.Fields {
		t, given := text[f.Key]
		if !given {
			if f.Required {
				errs = append(errs, f.Missing())
			}
			continue
		}
		v, absent, err := f.Read(t)
		switch {
		case err != nil:
			errs = append(errs, err)
		case absent && (f.Required || s.DefaultOf(f.Key) != ""):
			errs = append(errs, f.Missing())
		case absent:
			s.setKey(&in, f.Key, nil)
		default:
			s.setKey(&in, f.Key, v)
		}
	}
	if len(errs) > 0 {
		return in, errs
	}
	if s.check != nil {
		given := func(key string) bool { _, ok := text[key]; return ok }
		if err := s.check(&in, given); err != nil {
			return in, Errors{err}
		}
	}
	return in, nil
}

// split is text with each joined text ("gotestsum=2") given to its two
// fields (runner gotestsum, setting 2); the second may not have text of
// its own too.
func (s *Schema[T]) split(text map[string]string) (map[string]string, error) {
	var out map[string]string
	for _, f := range s.Fields {
		t, ok := text[f.Key]
		if f.Joined == "" || !ok {
			continue
		}
		name, n, found := strings.Cut(t, "=")
		if !found {
			continue
		}
		if other := text[f.Joined]; strings.TrimSpace(other) != "" {
			return nil, core.FieldErrorf(f.Joined, "given twice: after %s= and as %s", strings.TrimSpace(name), f.Joined)
		}
		if out == nil {
			out = make(map[string]string, len(text)+1)
			for k, v := range text {
				out[k] = v
			}
		}
		out[f.Key], out[f.Joined] = name, n
	}
	if out == nil {
		return text, nil
	}
	return out, nil
}

// Errors is every field's fault found by Parse, at most one per field, in
// the fields' order. Its parts are *core.Error values.
type Errors []error

func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap gives the parts to errors.Is and errors.As.
func (e Errors) Unwrap() []error { return e }

// For is the fault of field key, or nil.
func (e Errors) For(key string) error {
	for _, err := range e {
		if FieldOf(err) == key {
			return err
		}
	}
	return nil
}

// Err is e as an error: nil when it holds none.
func (e Errors) Err() error {
	if len(e) == 0 {
		return nil
	}
	return e
}

// First is the first fault, as a surface that reports one shows it.
func First(err error) error {
	if es, ok := err.(Errors); ok && len(es) > 0 {
		return es[0]
	}
	return err
}

// FieldOf is the key an error names, "" when it names none.
func FieldOf(err error) string {
	if e, ok := err.(*core.Error); ok {
		return e.Field
	}
	return ""
}
