package wasm

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/share"
)

// MaxShareFragment is the longest state, in bytes of fragment, that the
// page puts in a link (share.MaxFragment).
const MaxShareFragment = share.MaxFragment

// maxShareJSON caps the decompressed size of a shared state, so a hostile
// link cannot make the page inflate gigabytes.
const maxShareJSON = 64 << 20

// AAShare is the shareable state of an A/A view (share.AAState); the page
// encodes it with package share, as the CLI and the API do, and decodes it
// here.
type AAShare = share.AAState

// EncodeAAShare is share.EncodeAA: the text of an "aa=" fragment value.
func EncodeAAShare(s AAShare) (string, error) { return share.EncodeAA(s) }

// packShare is share.Pack.
func packShare(v any) (string, error) { return share.Pack(v) }

// DecodeAAShare reverses EncodeAAShare. It checks what a page needs to
// trust the numbers: a known version, a baseline, and tallies whose passes
// lie in [0, total].
func DecodeAAShare(text string) (AAShare, error) {
	raw, err := unpackShare(text)
	if err != nil {
		return AAShare{}, err
	}
	return ParseAAShareJSON(raw)
}

// unpackShare reverses packShare, up to maxShareJSON bytes of JSON.
func unpackShare(text string) ([]byte, error) {
	z, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		at := ""
		if c, ok := err.(base64.CorruptInputError); ok {
			at = fmt.Sprintf(" (character %d)", int64(c)+1)
		}
		return nil, fmt.Errorf("share link: its data holds a character no link writes%s; was it changed when copied?", at)
	}
	r := io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxShareJSON+1)
	raw, err := io.ReadAll(r)
	if err != nil {
		// flate's own words ("corrupt input before offset 5") say
		// nothing to a reader.
		return nil, errors.New("share link: its data is damaged, cut short or changed when copied")
	}
	if len(raw) > maxShareJSON {
		return nil, errors.New("share link: data larger than 64 MiB")
	}
	return raw, nil
}

// ParseAAShareJSON reads the uncompressed JSON form of a share (the file the
// page offers when a link would be too long).
func ParseAAShareJSON(raw []byte) (AAShare, error) {
	s, err := decodeShareJSON(raw)
	if err != nil {
		return s, fmt.Errorf("share data: %w", err)
	}
	if s.Version != 1 {
		return s, fmt.Errorf("share data: unknown version %d", s.Version)
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

// ShareJSON is the indented JSON of s, for download.
func ShareJSON(s AAShare) []byte {
	s.Version = 1
	var b bytes.Buffer
	core.WriteJSON(&b, s)
	return b.Bytes()
}
