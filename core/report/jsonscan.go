package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/jsonscan"
)

// jsonReader is how the JSON report readers walk a document: the core's
// one JSON grammar (core/jsonscan), streamed from the file so that a reader
// keeps only the fields it needs and memory does not grow with the file,
// with the readers' own conveniences on top: keys as strings, values of
// the kind a field wants ("want the test's title, got 3"), errors as
// *core.Error with the line, column and path from the document's root
// ("suites[2].specs[0].tests[1].status"). A string or number the reader
// keeps is at most maxJSONString bytes; a string it skips may be longer.
type jsonReader struct {
	s    jsonscan.Scanner
	what string // the document, for errors: "Playwright JSON report"
}

const maxJSONString = 1 << 20

// newJSONReader streams the document r gives; what names it in errors:
// "Playwright JSON report".
func newJSONReader(r io.Reader, what string) *jsonReader {
	j := &jsonReader{what: what}
	j.s.ResetReader(r, maxJSONString, what)
	return j
}

// newJSONLine reads one line of a file held in memory, line n of it.
func newJSONLine(line []byte, n int, what string) *jsonReader {
	j := &jsonReader{what: what}
	j.s.Reset(line, n, what)
	return j
}

// python lets the reader take NaN, Infinity and -Infinity as numbers
// (jsonscan's AllowNonFinite), for the eval logs Python harnesses write
// with json.dumps; it returns j. scalar reads them as NaN and ±Inf, which
// the readers count as missing scores (nonFinite).
func (j *jsonReader) python() *jsonReader {
	j.s.AllowNonFinite()
	return j
}

// errAt is an Invalid error at line:col, naming the path of the value
// being read.
func (j *jsonReader) errAt(line, col int, format string, args ...any) *core.Error {
	msg := fmt.Sprintf(format, args...)
	if p := j.s.Path(); p != "" {
		msg = p + ": " + msg
	}
	return core.PosErrorf(core.Invalid, line, col, "%s", msg)
}

func (j *jsonReader) errf(format string, args ...any) *core.Error {
	line, col := j.at()
	return j.errAt(line, col, format, args...)
}

// at skips white space and returns the position of the next value.
func (j *jsonReader) at() (line, col int) {
	return j.s.Where(j.s.At())
}

// kind names the JSON type of the next value: "object", "array",
// "string", "number", "true", "false", "null" ("" at the end).
func (j *jsonReader) kind() (string, error) {
	k, err := j.s.Kind()
	if err != nil {
		return "", jsonErr(err)
	}
	return kindWords[k], nil
}

var kindWords = [...]string{
	jsonscan.End: "", jsonscan.Object: "object", jsonscan.Array: "array", jsonscan.String: "string",
	jsonscan.Number: "number", jsonscan.True: "true", jsonscan.False: "false", jsonscan.Null: "null",
}

// object reads an object, calling field for each key with the reader on
// its value; field must consume the value (skip does). A key given twice is
// an error.
func (j *jsonReader) object(field func(key string) error) error {
	return jsonErr(j.s.Object(func(key []byte) error { return field(string(key)) }))
}

// array reads an array, calling elem for each element with its index.
func (j *jsonReader) array(elem func(i int) error) error {
	return jsonErr(j.s.Array(elem))
}

// jsonScalar is a value read by scalar: its kind and, by kind, its text,
// number or truth.
type jsonScalar struct {
	kind string // "string", "number", "true", "false", "null"
	s    string
	n    float64
}

// scalar reads a string, number, boolean or null; an object or array is
// an error naming want.
func (j *jsonReader) scalar(want string) (jsonScalar, error) {
	at := j.s.At()
	k, err := j.kind()
	if err != nil {
		return jsonScalar{}, err
	}
	v := jsonScalar{kind: k}
	switch k {
	case "string":
		v.s, err = j.s.Text()
	case "number":
		var num []byte
		if num, err = j.s.Number(); err == nil {
			// RFC 8259's grammar: only a range error is left, ±Inf.
			v.n, _ = strconv.ParseFloat(string(num), 64)
		}
	case "true", "false", "null":
		err = j.s.Skip()
	case "":
		return v, j.errf("malformed JSON: the %s ends where %s should be (is it cut short?)", j.what, want)
	default:
		line, col := j.s.Where(at)
		return v, j.errAt(line, col, "want %s, got an %s", want, k)
	}
	return v, jsonErr(err)
}

// text reads a string (a null is ""); any other kind is an error.
func (j *jsonReader) text(want string) (string, error) {
	at := j.s.At() // its line and column are worked out only for an error
	v, err := j.scalar(want)
	if err != nil {
		return "", err
	}
	switch v.kind {
	case "string":
		return v.s, nil
	case "null":
		return "", nil
	}
	line, col := j.s.Where(at) // a string let go of keeps its place (Scanner.Where)
	return "", j.errAt(line, col, "want %s, got %s", want, v.describe())
}

// integer reads a whole number (a null is 0).
func (j *jsonReader) integer(want string) (int64, error) {
	at := j.s.At() // its line and column are worked out only for an error
	v, err := j.scalar(want)
	if err != nil {
		return 0, err
	}
	switch {
	case v.kind == "null":
		return 0, nil
	case v.kind == "number" && v.n == math.Trunc(v.n) && math.Abs(v.n) < 1<<53:
		return int64(v.n), nil
	}
	line, col := j.s.Where(at)
	return 0, j.errAt(line, col, "want %s, got %s", want, v.describe())
}

func (v jsonScalar) describe() string {
	switch v.kind {
	case "string":
		return strconv.Quote(clipText(v.s, 40))
	case "number":
		return strconv.FormatFloat(v.n, 'g', -1, 64)
	}
	return v.kind
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// skip reads past one value of any kind.
func (j *jsonReader) skip() error { return jsonErr(j.s.Skip()) }

// end checks that nothing but white space follows the document.
func (j *jsonReader) end() error { return jsonErr(j.s.End()) }
