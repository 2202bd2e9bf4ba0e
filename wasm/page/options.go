package page

import (
	"slices"

	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// optionsForm is the Options section of a page whose input is files (the
// A/A check, compare, history): the fields of the calculator's schema that
// the page computes with, as typed. Each is read by the schema's one
// grammar, as the CLI, the API and a link read it, and a refused one is
// shown at its field in the schema's words (or the calculator's, for a
// range only the calculator checks). It is a <details>, closed unless the
// options it was shown with differ from the defaults.
type optionsForm[T any] struct {
	schema *param.Schema[T]
	fields []field
	bools  []string      // the keys of yes/no options, offered as a choice
	check  func(T) error // the calculator's own check of its options; nil for none
	st     formState
	err    error // each field's fault as typed (param.Errors); nil when all read
	open   bool  // the section is open
}

// newOptionsForm is the form of the schema's fields keys, labelled in
// people's words (words.Options) and starting from the schema's defaults.
func newOptionsForm[T any](s *param.Schema[T], keys []string, check func(T) error) optionsForm[T] {
	labels := map[string]field{}
	var inputs []param.Field
	var bools []string
	for _, key := range keys {
		in, _ := s.Field(key)
		inputs = append(inputs, in)
		w := words.Options[s.Name][key]
		f := field{Label: w.Label, Hint: w.Hint}
		if in.Kind == param.Integer {
			f.Mode = "numeric"
		}
		if in.Kind == param.Bool {
			bools = append(bools, key)
		}
		labels[key] = f
	}
	return optionsForm[T]{schema: s, fields: formFields(inputs, s.Starts(), labels), bools: bools, check: check}
}

// show sets the form to the options in (a link's, an example's, or those
// of the figures on the page), and opens it when one is not its default.
func (o *optionsForm[T]) show(in T) {
	text := o.schema.Text(in)
	o.st, o.err, o.open = newFormState(o.fields), nil, false
	for _, f := range o.fields {
		o.st[f.Key] = text[f.Key]
		o.open = o.open || text[f.Key] != f.Default
	}
}

// set sets one option as typed and reads them all: the options, and
// whether every one reads (otherwise the faults are in o.err).
func (o *optionsForm[T]) set(key, value string) (T, bool) {
	if o.st == nil {
		o.st = newFormState(o.fields)
	}
	o.st[key] = value
	in, err := o.read(o.st)
	o.err = err
	return in, err == nil
}

// read reads the options' text as the form does (readOptions).
func (o *optionsForm[T]) read(text map[string]string) (T, error) {
	return readOptions(o.schema, o.fields, text, o.check)
}

// readOptions reads the text of fields by the schema, a field without text
// at its start, then the calculator's check of the options. Its error is
// a param.Errors with each field's fault: the fields refused are given a
// valid stand-in (their start) to find the faults of the others (collect).
func readOptions[T any](s *param.Schema[T], fields []field, text map[string]string, check func(T) error) (T, error) {
	in, errs := collect(nil, func(bad param.Errors) (T, error) {
		t := make(map[string]string, len(fields))
		for _, f := range fields {
			v, ok := text[f.Key]
			if !ok || bad.For(f.Key) != nil {
				v = f.Default
			}
			t[f.Key] = v
		}
		in, err := s.Parse(t)
		if err == nil && check != nil {
			err = check(in)
		}
		return in, param.First(err)
	})
	return in, errs.Err()
}

// render is the section: one field per option, its fault under it (calc
// is the calculator's error, shown at the option it names). note, when not
// nil, is said above the fields.
func (o *optionsForm[T]) render(id string, calc error, note app.UI, onSet func(ctx app.Context, key, value string)) app.UI {
	if o.st == nil {
		o.st = newFormState(o.fields)
	}
	return app.Details().Class("options").ID(id).Open(o.open).OnToggle(func(ctx app.Context, e app.Event) {
		o.open = ctx.JSSrc().Get("open").Bool()
	}).Body(
		app.Summary().Text("Options"),
		note,
		app.Div().Class("calc").Body(app.Range(o.fields).Slice(func(i int) app.UI {
			f := o.fields[i]
			msg := fieldError(o.err, f.Key)
			if msg == "" {
				msg = fieldError(calc, f.Key)
			}
			set := func(ctx app.Context, e app.Event) { onSet(ctx, f.Key, ctx.JSSrc().Get("value").String()) }
			if slices.Contains(o.bools, f.Key) {
				return selectField(f, o.st[f.Key], []choice{{"false", "no"}, {"true", "yes"}}, msg, set)
			}
			return fieldInput(f, o.st[f.Key], msg, set)
		})),
	)
}

// atOption reports whether err is the calculator's refusal of one of the
// form's options, which the form shows at its field.
func (o *optionsForm[T]) atOption(err error) bool {
	return err != nil && hasField(o.fields, errField(err))
}
