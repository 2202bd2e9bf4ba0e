package api

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
)

// jsonObject reads a body that must be one JSON object into its members'
// texts, with the core's scanner (core/jsonscan): the one grammar of every
// JSON input, which refuses a repeated member (it has two meanings:
// encoding/json keeps the last, other readers the first), NaN, bytes that
// are not UTF-8 and anything after the object, each with its line, column
// and JSON path. The texts are pieces of body.
func jsonObject(body []byte, what string) (map[string]jsonscan.Raw, error) {
	var s jsonscan.Scanner
	s.Reset(body, 1, what)
	at := s.At()
	k, err := s.Kind()
	switch {
	case err != nil:
		return nil, scanError(err)
	case k == jsonscan.End:
		return nil, &core.Error{Kind: core.Invalid, Line: 1, Column: 1, Msg: "the " + what + " is empty; send a JSON object"}
	case k != jsonscan.Object:
		line, col := s.Where(at)
		return nil, &core.Error{Kind: core.Invalid, Line: line, Column: col, Msg: "the " + what + " must be a JSON object, not " + k.String()}
	}
	obj := map[string]jsonscan.Raw{}
	return obj, wholeObject(&s, func(key []byte) error {
		raw, err := s.Value()
		obj[string(key)] = raw
		return err
	})
}

// wholeObject reads the object at the scanner's cursor, calling field for
// each member, and checks that nothing follows it; an error is the API's
// (scanError).
func wholeObject(s *jsonscan.Scanner, field func(key []byte) error) error {
	err := s.Object(field)
	if err == nil {
		err = s.End()
	}
	return scanError(err)
}

// scanError is the scanner's error as the API's: invalid, at its line and
// column, the message naming the JSON path; a repeated member is the
// problem's field.
func scanError(err error) error {
	e, ok := err.(*jsonscan.Error)
	if !ok {
		return err
	}
	ce := &core.Error{Kind: core.Invalid, Line: e.Line, Column: e.Column, Msg: e.PathMsg()}
	if e.Repeated != "" {
		ce.Msg, ce.Field = e.Msg, e.Repeated // the field names the path
		if e.Path != "" {
			ce.Field = e.Path + "." + e.Repeated
		}
	}
	return ce
}
