package report

import (
	"slices"
	"strconv"
	"strings"
)

func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// firstLine is the first non-blank line of s, clipped to 120 bytes.
func firstLine(s string) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return clipText(line, 120)
		}
	}
	return ""
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(parts []string, sep string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

// compact reads any value and returns it as compact JSON text (strings
// re-quoted), at most maxJSONString bytes: a promptfoo test's vars, as its
// name.
func (j *jsonReader) compact() (string, error) {
	var b strings.Builder
	var value func() error
	value = func() error {
		if b.Len() > maxJSONString {
			return j.errf("a value longer than %d bytes", maxJSONString)
		}
		k, err := j.kind()
		if err != nil {
			return err
		}
		switch k {
		case "object":
			b.WriteByte('{')
			n := 0
			err = j.object(func(key string) error {
				if n > 0 {
					b.WriteByte(',')
				}
				n++
				b.WriteString(strconv.Quote(key))
				b.WriteByte(':')
				return value()
			})
			b.WriteByte('}')
			return err
		case "array":
			b.WriteByte('[')
			err = j.array(func(i int) error {
				if i > 0 {
					b.WriteByte(',')
				}
				return value()
			})
			b.WriteByte(']')
			return err
		}
		v, err := j.scalar("a value")
		if err != nil {
			return err
		}
		switch v.kind {
		case "string":
			b.WriteString(strconv.Quote(v.s))
		case "number":
			b.WriteString(strconv.FormatFloat(v.n, 'g', -1, 64))
		default:
			b.WriteString(v.kind)
		}
		return nil
	}
	err := value()
	return b.String(), err
}

// jsonField is a member of an object that texts and members read: its
// key, where its value goes (a *string for a string, null giving "", or an
// *int64 for a whole number), and what it is, as a refusal says.
type jsonField struct {
	key  string
	dst  any
	want string
}

// read reads the field's value into its place.
func (f jsonField) read(j *jsonReader) (err error) {
	switch dst := f.dst.(type) {
	case *string:
		*dst, err = j.text(f.want)
	case *int64:
		*dst, err = j.integer(f.want)
	default:
		panic("report: a jsonField's dst must be a *string or an *int64")
	}
	return err
}

// test reads a test's object for its name and its status, the strings of
// the members name.key and status.key (the others passed over). A test
// without a name is an error at the object's start, which calls the test
// what ("a test").
func (j *jsonReader) test(what string, name, status jsonField) (string, string, error) {
	line, col := j.at()
	var n, s string
	name.dst, status.dst = &n, &s
	if err := j.texts(name, status); err != nil {
		return "", "", err
	}
	if n == "" {
		return "", "", j.errAt(line, col, "%s without a %s", what, name.key)
	}
	return n, s, nil
}

// texts reads an object whose members of interest are the ones fields
// name, passing over the others.
func (j *jsonReader) texts(fields ...jsonField) error {
	return j.members(nil, fields...)
}

// arrayAt is a members function for an object with one array of interest:
// the member named one of keys is read with each, element by element; the
// others are passed over.
func (j *jsonReader) arrayAt(each func(int) error, keys ...string) func(key string) error {
	return func(key string) error {
		if !slices.Contains(keys, key) {
			return j.skip()
		}
		return j.array(each)
	}
}

// members reads an object: the members fields name into their places, any
// other member with other (nil: every other member is passed over; other
// passes over those it does not want with j.skip).
func (j *jsonReader) members(other func(key string) error, fields ...jsonField) error {
	return j.object(func(key string) error {
		for _, f := range fields {
			if f.key == key {
				return f.read(j)
			}
		}
		if other == nil {
			return j.skip()
		}
		return other(key)
	})
}

// textInto reads a string into dst; want says what it is, as a refusal
// says.
func (j *jsonReader) textInto(dst *string, want string) (err error) {
	*dst, err = j.text(want)
	return err
}

// member reads the value at path, a member of an object that is a member
// of an object and so on (one key, one level), with f, passing over every
// other member on the way.
func (j *jsonReader) member(f func() error, path ...string) error {
	if len(path) == 0 {
		return f()
	}
	return j.object(func(key string) error {
		if key != path[0] {
			return j.skip()
		}
		return j.member(f, path[1:]...)
	})
}
