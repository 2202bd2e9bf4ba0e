package share

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/flakegate/flakegate/core"
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
func readQuarantineJSON(raw []byte) (s QuarantineState, reg []byte, err error) {
	d := newShareDecoder(raw)
	err = d.members(map[string]func() error{
		"v": func() error { return d.intTo(&s.Version) },
		"registry": func() error {
			v, err := d.Value()
			reg = append([]byte(nil), v...)
			return err
		},
		"reports": func() error {
			if d.Null() {
				return nil
			}
			s.Reports = &quarantine.Reports{}
			return d.reports(s.Reports)
		},
		"renames":    func() (err error) { s.Renames, err = d.strMap(); return err },
		"comparable": func() (err error) { s.Comparable, err = d.float(); return err },
		"target":     func() (err error) { s.Target, err = d.float(); return err },
		"cap":        func() (err error) { s.Cap, err = d.int(); return err },
	})
	if err == nil {
		err = d.End()
	}
	return s, reg, err
}

// members reads an object whose members each have their reader in read;
// any other key is unknown.
func (d *shareDecoder) members(read map[string]func() error) error {
	return d.Object(func(key []byte) error {
		if f, ok := read[string(key)]; ok {
			return f()
		}
		return d.unknown(key)
	})
}

// intTo reads a whole number, or null (0), into an int.
func (d *shareDecoder) intTo(p *int) error {
	n, err := d.int()
	*p = int(n)
	return err
}

// reports reads a quarantine.Reports object.
func (d *shareDecoder) reports(r *quarantine.Reports) error {
	return d.members(map[string]func() error{
		"runs":     func() error { return d.intTo(&r.Runs) },
		"tests":    func() (err error) { r.Tests, err = d.testCounts(); return err },
		"ids":      func() (err error) { r.IDs, err = d.strs(); return err },
		"warnings": func() (err error) { r.Warnings, err = d.strs(); return err },
	})
}

// testCounts reads an object of each test's counts, or null (nil).
func (d *shareDecoder) testCounts() (map[string][]core.Count, error) {
	if d.Null() {
		return nil, nil
	}
	tests := map[string][]core.Count{}
	err := d.Object(func(id []byte) error {
		counts, err := sliceOf(d, d.count)
		tests[string(id)] = counts
		return err
	})
	return tests, err
}

// strMap reads an object of strings, or null (nil).
func (d *shareDecoder) strMap() (map[string]string, error) {
	if d.Null() {
		return nil, nil
	}
	m := map[string]string{}
	err := d.Object(func(key []byte) error {
		v, err := d.str()
		m[string(key)] = v
		return err
	})
	return m, err
}

// float reads a number that a float64 holds, or null (as 0).
func (d *shareDecoder) float() (float64, error) {
	if d.Null() {
		return 0, nil
	}
	at := d.At()
	num, err := d.Number()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		return 0, d.Errorf(at, "%s is too large for a number", num)
	}
	return v, nil
}
