package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/stat"
)

// goTestEvents is a shell command printing go test -json events: each test
// passes or fails as given.
func goTestEvents(tests map[string]bool) string {
	var ev []string
	for _, name := range []string{"TestFixed", "TestSame"} {
		pass, ok := tests[name]
		if !ok {
			continue
		}
		action := "fail"
		if pass {
			action = "pass"
		}
		ev = append(ev, `{"Action":"run","Package":"p","Test":"`+name+`"}`, `{"Action":"`+action+`","Package":"p","Test":"`+name+`"}`)
	}
	return "printf '%s\\n' '" + strings.Join(ev, "' '") + "'"
}

// A sequential start stops once every test's answer is known: a test that
// always fails in the baseline and passes in the patched arm is improved,
// one that always passes in both has no change as large as planned; the
// pairs are the stat.TwoArm test's own, replayed here.
func TestSequentialStop(t *testing.T) {
	cfg := DefaultConfig
	cfg.Ledger = filepath.Join(t.TempDir(), "l.jsonl")
	cfg.RunsPerArm = 200
	cfg.Sequential = true
	cfg.Arms = []Arm{{Name: ledger.ArmBaseline, Shell: goTestEvents(map[string]bool{"TestFixed": false, "TestSame": true})},
		{Name: ledger.ArmPatched, Shell: goTestEvents(map[string]bool{"TestFixed": true, "TestSame": true})}}
	out, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The pairs the answers need, from the test itself.
	tw, _ := DefaultSizing.SeqPlan()
	var fixed, same stat.TwoArmState
	fixedAt, sameAt := int64(0), int64(0)
	for i := int64(1); fixedAt == 0 || sameAt == 0; i++ {
		if fixedAt == 0 {
			if fixed = tw.Add(fixed, false, true); tw.Verdict(fixed) == stat.SeqImproved {
				fixedAt = i
			}
		}
		if sameAt == 0 {
			if same = tw.Add(same, true, true); tw.Verdict(same) == stat.SeqFutile {
				sameAt = i
			}
		}
	}
	want := max(fixedAt, sameAt)
	sq := out.Sequential
	if sq == nil || !sq.Done || sq.Pairs != want || len(out.Records) != int(2*want) || out.Stop != "" {
		t.Fatalf("stopped after %d runs, sequential %+v; want done after %d pairs", len(out.Records), sq, want)
	}
	if sq.Improved != 1 || sq.Futile != 1 || sq.Open != 0 || len(sq.Tests) != 2 ||
		sq.Tests[0].Test != "p.TestFixed" || sq.Tests[0].Verdict != SeqImproved || sq.Tests[0].Pair != fixedAt {
		t.Errorf("answers %+v", sq)
	}
	if !strings.HasPrefix(sq.Reason(), "every test's answer was known after") {
		t.Errorf("reason %q", sq.Reason())
	}
	res, err := Finish(out, GateOptions{Gate: GateLedger, Ledger: ledger.DefaultOptions})
	if err != nil {
		t.Fatal(err)
	}
	// Fewer than 20 trials per arm would be underpowered by the fixed
	// verdict; the sequential answers decide the gate.
	if res.Blocks || res.Sequential != sq {
		t.Errorf("blocks %v, sequential %+v", res.Blocks, res.Sequential)
	}

	// A resumed start with the answers known runs nothing more.
	out2, err := Run(context.Background(), cfg)
	if err != nil || len(out2.Records) != 0 || !out2.Sequential.Done {
		t.Errorf("resume ran %d runs (err %v)", len(out2.Records), err)
	}

	// A regression blocks, whatever the fixed verdict.
	cfg.Ledger = filepath.Join(t.TempDir(), "r.jsonl")
	cfg.Arms[0].Shell, cfg.Arms[1].Shell = cfg.Arms[1].Shell, cfg.Arms[0].Shell
	out, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err = Finish(out, GateOptions{Gate: GateLedger, Ledger: ledger.DefaultOptions})
	if err != nil || !res.Blocks || res.Sequential.Regressed != 1 {
		t.Errorf("a regression: blocks %v, sequential %+v, err %v", res.Blocks, res.Sequential, err)
	}
}
