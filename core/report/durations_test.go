package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/ledger"
)

// TestDurations checks what Options.Durations is given, read by hand off
// each stream: go test -json's Elapsed of each test pass or fail event
// (not the package's, not a skip's, not a string), and JUnit's time of
// each testcase that is a trial (not a skipped one, not one without a
// number).
func TestDurations(t *testing.T) {
	cases := []struct {
		name, format, in string
		want             string
	}{
		{"gotest", FormatGoTest, `{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":1.25}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"fail","Package":"p","Test":"TestB","Elapsed":0.5}
{"Action":"run","Package":"p","Test":"TestC"}
{"Action":"skip","Package":"p","Test":"TestC","Elapsed":7}
{"Action":"run","Package":"p","Test":"TestD"}
{"Action":"pass","Package":"p","Test":"TestD","Elapsed":"3"}
{"Action":"run","Package":"p","Test":"TestE"}
{"Action":"pass","Package":"p","Test":"TestE"}
{"Action":"fail","Package":"p","Elapsed":2}
`, "p.TestA=1.25 p.TestB=0.5 "},
		{"junit", FormatJUnit, `<testsuite name="s"><testcase classname="c" name="a" time="0.25"/>` +
			`<testcase classname="c" name="b" time=" 2 "><failure/></testcase>` +
			`<testcase classname="c" name="s" time="4"><skipped/></testcase>` +
			`<testcase classname="c" name="n" time="1,5"/><testcase classname="c" name="x" time="-1"/></testsuite>`,
			"c.a=0.25 c.b=2 "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got strings.Builder
			opt := Options{Format: c.format, Durations: func(test string, s float64) { fmt.Fprintf(&got, "%s=%v ", test, s) }}
			if err := Read(strings.NewReader(c.in), opt, ledger.New()); err != nil {
				t.Fatal(err)
			}
			if got.String() != c.want {
				t.Errorf("durations %q, want %q", got.String(), c.want)
			}
		})
	}
}
