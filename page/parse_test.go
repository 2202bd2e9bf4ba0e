package page

import (
	"errors"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/param"
)

// Single values never speak of columns at their field: the whole field is
// the value.
func TestSingleValuesHaveNoColumn(t *testing.T) {
	for _, c := range []struct {
		field, in string
		parse     func(field, s string) error
	}{
		{"target", "9x", read(param.Fraction)},
		{"target", "0x1p-4", read(param.Fraction)},
		{"cost", "8 s", read(param.Seconds)},
		{"cap", "3.5", read(param.Integer)},
		{"cap", "99999999999999999999", read(param.Integer)},
	} {
		err := c.parse(c.field, c.in)
		var e *core.Error
		if !errors.As(err, &e) {
			t.Errorf("%s=%q: %v, want a *core.Error", c.field, c.in, err)
			continue
		}
		if e.Column != 0 || strings.Contains(errText(err), "column") || strings.Count(errText(err), c.field+":") > 0 {
			t.Errorf("%s=%q: %q (column %d)", c.field, c.in, errText(err), e.Column)
		}
	}
}

// read reads a field of kind k, as the forms read their fields.
func read(k param.Kind) func(field, s string) error {
	return func(field, s string) error {
		_, _, err := param.Field{Key: field, Kind: k}.Read(s)
		return err
	}
}
