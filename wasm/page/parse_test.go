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
		kind      param.Kind // as the forms read the field
	}{
		{"target", "9x", param.Fraction},
		{"target", "0x1p-4", param.Fraction},
		{"cost", "8 s", param.Seconds},
		{"cap", "3.5", param.Integer},
		{"cap", "99999999999999999999", param.Integer},
	} {
		_, _, err := param.Field{Key: c.field, Kind: c.kind}.Read(c.in)
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

func FuzzFormParsers(f *testing.F) {
	for _, s := range []string{"0.95", "95%", "", " 1e-3 ", "x", "-0", "1/120", "NaN", "Inf", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		st := newFormState(budgetFields)
		st["target"], st["cost"], st["cap"] = s, s, s
		res, err := budgetFrom(st)
		if (res == nil) == (err == nil) {
			t.Fatalf("result %v with error %v", res, err)
		}
		// Every fault names its field, once.
		seen := map[string]bool{}
		for _, e := range errorList(err) {
			f := errField(e)
			if f == "" || seen[f] {
				t.Fatalf("error names no field or a field twice: %v", err)
			}
			seen[f] = true
		}
		if _, err := BudgetInputFrom(st); err != nil && errField(err) == "" {
			t.Fatalf("parse error without a field: %v", err)
		}
	})
}
