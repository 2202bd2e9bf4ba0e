package words

import (
	"fmt"
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	// Expected strings are the display contract, written by hand.
	for _, tc := range []struct {
		got, want string
	}{
		{Percent(0.95), "95.0%"},
		{Percent(0.142625), "14.3%"},
		{Percent(0.0043), "0.43%"},
		{Percent(0.00003), "0.003%"},
		{Percent(0), "0.0%"},
		{Percent(1), "100.0%"},
		{Duration(8), "8 s"},
		{Duration(472), "7.9 min"},
		{Duration(59 * 8), "7.9 min"},
		{Duration(2995 * 8), "6.7 h"},
		{Duration(3 * 86400), "3 days"},
		{Duration(4e9), "127 years"},
		{Count(1234567), "1,234,567"},
		{Count(-999), "-999"},
		{Points(-0.0569), "−5.69 pts"}, // U+2212, the minus sign of the text
		{Rate(0.045696291245049675), "0.0457"},
		// level shows a chosen setting as typed, never rounded to 100%.
		{Level(0.95), "95%"},
		{Level(0.9), "90%"}, // 100×0.9 is 90.00000000000001 in float64
		{Level(0.975), "97.5%"},
		{Level(0.999999999), "99.9999999%"},
		{Level(0.99999999999999), "99.999999999999%"},
		{Level(1e-13), "1e-11%"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	// exact round-trips every float64.
	for _, v := range []float64{0.1, 1.0 / 3, math.SmallestNonzeroFloat64, 0.9515054747505768, 1e21} {
		var back float64
		fmt.Sscan(Exact(v), &back)
		if back != v {
			t.Errorf("exact(%v) = %s does not round-trip", v, Exact(v))
		}
	}
}

// TestDuration holds the one rule of durations that the CLI and the page
// share: the unit is the largest that keeps the number readable, chosen
// after rounding to one decimal. Expected strings are written by hand from
// the rule; the CLI's golden reports (cmd/flakegate/testdata) show the
// same "8 s" and "7.9 min".
func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		sec  float64
		want string
	}{
		{0, "0 s"},
		{0.04, "0.04 s"}, // not "0 s": a cost of 0.001 s read "0.3 s at 0 s"
		{0.001, "0.001 s"},
		{0.0012345, "0.00123 s"},
		{0.25, "0.2 s"}, // 0.25 is a binary fraction: rounded half to even
		{8, "8 s"},
		{59.94, "59.9 s"},
		{59.96, "1 min"}, // not "60 s": the unit is chosen after rounding
		{60, "1 min"},
		{90, "1.5 min"}, // where the CLI once said "90 s"
		{119, "2 min"},
		{472, "7.9 min"},
		{3599, "1 h"},
		{3600, "1 h"},
		{5400, "1.5 h"},
		{23960, "6.7 h"},
		{86400, "1 day"},
		{1.5 * 86400, "1.5 days"},
		{3 * 86400, "3 days"},
		{365.2 * 86400, "365.2 days"},
		{365.25 * 86400, "1 year"},
		{4e9, "127 years"},
		{1e15, "3.17e+07 years"},
		{math.Inf(1), "—"},
		{math.NaN(), "—"},
	} {
		if got := Duration(tc.sec); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.sec, got, tc.want)
		}
	}
}

func TestFixedAndRatePercent(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{FixedPercent(0.95, 1), "95.0%"},
		{FixedPercent(0.00003, 1), "0.0%"},
		{FixedPercent(0.95, 0), "95%"},
		{RatePercent(0.045696291245049675), "4.57%"},
		{RatePercent(0.00001234), "0.00123%"},
		{RatePercent(0), "0.00%"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func ExampleDuration() {
	fmt.Println(Duration(8), Duration(90), Duration(59*8), Duration(3*86400))
	// Output: 8 s 1.5 min 7.9 min 3 days
}

// The article a percentage takes as it is read aloud: eight, eleven and
// eighteen start with a vowel sound ("an 80.2% flake"); one, two, ... and
// one hundred ten do not.
func TestArticle(t *testing.T) {
	for s, want := range map[string]string{
		"80.2%": "an 80.2%", "8.0%": "an 8.0%", "11%": "an 11%", "11.5%": "an 11.5%", "18.0%": "an 18.0%", "800": "an 800",
		"2.0%": "a 2.0%", "1.1%": "a 1.1%", "110%": "a 110%", "180": "a 180", "1,800": "a 1,800", "11,000": "an 11,000",
	} {
		if got := Article(s); got != want {
			t.Errorf("Article(%q) = %q, want %q", s, got, want)
		}
	}
}
