package jsonscan

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Decode reads b, one JSON text, into the value v points to, with the
// Scanner's grammar and these rules, the same for every input that maps
// JSON onto Go values (share links, stored claims, API bodies):
//
//   - A struct's members are its fields by their json tag (or their name
//     when untagged; "-" is none), matched exactly, not in another case.
//     A key the struct has no field for is an error at the key ("unknown
//     field"), as is a key given twice. The fields of an untagged embedded
//     struct count as the outer struct's, the shallower field winning,
//     as with encoding/json.
//   - null as a member's value (of a struct or a map) leaves the value as
//     encoding/json would: a pointer, a slice or a map nil, anything else
//     zero. null elsewhere (the whole text, an element of an array) is an
//     error where the value is: an array holds values.
//   - A Go int gets a whole number written without a fraction or an
//     exponent that fits its size; a float64 (or float32) any number its
//     size holds; a string a string; a bool true or false; a slice an
//     array ([] makes it empty, not nil); a map with string keys an object.
//     Raw takes a value's text whole (null as "null").
//   - Other Go types (uint, interfaces, Go arrays) take no value: decoding
//     into one is an error. Methods such as UnmarshalJSON are not called.
//
// Whatever Decode accepts, encoding/json (with unknown fields disallowed)
// decodes to the same value. what names the text in messages ("the share
// ends where ..."); every error is an *Error with line, column and path.
func Decode(b []byte, what string, v any) error {
	var s Scanner
	s.Reset(b, 1, what)
	if err := s.Decode(v); err != nil {
		return err
	}
	return s.End()
}

// Decode reads the value at the cursor into the value v points to, by the
// rules of the function Decode.
func (s *Scanner) Decode(v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return s.errHere("a JSON value is decoded through a pointer, not into %T", v)
	}
	return s.decode(rv.Elem(), false)
}

// Raw is the text of one JSON value, as it is written: a reader that hands
// a piece of its input to another parser takes it whole (Decode).
type Raw []byte

var rawType = reflect.TypeFor[Raw]()

// decode reads the value at the cursor into v; member says that v is a
// member's value, where null is allowed.
func (s *Scanner) decode(v reflect.Value, member bool) error {
	t := v.Type()
	if t == rawType {
		raw, err := s.Value()
		v.SetBytes(append([]byte(nil), raw...))
		return err
	}
	if member && s.Null() {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			v.SetZero()
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return s.decode(v.Elem(), false)
	case reflect.Struct:
		fields := fieldsOf(t)
		return s.Object(func(key []byte) error {
			index, ok := fields[string(key)]
			if !ok {
				return s.KeyErrorf("unknown field %q", key)
			}
			return s.decode(fieldAt(v, index), true)
		})
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			break
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		return s.Object(func(key []byte) error {
			elem := reflect.New(t.Elem()).Elem()
			err := s.decode(elem, true)
			v.SetMapIndex(reflect.ValueOf(string(key)).Convert(t.Key()), elem)
			return err
		})
	case reflect.Slice:
		if k, err := s.Kind(); err != nil || k != Array {
			if err == nil {
				err = s.Errorf(s.At(), "want an array, got %s", k)
			}
			return err
		}
		v.Set(reflect.MakeSlice(t, 0, 0))
		return s.Array(func(i int) error {
			v.Grow(1)
			v.SetLen(i + 1)
			return s.decode(v.Index(i), false)
		})
	case reflect.String:
		text, err := s.Text()
		v.SetString(text)
		return err
	case reflect.Bool:
		at := s.At()
		switch k, err := s.Kind(); {
		case err != nil:
			return err
		case k == True || k == False:
			v.SetBool(k == True)
			return s.literal(kindNames[k])
		}
		return s.Errorf(at, "want true or false, got %s", s.describeValue())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		at := s.At()
		n, err := s.Int()
		if err == nil && v.OverflowInt(n) {
			return s.Errorf(at, "%d does not fit in %d bits", n, t.Bits())
		}
		v.SetInt(n)
		return err
	case reflect.Float32, reflect.Float64:
		at := s.At()
		num, err := s.Number()
		if err != nil {
			return err
		}
		f, err := strconv.ParseFloat(string(num), t.Bits())
		if err != nil {
			return s.Errorf(at, "%s is too large for a number", num)
		}
		v.SetFloat(f)
		return nil
	}
	return s.errHere("no JSON value goes into a Go %s", t)
}

// fieldAt is v's field at index (fieldsOf), through embedded structs;
// a nil embedded pointer on the way is given a new struct.
func fieldAt(v reflect.Value, index []int) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// fieldCache holds fieldsOf by type.
var fieldCache sync.Map // reflect.Type → map[string][]int

// fieldsOf is the members of a struct type, each name with its field's
// index path, by encoding/json's rules: a json tag's name or the field's,
// the fields of untagged embedded structs promoted, and of two fields with
// one name the shallower, then the tagged one; a name still in doubt is
// no member.
func fieldsOf(t reflect.Type) map[string][]int {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string][]int)
	}
	type cand struct {
		index  []int
		tagged bool
	}
	found := map[string][]cand{}
	var walk func(t reflect.Type, index []int, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, seen map[reflect.Type]bool) {
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			name, _, _ := strings.Cut(tag, ",")
			at := append(index[:len(index):len(index)], i)
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch {
			case tag == "-":
			case f.Anonymous && name == "" && ft.Kind() == reflect.Struct &&
				(f.IsExported() || f.Type.Kind() != reflect.Pointer):
				if !seen[ft] {
					walk(ft, at, seen)
				}
			case f.IsExported():
				if name == "" {
					name = f.Name
				}
				found[name] = append(found[name], cand{at, tag != ""})
			}
		}
		delete(seen, t)
	}
	walk(t, nil, map[reflect.Type]bool{})
	m := map[string][]int{}
	for name, cs := range found {
		var best []cand
		for _, c := range cs {
			switch {
			case len(best) == 0 || len(c.index) < len(best[0].index):
				best = []cand{c}
			case len(c.index) == len(best[0].index):
				best = append(best, c)
			}
		}
		var tagged []cand
		for _, c := range best {
			if c.tagged {
				tagged = append(tagged, c)
			}
		}
		switch {
		case len(best) == 1:
			m[name] = best[0].index
		case len(tagged) == 1:
			m[name] = tagged[0].index
		}
	}
	fieldCache.Store(t, m)
	return m
}
