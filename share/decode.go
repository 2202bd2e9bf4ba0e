package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/jsonscan"
)

// ReadAAJSON reads the JSON of an AAState without reflection: the page
// opens an A/A link before its first figure, and encoding/json's decoder is
// a large piece of wasm that V8 would compile (and, for a few hundred
// tallies, optimize) first.
//
// It reads with the core's strict scanner (core/jsonscan): what it accepts,
// encoding/json would decode into AAShare with unknown fields disallowed,
// and it is stricter in four ways: keys must match exactly (not
// case-insensitively), a key may not repeat, strings must be valid UTF-8
// without lone surrogates, and nothing but white space may follow the
// value. Whatever it accepts, encoding/json decodes to the same share
// (FuzzShareJSON checks this). Its errors give the line, the column and
// the JSON path.
func ReadAAJSON(raw []byte) (AAState, error) {
	d := newShareDecoder(raw)
	var s AAState
	err := d.document(func(key []byte) error {
		switch string(key) {
		case "v":
			n, err := d.int()
			s.Version = int(n)
			return err
		case "baseline":
			return d.side(&s.Baseline)
		case "candidate":
			return d.side(&s.Candidate)
		case "options":
			m, err := d.strMap()
			s.Options = m
			return err
		}
		return d.unknown(key)
	})
	return s, err
}

// shareDecoder reads a share's JSON with the strict scanner.
type shareDecoder struct{ jsonscan.Scanner }

func newShareDecoder(raw []byte) *shareDecoder {
	d := &shareDecoder{}
	d.Reset(raw, 1, "share")
	return d
}

// document reads a whole share: one object, then nothing but white space.
func (d *shareDecoder) document(field func(key []byte) error) error {
	if err := d.Object(field); err != nil {
		return err
	}
	return d.End()
}

// unknown is the error of a key the share has no field for.
func (d *shareDecoder) unknown(key []byte) error {
	return d.KeyErrorf("unknown field %q", key)
}

// int reads a whole number that fits int64, or null (as 0, which is what
// encoding/json leaves in a field it is told null).
func (d *shareDecoder) int() (int64, error) {
	if d.Null() {
		return 0, nil
	}
	return d.Int()
}

// str reads a string, or null (as "").
func (d *shareDecoder) str() (string, error) {
	if d.Null() {
		return "", nil
	}
	return d.Text()
}

// side reads an AASide into *p, or null (which leaves *p nil).
func (d *shareDecoder) side(p **aa.Side) error {
	if d.Null() {
		*p = nil
		return nil
	}
	s := &aa.Side{}
	*p = s
	return d.Object(func(key []byte) error {
		var err error
		switch string(key) {
		case "scenarios":
			s.Scenarios, err = d.tallies()
		case "runs":
			s.Runs, err = d.tallies()
		case "rows":
			s.Rows, err = d.int()
		case "duplicates":
			s.Duplicates, err = d.int()
		default:
			err = d.unknown(key)
		}
		return err
	})
}

// tallies reads [{"id": …, "passed": …, "total": …}, …] or null.
func (d *shareDecoder) tallies() ([]aa.Tally, error) {
	return sliceOf(d, func(t *aa.Tally) error {
		return d.Object(func(key []byte) error {
			var err error
			switch string(key) {
			case "id":
				t.ID, err = d.str()
			case "passed":
				t.Passed, err = d.int()
			case "total":
				t.Total, err = d.int()
			default:
				err = d.unknown(key)
			}
			return err
		})
	})
}

// sliceOf reads [item, item, ...] into a slice, or null (nil), each element
// with item; on an error the slice is nil.
func sliceOf[T any](d *shareDecoder, item func(*T) error) ([]T, error) {
	var out []T
	err := d.array(func(null bool) {
		if !null {
			out = []T{}
		}
	}, func() error {
		var v T
		err := item(&v)
		out = append(out, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// array reads [item, item, ...] or null: start is told which it found
// (as encoding/json, null leaves a slice nil and [] makes it empty), then
// item is called with the cursor before each element.
func (d *shareDecoder) array(start func(null bool), item func() error) error {
	if d.Null() {
		start(true)
		return nil
	}
	if k, err := d.Kind(); err != nil || k != jsonscan.Array {
		if err == nil {
			err = d.Errorf(d.At(), "want an array, got %s", k)
		}
		return err
	}
	start(false)
	return d.Array(func(int) error { return item() })
}

// MaxJSON caps the decompressed size of a shared state, so a hostile
// link cannot make a reader inflate gigabytes.
const MaxJSON = 64 << 20

// DecodeAA reverses EncodeAA. It checks what a page needs to
// trust the numbers: a known version, a baseline, and tallies whose passes
// lie in [0, total].
func DecodeAA(text string) (AAState, error) {
	raw, err := Unpack(text)
	if err != nil {
		return AAState{}, err
	}
	return ParseAAJSON(raw)
}

// Unpack reverses Pack, up to MaxJSON bytes of JSON.
func Unpack(text string) ([]byte, error) {
	z, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		at := ""
		if c, ok := err.(base64.CorruptInputError); ok {
			at = fmt.Sprintf(" (character %d)", int64(c)+1)
		}
		return nil, fmt.Errorf("share link: its data holds a character no link writes%s; was it changed when copied?", at)
	}
	r := io.LimitReader(flate.NewReader(bytes.NewReader(z)), MaxJSON+1)
	raw, err := io.ReadAll(r)
	if err != nil {
		// flate's own words ("corrupt input before offset 5") say
		// nothing to a reader.
		return nil, errors.New("share link: its data is damaged, cut short or changed when copied")
	}
	if len(raw) > MaxJSON {
		return nil, errors.New("share link: data larger than 64 MiB")
	}
	return raw, nil
}

// ParseAAJSON reads the uncompressed JSON form of a share (the file the
// page offers when a link would be too long).
func ParseAAJSON(raw []byte) (AAState, error) {
	s, err := ReadAAJSON(raw)
	if err != nil {
		return s, fmt.Errorf("share data: %w", err)
	}
	if _, err := s.Input(); err != nil {
		return s, err
	}
	if s.Baseline == nil {
		return s, errors.New("share data: no baseline")
	}
	for _, side := range []struct {
		name string
		s    *aa.Side
	}{{"baseline", s.Baseline}, {"candidate", s.Candidate}} {
		if side.s == nil {
			continue
		}
		if err := checkSide(side.s); err != nil {
			return s, fmt.Errorf("share data: %s: %w", side.name, err)
		}
	}
	return s, nil
}

func checkSide(s *aa.Side) error {
	if s.Rows < 0 || s.Duplicates < 0 {
		return errors.New("negative row count")
	}
	for _, group := range [][]aa.Tally{s.Scenarios, s.Runs} {
		for _, t := range group {
			if t.Total < 0 || t.Passed < 0 || t.Passed > t.Total {
				return fmt.Errorf("tally %q: passed %d of %d", t.ID, t.Passed, t.Total)
			}
		}
	}
	return nil
}
