package aa

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/coretest"
	"github.com/flakegate/flakegate/internal/testfile"
)

// countsOf sums a scenario,run,passed CSV (plain: no quotes) into the
// counts a warehouse GROUP BY gives, by simple grouping here rather than by
// ReadCSV.
func countsOf(t *testing.T, path string) string {
	t.Helper()
	type tally struct{ p, n int }
	scen, run := map[string]*tally{}, map[string]*tally{}
	for _, fs := range testfile.Rows(t, path, ",", 3)[1:] { // after the header scenario,run,passed
		for _, m := range []struct {
			m   map[string]*tally
			key string
		}{{scen, fs[0]}, {run, fs[1]}} {
			if m.m[m.key] == nil {
				m.m[m.key] = &tally{}
			}
			m.m[m.key].n++
			if fs[2] == "1" {
				m.m[m.key].p++
			}
		}
	}
	var b bytes.Buffer
	b.WriteString("run,scenario,trials,passed\n") // another column order
	keys := func(m map[string]*tally) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	for _, k := range keys(scen) {
		fmt.Fprintf(&b, ",%s,%d,%d\n", k, scen[k].n, scen[k].p)
	}
	for _, k := range keys(run) {
		fmt.Fprintf(&b, "%s,,%d,%d\n", k, run[k].n, run[k].p)
	}
	return b.String()
}

// The A/A check from per-scenario and per-run counts gives the figures the
// rows give: they are its sufficient statistics. Scenario and run order
// differ (counts come sorted), so the result is compared field by field
// on what order does not change.
func TestReadCountsMatchesRows(t *testing.T) {
	for _, name := range []string{"seed_shape", "many_runs", "three_runs"} {
		path := "testdata/aa/" + name + ".csv"
		rows := readCSVFile(t, path)
		counts, err := ReadCounts(strings.NewReader(countsOf(t, path)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rows.Duplicates != 0 {
			t.Fatalf("%s has duplicates; pick a sample without", name)
		}
		a := mustCheck(t, rows, nil, DefaultOptions)
		b := mustCheck(t, counts, nil, DefaultOptions)
		if a.Scenarios != b.Scenarios || a.Runs != b.Runs || a.Rows != b.Rows || a.Mixed != b.Mixed || a.V != b.V || a.Noise.S != b.Noise.S || a.Noise.Formula != b.Noise.Formula {
			t.Errorf("%s: rows give %+v, counts %+v", name, a, b)
		}
	}
	if CSVKind([]byte("\xef\xbb\xbfScenario, Run ,passed,TRIALS\n")) != "counts" || CSVKind([]byte("scenario,run,passed\n")) != "rows" || CSVKind([]byte("id,score\n")) != "" {
		t.Error("CSVKind")
	}
	for _, c := range []struct{ in, frag string }{
		{"scenario,run,passed,trials\na,,3,2\n", "2:1: passed must lie in [0, trials]"},
		{"scenario,run,passed,trials\na,r,1,1\n", "names a scenario or a run, not both"},
		{"scenario,run,passed,trials\na,,x,1\n", "2:4: passed must be a whole number"},
		{"scenario,run,passed,trials\na,,1,2\n,r,2,2\n", "tallies disagree"},
		{"scenario,run,passed\n", "no trials column"},
	} {
		_, err := ReadCounts(strings.NewReader(c.in))
		coretest.Refused(t, err, c.frag, c.in)
	}
}
