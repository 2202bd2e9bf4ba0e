// Package jsonref is the tests' independent reading of JSON: encoding/json
// with unknown fields refused, the reference the strict readers on
// core/jsonscan are held to (whatever they accept, encoding/json reads as
// the same value). It is imported by tests only; it imports nothing of
// ours.
package jsonref

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// Decode reads raw into a T with encoding/json, unknown fields refused.
func Decode[T any](raw []byte) (T, error) {
	var v T
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	err := d.Decode(&v)
	return v, err
}

// Diff reads raw with read and with Decode: read's value and error, and
// how the two differ ("" when they do not): a value Decode reads
// otherwise, or refuses.
func Diff[T any](read func([]byte) (T, error), raw []byte) (got T, diff string, err error) {
	if got, err = read(raw); err != nil {
		return got, "", err
	}
	want, stdErr := Decode[T](raw)
	switch {
	case stdErr != nil:
		diff = fmt.Sprintf("accepted what encoding/json refuses (%v): %q", stdErr, raw)
	case !reflect.DeepEqual(got, want):
		diff = fmt.Sprintf("read %+v, encoding/json %+v, from %q", got, want, raw)
	}
	return got, diff, nil
}

// Fuzz fuzzes read from seeds: whatever it accepts, Decode reads as the
// same value (Diff), and that value, written by encoding/json, read reads
// back as Decode does (as itself, but where the writing leaves out an
// empty member: an empty map with omitempty reads back nil).
func Fuzz[T any](f *testing.F, read func([]byte) (T, error), seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, diff, err := Diff(read, raw)
		if err != nil {
			return
		}
		if diff != "" {
			t.Fatal(diff)
		}
		again, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		back, diff, err := Diff(read, again)
		if err != nil || diff != "" {
			t.Fatalf("%q written as %s reads back as %+v, %v %s", raw, again, back, err, diff)
		}
	})
}
