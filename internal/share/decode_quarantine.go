package share

import (
	"errors"
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/core/quarantine"
)

// farFuture is the date a registry from a link is first read against: the
// check itself then holds its dates to the view's date.
const farFuture = "9999-12-31"

// maxShareTrials bounds a test's trials in a share's reports, so that no
// sum of them overflows.
const maxShareTrials = 1 << 53

// DecodeQuarantine reverses EncodeQuarantine.
func DecodeQuarantine(text string) (*QuarantineState, error) {
	raw, err := Unpack(text)
	if err != nil {
		return nil, err
	}
	return ParseQuarantineJSON(raw)
}

// ParseQuarantineJSON reads the uncompressed JSON of a QuarantineState
// with the rules of the other links (ReadAAJSON: exact keys, none twice,
// valid UTF-8, no NaN, nothing after the value, errors with line, column
// and JSON path). It reads the registry as strictly as the CLI reads the
// file (quarantine.Parse), and refuses an unknown field, another version,
// and counts no report could give. The check's settings are checked by
// the check itself.
func ParseQuarantineJSON(raw []byte) (*QuarantineState, error) {
	s, reg, err := readQuarantineJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("share data: %w", err)
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("share data: unknown version %d", s.Version)
	}
	if len(reg) == 0 || string(reg) == "null" {
		return nil, errors.New("share data: no registry")
	}
	if s.Registry, err = quarantine.Parse(reg, farFuture); err != nil {
		return nil, fmt.Errorf("share data: the registry: %w", err)
	}
	if r := s.Reports; r != nil {
		if r.Runs < 0 {
			return nil, fmt.Errorf("share data: %d runs", r.Runs)
		}
		for id, runs := range r.Tests {
			var sum int64
			for _, c := range runs {
				if c.Trials < 0 || c.Passed < 0 || c.Passed > c.Trials || c.Trials > maxShareTrials-sum {
					return nil, fmt.Errorf("share data: test %q: passed %d of %d", id, c.Passed, c.Trials)
				}
				sum += c.Trials
			}
		}
		if r.Tests == nil {
			r.Tests = map[string][]core.Count{}
		}
		if r.Warnings == nil {
			r.Warnings = []string{}
		}
	}
	return &s, nil
}

// readQuarantineJSON reads the state's fields, the registry as its JSON
// text for quarantine.Parse.
func readQuarantineJSON(raw []byte) (QuarantineState, []byte, error) {
	var doc struct {
		QuarantineState
		Registry jsonscan.Raw `json:"registry"` // in the place of the state's
	}
	err := readState(raw, &doc)
	return doc.QuarantineState, doc.Registry, err
}
