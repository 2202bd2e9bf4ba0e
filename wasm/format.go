package wasm

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// exact is the machine-readable form of a number: Go's shortest round-trip
// representation, which parses back to the same float64.
func exact(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// pct formats a fraction in [0,1] as a percentage with one decimal, or more
// decimals when the value is small but not zero, so that 0.0003 does not read
// as 0.0%.
func pct(v float64) string {
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

// level formats a setting the user chose (a target power, a confidence) as
// a percentage without rounding it: 0.95 is "95%", 0.999999999 is
// "99.9999999%", not the "100.0%" pct would show.
func level(v float64) string {
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

// rate formats a failure or pass rate: four significant digits.
func rate(v float64) string {
	if v == 0 || v == 1 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// points formats a difference of fractions as percentage points.
func points(v float64) string {
	s := strconv.FormatFloat(100*v, 'f', 2, 64)
	if strings.HasPrefix(s, "-") {
		s = "−" + s[1:] // the minus sign the rest of the text uses
	}
	return s + " pts"
}

// count formats an integer with thin spaces between thousands.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u202f")
		}
		b.WriteRune(c)
	}
	return b.String()
}

// duration formats runner seconds in the largest unit that keeps the number
// readable: "45 s", "12.5 min", "3.2 h", "4.1 days", "2.3 years".
func duration(sec float64) string {
	switch {
	case math.IsInf(sec, 0) || math.IsNaN(sec):
		return "—"
	case sec < 60:
		return trimZero(strconv.FormatFloat(sec, 'f', 1, 64)) + " s"
	case sec < 3600:
		return trimZero(strconv.FormatFloat(sec/60, 'f', 1, 64)) + " min"
	case sec < 86400:
		return trimZero(strconv.FormatFloat(sec/3600, 'f', 1, 64)) + " h"
	case sec < 365.25*86400:
		return trimZero(strconv.FormatFloat(sec/86400, 'f', 1, 64)) + " days"
	}
	return fmt.Sprintf("%.3g years", sec/(365.25*86400))
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
