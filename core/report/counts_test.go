package report

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// Counts CSVs: a ledger's sums per test and arm, a budget's per test.
func TestCountsCSV(t *testing.T) {
	l := ledger.New()
	in := "test,arm,passed,trials\nt1,baseline,19,20\nt1,patched,12,20\n"
	if err := Read(strings.NewReader(in), Options{}, l); err != nil {
		t.Fatal(err)
	}
	if c := armCounts(l, ledger.ArmPatched)["t1"]; c != (core.Count{Passed: 12, Trials: 20}) {
		t.Errorf("patched t1 %v", c)
	}
	l = ledger.New()
	if err := Read(strings.NewReader("\xef\xbb\xbfTest,Fails,Runs\nflaky,1,120\nsolid,0,120\n"), Options{}, l); err != nil {
		t.Fatal(err)
	}
	fl := l.Flakes()
	if len(fl) != 1 || fl[0].NodeID != "flaky" || fl[0].Fails != 1 || fl[0].Executions != 120 {
		t.Errorf("flakes %+v", fl)
	}
	for _, c := range []struct{ in, frag string }{
		{"test,arm,passed,trials\nt1,canary,1,2\n", "2:4: arm must be baseline or patched"},
		{"test,arm,passed,trials\nt1,baseline,3,2\n", "2:1: the row counts more passes or fails than trials"},
		{"test,fails,runs\nt1,1,x\n", "2:6: runs must be a whole number"},
		{"test,arm,passed,trials\n,baseline,1,2\n", "2:1: the row has no test name"},
	} {
		err := Read(strings.NewReader(c.in), Options{}, ledger.New())
		if err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.frag)
		}
	}
}
