package compare

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/stat"
)

// The sequential comparison: the paired questions are added one at a time
// (a batch is many), and after any of them the answer may be read — B
// better, B worse, no difference as large as planned, or go on — with its
// error rates held however often it is read and whenever the reading
// stops. docs/STATISTICS.md (section "Sequential comparison") gives the
// tests and their sources.
//
// Each question gives a difference d = b − a in [−1, 1]: its pass rate on
// side B minus side A (with one answer a side, −1, 0 or 1: the discordant
// pairs are the ±1). Four betting e-processes run on the d's, each a test
// supermartingale under its hypothesis when the questions come in random
// order (Waudby-Smith and Ramdas 2024):
//
//   - better, against "B is no better" (mean d ≤ 0): ∏ (1 + λ⁺ d);
//   - worse, against "B is no worse" (mean d ≥ 0): ∏ (1 − λ⁻ d);
//   - not above, against "B is better by δ or more": ∏ (1 − μ⁺ (d − δ));
//   - not below, against "B is worse by δ or more": ∏ (1 + μ⁻ (d + δ));
//
// each bet in [0, ½] chosen from the questions before. A claim of better
// or worse needs its evidence at 2/α; "no difference of the planned size"
// (futility) needs both of the last two at 2/α.

// Sequential verdicts.
const (
	SeqGoOn   = "continue"          // no answer yet: add questions
	SeqBetter = "b-better"          // B's accuracy is higher
	SeqWorse  = "b-worse"           // B's accuracy is lower
	SeqFutile = "no-planned-change" // no difference as large as the planned effect, either way
	SeqCapped = "stopped-at-cap"    // the plan's most questions used without an answer
)

// SeqPlan is a sequential comparison's plan, fixed before the first
// question.
type SeqPlan struct {
	// Effect is the planned difference in accuracy δ, a fraction in
	// [0.0001, 1): the bets for a difference are sized for it, and
	// futility says no difference is as large.
	Effect float64 `json:"effect"`
	// Level is the confidence of every claim, in (0,1): each of the
	// claims errs with probability at most 1 − Level, over every look.
	Level float64 `json:"level"`
	// Power is the chance, in (0,1), that a difference of Effect or more
	// is not called futile: futility errs at most 1 − Power of the time
	// at any such difference, which is the power it may cost.
	Power float64 `json:"power"`
	// MaxQuestions stops the comparison without an answer once this many
	// questions are in, ≥ 0; 0 sets no cap.
	MaxQuestions int64 `json:"max_questions"`
}

// SeqState is the evidence after some questions: everything the next
// look needs, so that a caller may keep it between batches (the API takes
// it back). The zero value is the state before any question.
type SeqState struct {
	Questions int64 `json:"questions"` // questions added, ≥ 0
	Up        int64 `json:"up"`        // questions where B scored higher than A
	Down      int64 `json:"down"`      // questions where B scored lower
	// Sum and Squares are Σd and Σd² over the questions added.
	Sum     float64 `json:"sum"`
	Squares float64 `json:"squares"`
	// LogBetter and LogWorse are the logs of the evidence that B is
	// better and worse; LogNotAbove and LogNotBelow that the difference
	// is below δ, and above −δ.
	LogBetter   float64 `json:"log_better"`
	LogWorse    float64 `json:"log_worse"`
	LogNotAbove float64 `json:"log_not_above"`
	LogNotBelow float64 `json:"log_not_below"`
}

// seqPlanWeight is how many questions' worth the plan weighs in the bets'
// estimates of the mean difference and its second moment.
const seqPlanWeight = 8

// seqMaxBet caps every bet: a question at the worst end loses at most half
// the evidence.
const seqMaxBet = 0.5

// Check reports a plan's setting out of range as an Invalid *core.Error.
func (p SeqPlan) Check() error {
	switch {
	case !(p.Effect >= 1e-4 && p.Effect < 1):
		return core.FieldErrorf("effect", "must be a fraction from 0.0001 to below 1, got %v", p.Effect)
	case !(p.Level > 0 && p.Level < 1):
		return core.FieldErrorf("level", "must be between 0 and 1, got %v", p.Level)
	case !(p.Power > 0 && p.Power < 1):
		return core.FieldErrorf("power", "must be between 0 and 1, got %v", p.Power)
	case p.MaxQuestions < 0:
		return core.FieldErrorf("max_questions", "must be 0 (no cap) or more, got %d", p.MaxQuestions)
	}
	return nil
}

// moments are the bets' estimates of the mean difference and of its
// second moment: the questions so far with seqPlanWeight questions of the
// plan, whose mean is δ and second moment δ + (1−δ)/4 (a discordance rate
// a quarter of the way from δ to 1).
func (p SeqPlan) moments(s SeqState) (mean, second float64) {
	w := float64(seqPlanWeight)
	n := float64(s.Questions) + w
	m2 := p.Effect + (1-p.Effect)/4
	return (s.Sum + float64(w*p.Effect)) / n, (s.Squares + float64(w*m2)) / n
}

// clipBet keeps a bet in [0, seqMaxBet].
func clipBet(x float64) float64 { return min(max(x, 0), seqMaxBet) }

// Add returns the state after one more question whose difference is d,
// B's pass rate on it minus A's, in [−1, 1]. A d outside is clamped.
func (p SeqPlan) Add(s SeqState, d float64) SeqState {
	d = min(max(d, -1), 1)
	mean, second := p.moments(s)
	delta := p.Effect
	// The bets for a difference: the growth-optimal fraction at the
	// estimated mean, never below the planned effect's (the test is sized
	// for δ, and a smaller running mean early on is mostly noise).
	up := clipBet(max(mean, delta) / second)
	down := clipBet(max(-mean, delta) / second)
	s.LogBetter += stat.Log1p(float64(up * d))
	s.LogWorse += stat.Log1p(-float64(down * d))
	// The futility bets (aGRAPA): against "mean ≥ δ" and "mean ≤ −δ".
	v := max(second-float64(mean*mean), 1e-4)
	ga := delta - mean
	gb := delta + mean
	s.LogNotAbove += stat.Log1p(-float64(clipBet(ga/(v+float64(ga*ga))) * (d - delta)))
	s.LogNotBelow += stat.Log1p(float64(clipBet(gb/(v+float64(gb*gb))) * (d + delta)))
	s.Questions++
	switch {
	case d > 0:
		s.Up++
	case d < 0:
		s.Down++
	}
	s.Sum += d
	s.Squares += float64(d * d)
	return s
}

// futileAt is the log of the evidence futility needs, each way:
// log(1/(1 − Power)).
func (p SeqPlan) futileAt() float64 { return -stat.Log(1 - p.Power) }

// Verdict is the answer after the questions of s: b-better or b-worse once
// that evidence passes 2/α (α = 1 − Level), no-planned-change once both
// futility evidences do, stopped-at-cap at MaxQuestions, else continue. A
// difference claimed wins over futility at the same question.
func (p SeqPlan) Verdict(s SeqState) string {
	thr := stat.Log(2 / (1 - p.Level))
	switch {
	case s.LogBetter >= thr:
		return SeqBetter
	case s.LogWorse >= thr:
		return SeqWorse
	case s.LogNotAbove >= p.futileAt() && s.LogNotBelow >= p.futileAt():
		return SeqFutile
	case p.MaxQuestions > 0 && s.Questions >= p.MaxQuestions:
		return SeqCapped
	}
	return SeqGoOn
}

// Run adds the differences ds to s in order, stopping at the first that
// gives an answer (a verdict other than continue): the state then and the
// verdict. Once a sequence has an answer, later questions do not change
// it, so a caller that looks after every batch and one that looks once at
// the end agree.
func (p SeqPlan) Run(s SeqState, ds []float64) (SeqState, string) {
	v := p.Verdict(s)
	for _, d := range ds {
		if v != SeqGoOn {
			break
		}
		s = p.Add(s, d)
		v = p.Verdict(s)
	}
	return s, v
}

// Sequential is a sequential comparison's answer: the plan, the state
// where it stopped (or after every question, when it goes on) and its
// verdict. Its JSON is the public contract.
type Sequential struct {
	Plan    SeqPlan  `json:"plan"`
	State   SeqState `json:"state"`
	Verdict string   `json:"verdict"` // continue, b-better, b-worse, no-planned-change or stopped-at-cap
	// Paired is the questions both sides have (SequentialBatch: the
	// batch's); Used the ones of them the verdict rests on, the first Used
	// in order (side A's). Questions after an answer do not change it.
	Paired int `json:"paired"`
	Used   int `json:"used"`
	// Diff is the mean difference B − A over the questions used, a
	// fraction in [-1,1]; 0 before any.
	Diff float64 `json:"diff"`
	// Threshold is the log of the evidence a claim needs, log(2/α).
	Threshold float64  `json:"threshold"`
	Warnings  []string `json:"warnings"`
}

// SequentialBatch adds a batch of differences (each question's B − A, in
// [−1, 1], in the order asked) to the state s a previous batch left, and
// answers: the stateless form of the test, for a caller that keeps the
// state between batches (the API). Paired and Used count this batch's
// questions; Diff is the mean over every question added, Sum/Questions.
func SequentialBatch(p SeqPlan, s SeqState, ds []float64) (*Sequential, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	for i, d := range ds {
		if !(d >= -1 && d <= 1) {
			return nil, core.FieldErrorf("b", "question %d of the batch: B − A = %v is outside [-1, 1]", i+1, d)
		}
	}
	before := s.Questions
	out := &Sequential{Plan: p, Paired: len(ds), Threshold: stat.Log(2 / (1 - p.Level)), Warnings: []string{}}
	out.State, out.Verdict = p.Run(s, ds)
	out.Used = int(out.State.Questions - before)
	if out.State.Questions > 0 {
		out.Diff = out.State.Sum / float64(out.State.Questions)
	}
	return out, nil
}

// CompareSequential replays the questions both sides have, in side A's
// order, through the plan's sequential test from the state before any
// question, and stops at the first answer. Run it again on the logs as
// they grow (both sides answering the questions in the same order): the
// answer, once given, stays.
func CompareSequential(a, b *aa.Side, p SeqPlan) (*Sequential, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		side *aa.Side
	}{{"a", a}, {"b", b}} {
		if err := checkSide(s.name, s.side); err != nil {
			return nil, err
		}
	}
	pairs, onlyA, onlyB, note := pairUp(a, b)
	out := &Sequential{Plan: p, Paired: len(pairs), Threshold: stat.Log(2 / (1 - p.Level)), Warnings: []string{}}
	if note != "" {
		out.Warnings = append(out.Warnings, note)
	}
	if n := len(onlyA) + len(onlyB); n > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%s only one side has: not yet in the comparison (a question counts once both sides have answered it)", core.Nouns(n, "question")))
	}
	ds := make([]float64, len(pairs))
	for i, q := range pairs {
		ds[i] = q.d()
	}
	out.State, out.Verdict = p.Run(SeqState{}, ds)
	out.Used = int(out.State.Questions)
	if out.Used > 0 {
		out.Diff = stat.Fmean(ds[:out.Used])
	}
	return out, nil
}
