package share

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// DecodeLedger reverses EncodeLedger and refuses a summary no
// ledger could give (ledger.Summary.Check).
func DecodeLedger(text string) (*ledger.Summary, error) {
	raw, err := Unpack(text)
	if err != nil {
		return nil, err
	}
	s, err := ReadLedgerJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("share data: %w", err)
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("share data: unknown version %d", s.Version)
	}
	if err := s.Ledger.Check(); err != nil {
		return nil, fmt.Errorf("share data: %w", err)
	}
	return &s.Ledger, nil
}

// ReadLedgerJSON reads a LedgerState's JSON with the same rules as
// ReadAAJSON (exact keys, none twice, valid UTF-8, nothing after the
// value, no null inside an array); whatever it accepts, encoding/json
// decodes to the same share (FuzzLedgerShareJSON).
func ReadLedgerJSON(raw []byte) (LedgerState, error) {
	d := newShareDecoder(raw)
	var s LedgerState
	err := d.document(func(key []byte) error {
		switch string(key) {
		case "v":
			n, err := d.int()
			s.Version = int(n)
			return err
		case "ledger":
			return d.ledgerSummary(&s.Ledger)
		}
		return d.unknown(key)
	})
	return s, err
}

func (d *shareDecoder) ledgerSummary(s *ledger.Summary) error {
	if d.Null() {
		return nil
	}
	return d.Object(func(key []byte) error {
		var err error
		switch string(key) {
		case "runs":
			if d.Null() {
				return nil
			}
			err = d.Object(func(key []byte) error {
				n, err := d.int()
				switch string(key) {
				case "baseline":
					s.Runs.Baseline = int(n)
				case "patched":
					s.Runs.Patched = int(n)
				default:
					err = d.unknown(key)
				}
				return err
			})
		case "tests":
			err = d.array(func(null bool) {
				if null {
					s.Tests = nil
				} else if s.Tests == nil {
					s.Tests = []ledger.TestCounts{}
				}
			}, func() error {
				var t ledger.TestCounts
				if err := d.ledgerTest(&t); err != nil {
					return err
				}
				s.Tests = append(s.Tests, t)
				return nil
			})
		case "skipped_calls":
			s.SkippedCalls, err = d.int()
		case "other_arms":
			s.OtherArms, err = d.strs()
		case "notes":
			s.Notes, err = d.strs()
		default:
			err = d.unknown(key)
		}
		return err
	})
}

func (d *shareDecoder) ledgerTest(t *ledger.TestCounts) error {
	return d.Object(func(key []byte) error {
		switch string(key) {
		case "nodeid":
			var err error
			t.NodeID, err = d.Text()
			return err
		case "baseline":
			return d.count(&t.Baseline)
		case "patched":
			return d.count(&t.Patched)
		case "sides":
			if d.Null() {
				return nil
			}
			return d.Object(func(key []byte) error {
				switch string(key) {
				case "baseline":
					return d.sideFailures(&t.Sides.Baseline)
				case "patched":
					return d.sideFailures(&t.Sides.Patched)
				}
				return d.unknown(key)
			})
		}
		return d.unknown(key)
	})
}

func (d *shareDecoder) count(c *core.Count) error {
	return d.ints([]string{"passed", "trials"}, &c.Passed, &c.Trials)
}

func (d *shareDecoder) sideFailures(f *ledger.SideFailures) error {
	return d.ints([]string{"setup", "teardown", "errors"}, &f.Setup, &f.Teardown, &f.Errors)
}

// ints reads an object of whole numbers, or null: each key one of names,
// its number into the pointer at the same place in dst.
func (d *shareDecoder) ints(names []string, dst ...*int64) error {
	if d.Null() {
		return nil
	}
	return d.Object(func(key []byte) error {
		for i, name := range names {
			if string(key) == name {
				n, err := d.int()
				*dst[i] = n
				return err
			}
		}
		return d.unknown(key)
	})
}

// strs reads an array of strings, or null (nil).
func (d *shareDecoder) strs() ([]string, error) {
	return sliceOf(d, func(s *string) (err error) {
		*s, err = d.Text()
		return err
	})
}
