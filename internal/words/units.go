package words

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Minus is the minus sign of the text, U+2212: wider than a hyphen and
// never broken from its number. Points writes it; the CLI, whose output is
// grepped and pasted into shells, writes an ASCII hyphen-minus instead.
const Minus = "\u2212"

// Exact is the machine-readable form of a number: Go's shortest round-trip
// representation, which parses back to the same float64.
func Exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Percent formats a fraction in [0,1] as a percentage with one decimal, or
// more decimals when the value is small but not zero, so that 0.0003 does
// not read as 0.0%: "95.0%", "0.43%", "0.003%". NaN is "—".
func Percent(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	p := 100 * v
	switch {
	case p == 0 || math.Abs(p) >= 1:
		return strconv.FormatFloat(p, 'f', 1, 64) + "%"
	case math.Abs(p) >= 0.01:
		return strconv.FormatFloat(p, 'f', 2, 64) + "%"
	}
	return strconv.FormatFloat(p, 'g', 2, 64) + "%"
}

// FixedPercent formats a fraction as a percentage with exactly decimals
// decimals, for the columns of a table: FixedPercent(0.0003, 1) is "0.0%".
func FixedPercent(v float64, decimals int) string {
	return strconv.FormatFloat(100*v, 'f', decimals, 64) + "%"
}

// RatePercent formats a failure rate as a percentage with two decimals,
// keeping tiny rates readable with three significant digits: "4.57%",
// "0.0012%".
func RatePercent(v float64) string {
	if v != 0 && 100*v < 0.01 {
		return strconv.FormatFloat(100*v, 'g', 3, 64) + "%"
	}
	return FixedPercent(v, 2)
}

// Level formats a setting the user chose (a target power, a confidence) as
// a percentage without rounding it: 0.95 is "95%", 0.999999999 is
// "99.9999999%", not the "100.0%" Percent would show.
func Level(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	p := 100 * v
	t := strings.TrimRight(strings.TrimRight(strconv.FormatFloat(p, 'f', 10, 64), "0"), ".")
	if t == "0" && p != 0 || t == "100" && p != 100 {
		t = strconv.FormatFloat(p, 'g', 15, 64)
	}
	return t + "%"
}

// Rate formats a failure or pass rate as a fraction with four significant
// digits: "0.0457"; 0 and 1 are "0" and "1".
func Rate(v float64) string {
	if v == 0 || v == 1 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Points formats a difference of fractions as percentage points with two
// decimals, a negative one with Minus: "−5.69 pts".
func Points(v float64) string {
	s := strconv.FormatFloat(100*v, 'f', 2, 64)
	if strings.HasPrefix(s, "-") {
		s = Minus + s[1:]
	}
	return s + " pts"
}

// Count formats an integer with commas between thousands, as the README
// and the docs write numbers: "1,234,567".
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Nouns is a count and a regular English noun that agrees with it, the
// count written as Count writes it: "1 test", "2 tests", "1,200 runs".
// Every count in a sentence goes through it or Count, so that one page never
// shows "1200" beside "1 200".
func Nouns[N ~int | ~int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Count(int64(n)) + " " + noun + "s"
}

// Fraction writes a count of a whole, each number as Count writes it:
// "17/20", "1,200/2,000".
func Fraction(part, whole int64) string { return Count(part) + "/" + Count(whole) }

// durationUnits are the units Duration writes, each with its size in
// seconds and its singular.
var durationUnits = []struct {
	size      float64
	one, many string
}{
	{1, "s", "s"},
	{60, "min", "min"},
	{3600, "h", "h"},
	{86400, "day", "days"},
	{365.25 * 86400, "year", "years"},
}

// Duration formats runner seconds (>= 0) in the largest unit that keeps the
// number readable: seconds below a minute, minutes below an hour, hours
// below a day, days below a year of 365.25 days, then years. The number has
// one decimal, dropped when it is 0 ("8 s", "7.9 min", "6.7 h", "3 days"),
// and years, and durations under 0.05 s (which one decimal would write as
// "0"), have three significant digits ("127 years", "0.001 s"). The unit is chosen
// after rounding, so 59.97 s is "1 min", not "60 s"; one of a unit is
// singular ("1 day"). An infinite or NaN duration is "—".
func Duration(sec float64) string {
	if math.IsInf(sec, 0) || math.IsNaN(sec) {
		return "—"
	}
	var text string
	u := durationUnits[0]
	for _, next := range durationUnits[1:] {
		text = strconv.FormatFloat(sec/u.size, 'f', 1, 64)
		if r, _ := strconv.ParseFloat(text, 64); sec < next.size && r*u.size < next.size {
			break
		}
		u = next
	}
	if u == durationUnits[len(durationUnits)-1] || (sec > 0 && sec < 0.05) {
		// Years, and durations under 0.05 s that one decimal writes as
		// "0", keep three significant digits: "0.001 s".
		text = fmt.Sprintf("%.3g", sec/u.size)
	} else if strings.HasSuffix(text, ".0") {
		text = strings.TrimSuffix(text, ".0")
	}
	if text == "1" {
		return text + " " + u.one
	}
	return text + " " + u.many
}

// Article is s after "a" or "an" as it is read aloud: "an 80.2%", "an
// 8%", "an 11%", "an 18.5%" (eight, eleven, eighteen), "a 2.0%", "a 1.1%".
func Article(s string) string {
	an := strings.HasPrefix(s, "8")
	for _, p := range []string{"11", "18"} {
		if rest, ok := strings.CutPrefix(s, p); ok && (rest == "" || rest[0] < '0' || rest[0] > '9') {
			an = true
		}
	}
	if an {
		return "an " + s
	}
	return "a " + s
}
