package report

import (
	"errors"
	"math"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
)

// goTestScanner decodes test2json lines without reflection, with the
// strict scanner: the string fields Action, Package, Test, ImportPath and
// FailedBuild are kept (null is ""), every other value is checked and
// skipped, and keys match exactly (test2json writes them so). It keeps the
// text of the actions, packages and tests it has seen (up to 65,536 of
// them), so that a stream of millions of events holds each name once and
// allocates none for a test's second and later events.
type goTestScanner struct {
	s     jsonscan.Scanner
	names map[string]string
	// elapsed asks for the Elapsed field (a number; anything else is
	// skipped as before, no duration).
	elapsed bool
}

// event decodes line, the nth line of the stream.
func (g *goTestScanner) event(line []byte, n int) (goTestEvent, error) {
	var ev goTestEvent
	g.s.Reset(line, n, "line")
	err := g.s.Object(func(key []byte) error {
		var dst *string
		intern := false
		switch string(key) {
		case "Action":
			dst, intern = &ev.Action, true
		case "Package":
			dst, intern = &ev.Package, true
		case "Test":
			dst, intern = &ev.Test, true
		case "ImportPath":
			dst = &ev.ImportPath
		case "FailedBuild":
			dst = &ev.FailedBuild
		case "Elapsed":
			if !g.elapsed {
				return g.s.Skip()
			}
			raw, err := g.s.Value()
			if err != nil {
				return err
			}
			ev.Elapsed, ev.HasElapsed = seconds(string(raw))
			return nil
		default:
			return g.s.Skip()
		}
		v, err := stringField(&g.s, key)
		if err != nil || v == nil {
			return err
		}
		if intern {
			*dst = g.intern(v)
		} else {
			*dst = string(v)
		}
		return nil
	})
	if err == nil {
		err = g.s.End()
	}
	return ev, jsonErr(err)
}

// intern returns v as a string, the same string for the same text.
func (g *goTestScanner) intern(v []byte) string {
	if s, ok := g.names[string(v)]; ok {
		return s
	}
	if g.names == nil {
		g.names = map[string]string{}
	}
	s := string(v)
	if len(g.names) < 1<<16 {
		g.names[s] = s
	}
	return s
}

// stringField reads the value of key, which must be a string or null
// (nil); another kind is an error at the value.
func stringField(s *jsonscan.Scanner, key []byte) ([]byte, error) {
	at := s.At()
	if s.Null() {
		return nil, nil
	}
	if k, err := s.Kind(); err != nil || k == jsonscan.String {
		if err != nil {
			return nil, err
		}
		return s.String()
	}
	raw, err := s.Value()
	if err != nil {
		return nil, err
	}
	line, col := s.Where(at)
	return nil, core.PosErrorf(core.Invalid, line, col, "field %q must be a string, got %s", key, clip(raw))
}

// jsonErr is a scanner's error as the readers' error: invalid input at its
// line and column, its path first; a file that could not be read gives the
// reader's own error, and any other error passes as it is.
func jsonErr(err error) error {
	var e *jsonscan.Error
	if errors.As(err, &e) {
		if e.Err != nil {
			return e.Err // the file could not be read: not a mistake in it
		}
		return core.PosErrorf(core.Invalid, e.Line, e.Column, "%s", e.PathMsg())
	}
	return err
}

// seconds reads a duration in seconds, a finite number >= 0 (Go's syntax
// for a float); ok is false for anything else.
func seconds(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}
