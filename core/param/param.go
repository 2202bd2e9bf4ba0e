// Package param describes every calculator's inputs once: each input's
// key, kind, default, unit and wording, and the one grammar its text is
// read by, wherever it is typed (a CLI flag, an API query or JSON body, a
// share link, a field of the page).
//
// The grammar, by kind:
//
//	Fraction   a number of the core's grammar (core.ParseFloat), or a
//	           percentage: "0.05" and "5%" (also "5 %") are the same input
//	Fractions  fractions separated by commas, semicolons or white space
//	           ("0.05,0.02", "5% 2%", "0.05; 0.02", one per line); blank
//	           text is the empty list
//	Integer    a whole number in decimal: "3"
//	Integers   whole numbers separated as Fractions are: "1,2,4,8"
//	Bool       true or false
//	Date       a day, YYYY-MM-DD
//	Seconds    seconds as a number ("8", "1.5") or a duration ("8s",
//	           "1m30s", "250ms")
//	Count      two whole numbers, part/whole: "17/20"
//	Enum, Text text as given (the calculator checks an Enum's choices)
//
// Blanks around the text are ignored. Blank text is an absent input when
// the input is optional, and refused ("is required") when it is required
// or has a default. Errors are *core.Error values of Kind Invalid whose
// Field is the input's Key (and Column the fault's 1-based character in
// the text, when it is inside it); a surface names the field in its own
// terms (a flag, a JSON path, a query key, a label), the wording is this
// package's. Whether a value is in range is the calculator's check
// (core/gate...), so that every surface refuses it in the calculator's
// words; a schema checks only what its calculator leaves to the surfaces
// (the A/A options' ranges, the simulation's switch, compare's list size).
//
// Defaults are not written here: a calculator's defaults are the text of
// its core Default input (gate.DefaultBudgetInput...), read when asked, so
// that they are written once.
package param

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// Kind is the type of an input's text.
type Kind int

const (
	Fraction  Kind = iota // a fraction or a percentage: 0.95, 95%
	Fractions             // a list of fractions: 0.05,0.02 or 5% 2%
	Integer               // a whole number: 3
	Seconds               // seconds: 8, 8s, 1m30s
	Count                 // part/whole: 17/20
	Enum                  // one of Choices
	Text                  // free text, such as a date
	Integers              // a list of whole numbers: 1,2,4,8
	Bool                  // true or false
	Date                  // a day: 2026-01-02
)

// Field is one input of a calculator.
type Field struct {
	// Key names the input in links, on the page and in the core's errors;
	// the CLI's flag is Key with '_' written '-' (Flag), the API's
	// parameter is API, or Key when API is "".
	Key  string
	API  string
	Kind Kind
	// Required inputs have no default: the CLI and the API refuse a
	// request without them.
	Required bool
	// Start is the text the page's form starts with when the calculator's
	// default is none (such as the rates a new visitor sees); "" to start
	// from the default.
	Start string
	// Part and Whole name a Count's two numbers ("passed", "trials"),
	// Example is one ("17/20"); Item names one element of a list ("rate").
	Part, Whole, Example, Item string
	Choices                    []string // an Enum's values
	// Joined is the key of a field whose text may follow this one's after
	// '=': the runner's "gotestsum=2" is runner gotestsum, setting 2, as
	// the CLI's -runner is written. Such a field has no flag of its own.
	Joined string
	// Unit is what the number counts, for help and documentation:
	// "fraction", "seconds", "reruns", "trials", "ratio".
	Unit string
	// Doc says what the input is and its range, in a phrase:
	// "detection power wanted, in (0,1)".
	Doc string
}

// Flag is the field's CLI flag name, without its dash.
func (f Field) Flag() string { return strings.ReplaceAll(f.Key, "_", "-") }

// Name is the field's API parameter.
func (f Field) Name() string {
	if f.API != "" {
		return f.API
	}
	return f.Key
}

// Value is one input read: float64 (Fraction, Seconds), []float64
// (Fractions), int64 (Integer), []int64 (Integers), bool (Bool),
// core.Count (Count) or string (Enum, Text, Date).
type Value = any

// Read reads the text of the field by the one grammar. absent is true (and
// the error nil) when the text is blank and the field optional.
func (f Field) Read(text string) (v Value, absent bool, err error) {
	t := strings.TrimSpace(text)
	if t == "" && f.Kind != Fractions && f.Kind != Integers && f.Kind != Text && f.Kind != Enum {
		return nil, true, nil
	}
	switch f.Kind {
	case Fraction:
		v, err = readFraction(f.Key, t)
	case Fractions:
		v, err = readList(f.Key, text, f.Item)
	case Integer:
		v, err = readInteger(f.Key, t)
	case Integers:
		v, err = readIntegers(f.Key, text, f.Item)
	case Bool:
		v, err = readBool(f.Key, t)
	case Date:
		v, err = readDate(f.Key, t)
	case Seconds:
		v, err = readSeconds(f.Key, t)
	case Count:
		v, err = core.ParseCountOf(f.Key, text, f.Part, f.Whole, f.Example)
	default:
		v = t
	}
	if err != nil {
		return nil, false, err
	}
	return v, false, nil
}

// Missing is the refusal of a required input not given, or of blank text
// where the input must have some.
func (f Field) Missing() error {
	msg := "required"
	switch {
	case f.Kind == Count:
		msg += ", as " + f.Part + "/" + f.Whole + " such as " + f.Example
	case f.Example != "":
		msg += ", such as " + f.Example
	}
	return core.FieldErrorf(f.Key, "%s", msg)
}

// Help is the field's help in a sentence for a CLI flag: its Doc and the
// grammar of its text, with the name of its value in backquotes (as
// flag.UnquoteUsage reads it).
func (f Field) Help() string {
	switch f.Kind {
	case Fraction:
		return f.Doc + "; a `fraction` such as 0.95, or a percentage such as 95%"
	case Fractions:
		return f.Doc + "; a `list` of fractions or percentages"
	case Integer:
		return f.Doc + "; a whole `number`"
	case Integers:
		return f.Doc + "; a `list` of whole numbers"
	case Bool:
		return f.Doc
	case Seconds:
		return f.Doc + "; `seconds` such as 8, or a duration such as 8s or 1m30s"
	case Count:
		pw := f.Part + "/" + f.Whole
		if strings.Contains(f.Doc, pw) {
			return strings.Replace(f.Doc, pw, "`"+pw+"`", 1)
		}
		return f.Doc + ", as `" + pw + "`"
	case Enum:
		return f.Doc + ": one of " + strings.Join(f.Choices, ", ")
	}
	if strings.Contains(f.Doc, "YYYY-MM-DD") {
		return strings.Replace(f.Doc, "YYYY-MM-DD", "`YYYY-MM-DD`", 1)
	}
	return f.Doc
}

// readFraction reads one trimmed fraction or percentage.
func readFraction(field, t string) (float64, error) {
	if p, ok := strings.CutSuffix(t, "%"); ok {
		num := strings.TrimSpace(p)
		if r := core.NumberProblem(num, false); r != "" {
			return 0, core.FieldErrorf(field, "%s is not a percentage: %s", core.Quote(t), r)
		}
		v, err := core.ParseFloat(percentToFraction(num))
		if err != nil {
			return 0, core.FieldErrorf(field, "%s is out of the range of a number", core.Quote(t))
		}
		return v, nil
	}
	return readNumber(field, t, "a number")
}

// readNumber reads one trimmed number; what names it in the refusal ("a
// number", "a number of seconds").
func readNumber(field, t, what string) (float64, error) {
	v, err := core.ParseFloat(t)
	if err == nil {
		return v, nil
	}
	if r := core.NumberProblem(t, false); r != "" {
		return 0, core.FieldErrorf(field, "%s is not %s: %s", core.Quote(t), what, r)
	}
	return 0, core.FieldErrorf(field, "%s is out of the range of a number", core.Quote(t))
}

// percentToFraction rewrites a decimal percentage as the same number over
// 100, in decimal ("99.9" → "99.9e-2"), so that parsing it rounds once:
// "95%" is then exactly 0.95, where 95*0.01 is 0.9500000000000001. Text
// that is not a number is returned as it is, for the parser to refuse.
func percentToFraction(p string) string {
	mant, exp := p, 0
	if i := strings.IndexAny(p, "eE"); i >= 0 {
		e, err := strconv.Atoi(p[i+1:])
		if err != nil || e < -100000 || e > 100000 {
			return p
		}
		mant, exp = p[:i], e
	}
	return mant + "e" + strconv.Itoa(exp-2)
}

// readDate reads a day, YYYY-MM-DD.
func readDate(field, t string) (string, error) {
	if _, err := time.Parse(time.DateOnly, t); err != nil {
		return "", core.FieldErrorf(field, "must be a date YYYY-MM-DD, got %s", core.Quote(t))
	}
	return t, nil
}

// readBool reads true or false.
func readBool(field, t string) (bool, error) {
	switch t {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, core.FieldErrorf(field, "must be true or false, got %s", core.Quote(t))
}

func readInteger(field, t string) (int64, error) {
	v, err := core.ParseInt(t)
	if err == nil {
		return v, nil
	}
	var ne *strconv.NumError
	if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
		return 0, core.FieldErrorf(field, "%s is too large a number", core.Quote(t))
	}
	return 0, core.FieldErrorf(field, "%s is not a whole number: %s", core.Quote(t), core.NumberProblem(t, true))
}

// readSeconds reads seconds: a number, or a duration of Go's form with a
// unit after every number ("8s", "1m30s", "250ms"), no sign.
func readSeconds(field, t string) (float64, error) {
	last := t[len(t)-1]
	if last >= '0' && last <= '9' || last == '.' {
		return readNumber(field, t, "a number of seconds")
	}
	d, err := time.ParseDuration(t)
	if err != nil || t[0] < '0' || t[0] > '9' {
		return 0, core.FieldErrorf(field, "%s is not a number of seconds: write seconds such as 8, or a duration such as 8s or 1m30s", core.Quote(t))
	}
	return d.Seconds(), nil
}

// separator reports whether c separates the items of a list: a comma, a
// semicolon, or white space (spaces, tabs, line breaks), as people write
// lists ("0.05 0.02 0.01", "5%, 2%", one per line).
func separator(c rune) bool {
	return c == ',' || c == ';' || unicode.IsSpace(c)
}

// readList reads a list of fractions. A fault names the item by its place
// in the list ("rate 2: ...") and its column, unless it is the only item.
func readList(field, s, item string) ([]float64, error) {
	return readItems(field, s, item, readFraction)
}

// readIntegers reads a list of whole numbers, as readList reads fractions.
func readIntegers(field, s, item string) ([]int64, error) {
	return readItems(field, s, item, readInteger)
}

// readItems reads the items of a list, each by read.
func readItems[V any](field, s, item string, read func(field, t string) (V, error)) ([]V, error) {
	out := []V{}
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if separator(r) {
			i += n
			continue
		}
		start := i
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if separator(r) {
				break
			}
			i += n
		}
		text := s[start:i]
		// "5 %" is one item: a "%" standing alone belongs to the number
		// before it.
		if j := skipBlanks(s, i); j < len(s) && s[j] == '%' {
			text, i = s[start:j+1], j+1
		}
		v, err := read(field, text)
		if err != nil {
			if strings.TrimSpace(s) == text {
				return nil, err // the only item: no place to name
			}
			e := err.(*core.Error)
			e.Column = utf8.RuneCountInString(s[:start]) + 1
			e.Msg = item + " " + strconv.Itoa(len(out)+1) + ": " + e.Msg
			return nil, e
		}
		out = append(out, v)
	}
	return out, nil
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// Exact is a number's shortest text that reads back to the same float64.
func Exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// ListText is a list's canonical text: its numbers' exact text, joined by
// commas.
func ListText(vs []float64) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = Exact(v)
	}
	return strings.Join(out, ",")
}

// IntegersText is a list of whole numbers' canonical text, joined by
// commas.
func IntegersText[I int | int64](vs []I) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.FormatInt(int64(v), 10)
	}
	return strings.Join(out, ",")
}

// CountText is a count's canonical text, "17/20".
func CountText(c core.Count) string {
	return strconv.FormatInt(c.Passed, 10) + "/" + strconv.FormatInt(c.Trials, 10)
}
