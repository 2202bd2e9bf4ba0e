package main

import (
	"errors"
	"flag"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/param"
)

// inputFlags are a calculator's inputs as flags, one for each field of its
// schema (core/param): the flag is the field's key with '-' for '_', its
// help the field's, its default printed once, from the schema. Each flag's
// text is read by the one grammar as it is given, so a bad value is refused
// with the flag's name and the schema's words.
type inputFlags struct {
	texts map[string]string // by field key, the flags given
	flags map[string]param.Field
	// paths are the fields the calculator's own errors name by another
	// path than their key ("release.below" for below), by that path.
	paths map[string]string
}

// textFlag is one field's flag.Value. Its zero value prints "" so that the
// flag package prints "(default X)" exactly when the field has a default.
type textFlag struct {
	f     param.Field
	def   string
	texts map[string]string
}

func (v *textFlag) String() string {
	if v == nil {
		return ""
	}
	return v.def
}

// IsBoolFlag makes a Bool field's flag a switch: -simulate is
// -simulate=true.
func (v *textFlag) IsBoolFlag() bool { return v.f.Kind == param.Bool }

func (v *textFlag) Set(s string) error {
	if _, _, err := v.f.Read(s); err != nil {
		var e *core.Error
		if errors.As(err, &e) {
			return errors.New(e.Msg)
		}
		return err
	}
	v.texts[v.f.Key] = s
	return nil
}

// schemaFlags defines on fs a flag for each field of fields but those in
// skip and those another field's flag carries (param.Field.Joined: the
// runner's setting is -runner NAME=N), with the defaults defs (param's
// Defaults).
func schemaFlags(fs *flag.FlagSet, fields []param.Field, defs map[string]string, skip ...string) *inputFlags {
	in := &inputFlags{texts: map[string]string{}, flags: map[string]param.Field{}}
	for _, f := range fields {
		if f.Joined != "" {
			skip = append(skip, f.Joined)
		}
	}
outer:
	for _, f := range fields {
		for _, k := range skip {
			if k == f.Key {
				continue outer
			}
		}
		in.flags[f.Key] = f
		if f.Joined != "" {
			in.flags[f.Joined] = f // its faults are the flag's
		}
		def := defs[f.Key]
		if f.Kind == param.Bool && def == "false" {
			def = "" // a switch is off unless given
		}
		fs.Var(&textFlag{f: f, def: def, texts: in.texts}, f.Flag(), f.Help())
	}
	return in
}

// parsed reads the flags given with parse (a schema's Parse), naming the
// field of the first fault by its flag.
func parsed[T any](in *inputFlags, s *param.Schema[T]) (T, error) {
	v, err := s.Parse(in.texts)
	if err != nil {
		return v, in.named(param.First(err))
	}
	return v, nil
}

// named is err, a *core.Error of a schema's field (from its Parse or from
// the calculator's check), naming the field by its flag: "-baseline:
// required, as passed/trials such as 17/20", "-target: must be in (0,1),
// got 1.5". Other errors are returned as they are.
func (in *inputFlags) named(err error) error {
	var e *core.Error
	if errors.As(err, &e) && e.File == "" {
		key := e.Field
		if k, ok := in.paths[key]; ok {
			key = k
		}
		if f, ok := in.flags[key]; ok {
			c := *e
			c.Field = "-" + f.Flag()
			return &c
		}
	}
	return err
}

// compute reads the inputs given with the schema s and computes calc on
// them, naming a refused input by its flag, whichever refuses it.
func compute[T, R any](in *inputFlags, s *param.Schema[T], calc func(T) (R, error)) (T, R, error) {
	v, err := parsed(in, s)
	if err != nil {
		var none R
		return v, none, err
	}
	r, err := calc(v)
	return v, r, in.named(err)
}

// calc is a calculator command's command line: a flag for each input of
// its schema (schemaFlags), the flags of how its answer is printed
// (outputFlags), and the command's own, which it adds to fs before it
// begins.
type calc[T any] struct {
	e      *env
	fs     *flag.FlagSet
	schema *param.Schema[T]
	inputs *inputFlags
	out    *output
	args   []string // the command line, read by begin
	// Once begun: the positional arguments, and the site the result's
	// link points to ("" for none).
	pos  []string
	site string
}

// calcCommand is the command name, which answers summary, whose command
// line is a calc of the schema s (calculator).
func calcCommand[T any](name, summary, synopsis string, s *param.Schema[T], run func(*calc[T]) (bool, error)) command {
	return command{name, summary, calculator(name, synopsis, s, run)}
}

// calculator is the run of the command name whose command line is a calc
// of the schema s: run adds its own flags, begins and computes.
func calculator[T any](name, synopsis string, s *param.Schema[T], run func(*calc[T]) (bool, error)) func(*env, []string) (bool, error) {
	return func(e *env, args []string) (bool, error) {
		fs := newFlags(e, name, synopsis)
		return run(&calc[T]{e: e, fs: fs, schema: s, inputs: schemaFlags(fs, s.Fields, s.Defaults()), out: outputFlags(fs), args: args})
	}
}

// begin parses the command line and checks how the answer is to be
// printed (begin).
func (c *calc[T]) begin() (err error) {
	c.pos, c.site, err = begin(c.e, c.fs, c.out, c.args)
	return err
}

// noArgs begins a command that takes no positional arguments; hint, when
// given, says where the input goes instead.
func (c *calc[T]) noArgs(hint string) error {
	if err := c.begin(); err != nil {
		return err
	}
	return noArgs(c.pos, hint)
}

// parsed reads the inputs given (parsed).
func (c *calc[T]) parsed() (T, error) { return parsed(c.inputs, c.schema) }

// start begins and reads the inputs given, for a command whose positional
// arguments are no input of the schema.
func (c *calc[T]) start() (T, error) {
	if err := c.begin(); err != nil {
		var none T
		return none, err
	}
	return c.parsed()
}

// print prints the result as the output flags ask (output.print).
func (c *calc[T]) print(r printed) error { return c.out.print(c.e, r) }

// calculate begins a command that takes no positional arguments (hint:
// noArgs) and computes calc on the inputs given (compute).
func calculate[T, R any](c *calc[T], hint string, calc func(T) (R, error)) (T, R, error) {
	if err := c.noArgs(hint); err != nil {
		var in T
		var none R
		return in, none, err
	}
	return compute(c.inputs, c.schema, calc)
}

// begin parses a command's arguments and checks how its answer is to be
// printed: its positional arguments, and the site its links point to.
func begin(e *env, fs *flag.FlagSet, out *output, args []string) (pos []string, site string, err error) {
	if pos, err = parse(fs, args); err != nil {
		return nil, "", err
	}
	site, err = out.check(e)
	return pos, site, err
}

// noArgs refuses positional arguments where a command takes none; hint,
// when given, says where the input goes instead.
func noArgs(pos []string, hint string) error {
	if len(pos) == 0 {
		return nil
	}
	if hint != "" {
		return usagef("unexpected argument %q; %s", pos[0], hint)
	}
	return usagef("unexpected argument %q", pos[0])
}
