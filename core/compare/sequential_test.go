package compare

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
)

// seqReps is the replicates of each seeded simulation: fewer with -short.
func seqReps(full, short int) int {
	if testing.Short() {
		return short
	}
	return full
}

// TestSeqFalseClaims looks after every question, up to 10,000 questions,
// at comparisons where B is exactly as good as A (futility not allowed to
// stop them): a claim of better or worse at any look is false, and Ville's
// inequality bounds them at 1 − Level = 5% in all. One answer a side with
// 15% and 30% of the questions answered differently, and 3 epochs a side
// on questions of every difficulty.
func TestSeqFalseClaims(t *testing.T) {
	reps := seqReps(1000, 200)
	for i, c := range []struct {
		name   string
		effect float64
		sc     interface{ draw(*rand.Rand) float64 }
	}{
		{"one answer, 15% discordant, plan 3 points", 0.03, seqScenario{Rho: 0.15}},
		{"one answer, 30% discordant, plan 10 points", 0.10, seqScenario{Rho: 0.30}},
		{"3 epochs, plan 5 points", 0.05, epochScenario{K: 3}},
	} {
		p := SeqPlan{Effect: c.effect, Level: 0.95, Power: 0.95, MaxQuestions: 10000}
		o := simulate(p, c.sc, reps, uint64(100+i), true)
		rate := o.share(o.Better + o.Worse)
		t.Logf("%s: false claims %.2f%% of %d comparisons looked at after each of 10,000 questions", c.name, 100*rate, reps)
		if rate > 0.05 {
			t.Errorf("%s: false claims %.2f%% over 10,000 looks, want at most 5%%", c.name, 100*rate)
		}
	}
}

// TestSeqPlannedEffect compares the sequential test, capped at 1.5 times
// the fixed design's questions, with the fixed design (the paired test at
// 95% confidence sized for 95% power, QuestionsNeeded) when the difference
// is the planned one: the sequential test must find it within 5 points of
// the fixed design's power and use on average at most 65% of its questions.
func TestSeqPlannedEffect(t *testing.T) {
	reps := seqReps(2000, 300)
	t.Logf("planned effect | discordant | fixed design | sequential: found, mean questions (share of fixed), futile | under no difference: claims, futile, mean questions")
	for i, c := range []struct{ effect, rho float64 }{{0.03, 0.15}, {0.05, 0.20}, {0.10, 0.30}} {
		fixed := QuestionsNeeded(c.rho-c.effect*c.effect, c.effect, 0.95, 0.95)
		p := SeqPlan{Effect: c.effect, Level: 0.95, Power: 0.95, MaxQuestions: fixed * 3 / 2}
		alt := simulateSeq(p, seqScenario{Rho: c.rho, Diff: c.effect}, reps, uint64(200+i))
		null := simulateSeq(p, seqScenario{Rho: c.rho}, reps, uint64(300+i))
		share := alt.meanQuestions() / float64(fixed)
		t.Logf("%.0f points | %.0f%% | %d questions, 95%% power | %.1f%%, %.0f (%.1f%%), %.1f%% | %.1f%%, %.1f%%, %.0f",
			100*c.effect, 100*c.rho, fixed, 100*alt.share(alt.Better), alt.meanQuestions(), 100*share, 100*alt.share(alt.Futile),
			100*null.share(null.Better+null.Worse), 100*null.share(null.Futile), null.meanQuestions())
		if got := alt.share(alt.Better); got < 0.90 {
			t.Errorf("effect %v: found %.1f%% of the time, want within 5 points of the fixed design's 95%%", c.effect, 100*got)
		}
		if share > 0.65 {
			t.Errorf("effect %v: mean questions %.1f%% of the fixed design's, want at most 65%%", c.effect, 100*share)
		}
		if got := null.share(null.Better + null.Worse); got > 0.05 {
			t.Errorf("effect %v: false claims %.1f%% under no difference, want at most 5%%", c.effect, 100*got)
		}
	}
}

// TestSeqFirstQuestion checks one step by hand: before any question the
// bets' estimates are the plan's (mean δ, second moment δ + (1−δ)/4), so a
// first question B gets right and A wrong multiplies the evidence of
// "better" by 1 + δ/(δ + (1−δ)/4), and that of "worse" by 1 − the same.
func TestSeqFirstQuestion(t *testing.T) {
	p := SeqPlan{Effect: 0.2, Level: 0.95, Power: 0.9}
	s := p.Add(SeqState{}, 1)
	lam := 0.2 / (0.2 + 0.8/4) // 0.5, the cap
	if want := math.Log(1 + lam); math.Abs(s.LogBetter-want) > 1e-15 {
		t.Errorf("LogBetter = %v, want %v", s.LogBetter, want)
	}
	if want := math.Log(1 - lam); math.Abs(s.LogWorse-want) > 1e-15 {
		t.Errorf("LogWorse = %v, want %v", s.LogWorse, want)
	}
	if s.Questions != 1 || s.Up != 1 || s.Down != 0 || s.Sum != 1 || s.Squares != 1 {
		t.Errorf("state = %+v", s)
	}
}

// TestSeqRunStops checks that an answer, once given, stays: Run stops at
// the first question that answers, and a state kept between batches and
// sent back (as JSON, as the API does) gives the same answer as one run
// over all the questions.
func TestSeqRunStops(t *testing.T) {
	p := SeqPlan{Effect: 0.1, Level: 0.95, Power: 0.95}
	ds := make([]float64, 400)
	for i := range ds {
		if i%3 == 0 {
			ds[i] = 1 // B right where A is wrong on a third of the questions
		}
	}
	all, v := p.Run(SeqState{}, ds)
	if v != SeqBetter || all.Questions >= 400 {
		t.Fatalf("verdict %q after %d questions, want b-better before the end", v, all.Questions)
	}
	var s SeqState
	for b := 0; b < len(ds); b += 7 {
		var got string
		s, got = p.Run(s, ds[b:min(b+7, len(ds))])
		js, _ := json.Marshal(s)
		s = SeqState{}
		if err := json.Unmarshal(js, &s); err != nil {
			t.Fatal(err)
		}
		if got != SeqGoOn {
			break
		}
	}
	if s != all {
		t.Errorf("in batches of 7: %+v, all at once: %+v", s, all)
	}
}

func TestSeqPlanCheck(t *testing.T) {
	for _, p := range []SeqPlan{
		{Effect: 0, Level: 0.95, Power: 0.9},
		{Effect: 1, Level: 0.95, Power: 0.9},
		{Effect: 0.1, Level: 1, Power: 0.9},
		{Effect: 0.1, Level: 0.95, Power: 0},
		{Effect: 0.1, Level: 0.95, Power: 0.9, MaxQuestions: -1},
	} {
		if err := p.Check(); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}

// TestCompareSequentialSides pairs two sides by id and replays them.
func TestCompareSequentialSides(t *testing.T) {
	a, b := &aa.Side{}, &aa.Side{}
	for i := range 300 {
		id := "q" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		a.Scenarios = append(a.Scenarios, aa.Tally{ID: id, Passed: 0, Total: 1})
		pass := int64(0)
		if i%2 == 0 {
			pass = 1
		}
		b.Scenarios = append(b.Scenarios, aa.Tally{ID: id, Passed: pass, Total: 1})
	}
	b.Scenarios = append(b.Scenarios, aa.Tally{ID: "extra", Passed: 1, Total: 1})
	res, err := CompareSequential(a, b, SeqPlan{Effect: 0.05, Level: 0.95, Power: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != SeqBetter || res.Paired != 300 || res.Used >= 300 || len(res.Warnings) != 1 {
		t.Errorf("got %+v", res)
	}
	if res.Diff <= 0.3 {
		t.Errorf("diff %v over the questions used, want about 0.5", res.Diff)
	}
}
