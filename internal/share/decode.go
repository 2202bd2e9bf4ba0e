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

// ReadAAJSON reads the JSON of an AAState by the rules of every link
// (jsonscan.Decode): keys match exactly (not case-insensitively), none
// twice, no unknown field, strings valid UTF-8 without lone surrogates,
// no NaN, nothing but white space after the value, no null inside an
// array. Whatever it accepts, encoding/json decodes to the same share
// (FuzzShareJSON checks this). Its errors give the line, the column and
// the JSON path. It uses no encoding/json: the page opens an A/A link
// before its first figure, and encoding/json's decoder is a large piece of
// wasm that V8 would compile first.
func ReadAAJSON(raw []byte) (AAState, error) {
	var s AAState
	err := readState(raw, &s)
	return s, err
}

// readState reads a link's JSON state into v (jsonscan.Decode).
func readState(raw []byte, v any) error {
	return jsonscan.Decode(raw, "share", v)
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
