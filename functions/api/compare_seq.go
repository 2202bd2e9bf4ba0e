package api

import (
	"math"

	"github.com/flakegate/flakegate/core/compare"
)

// MaxSeqBatch is the most questions one call of /v1/compare-sequential
// adds.
const MaxSeqBatch = 100000

// compareSeqParams are /v1/compare-sequential's inputs: the plan, the
// state the previous call returned (its members, named as it names them;
// none for the first batch) and the batch: each question's score on side
// A and on side B, in the order they were asked.
var compareSeqParams = []param{
	{name: "effect", kind: kNumber, def: "0.02", doc: "the planned difference in accuracy, a fraction from 0.0001 to below 1"},
	{name: "level", kind: kNumber, def: "0.95", doc: "the confidence of every claim, in (0,1)"},
	{name: "power", kind: kNumber, def: "0.95", doc: "futility errs at most 1 − power of the time when the difference is effect or more"},
	{name: "max_questions", kind: kNumber, def: "0", doc: "stop without an answer at this many questions (0: no cap)"},
	{name: "a", kind: kNumbers, required: true, most: MaxSeqBatch, doc: "this batch: side A's score on each question, in [0,1] (1 right, 0 wrong; a pass rate over epochs)"},
	{name: "b", kind: kNumbers, required: true, most: MaxSeqBatch, doc: "this batch: side B's score on the same questions, in the same order"},
	{name: "questions", kind: kNumber, def: "0", doc: "state: questions added so far (the previous answer's state.questions)"},
	{name: "up", kind: kNumber, def: "0", doc: "state: questions where B scored higher"},
	{name: "down", kind: kNumber, def: "0", doc: "state: questions where B scored lower"},
	{name: "sum", kind: kNumber, def: "0", doc: "state: the sum of B − A"},
	{name: "squares", kind: kNumber, def: "0", doc: "state: the sum of (B − A)²"},
	{name: "log_better", kind: kNumber, def: "0", doc: "state: log of the evidence that B is better"},
	{name: "log_worse", kind: kNumber, def: "0", doc: "state: log of the evidence that B is worse"},
	{name: "log_not_above", kind: kNumber, def: "0", doc: "state: log of the evidence that B is not better by effect"},
	{name: "log_not_below", kind: kNumber, def: "0", doc: "state: log of the evidence that B is not worse by effect"},
}

// compareSeqRoutes is /v1/compare-sequential: one call per batch, the
// state kept by the caller.
func compareSeqRoutes() []*route {
	return []*route{{
		path:    "compare-sequential",
		summary: "Add a batch of questions to a sequential comparison: B better, B worse, no difference of the planned size, or continue; valid however often it is called",
		params:  compareSeqParams,
		get:     paramsRoute(compareSeq), post: paramsRoute(compareSeq),
		results: "Sequential",
	}}
}

// compareSeq adds the batch to the state sent and answers. The state is
// the caller's: a forged one changes only the caller's own answer.
func compareSeq(_ *handler, a *args) (any, error) {
	p := compare.SeqPlan{Effect: 0.02, Level: 0.95, Power: 0.95}
	var maxQ float64
	a.number("effect", &p.Effect)
	a.number("level", &p.Level)
	a.number("power", &p.Power)
	a.number("max_questions", &maxQ)
	var sa, sb []float64
	a.numbers("a", &sa)
	a.numbers("b", &sb)
	var s compare.SeqState
	var counts [3]float64
	for i, n := range []string{"questions", "up", "down"} {
		a.number(n, &counts[i])
	}
	a.number("sum", &s.Sum)
	a.number("squares", &s.Squares)
	a.number("log_better", &s.LogBetter)
	a.number("log_worse", &s.LogWorse)
	a.number("log_not_above", &s.LogNotAbove)
	a.number("log_not_below", &s.LogNotBelow)
	if a.err != nil {
		return nil, a.err
	}
	for i, n := range []string{"max_questions", "questions", "up", "down"} {
		v := maxQ
		if i > 0 {
			v = counts[i-1]
		}
		if v != math.Trunc(v) || v < 0 || v > 1<<50 {
			return nil, invalid(n, "must be a whole number from 0 to 2^50, got %v", v)
		}
	}
	p.MaxQuestions = int64(maxQ)
	s.Questions, s.Up, s.Down = int64(counts[0]), int64(counts[1]), int64(counts[2])
	if s.Up+s.Down > s.Questions {
		return nil, invalid("up", "up (%d) and down (%d) are more than the questions (%d)", s.Up, s.Down, s.Questions)
	}
	if len(sa) != len(sb) {
		return nil, invalid("b", "has %d scores and a has %d: give both sides' score on each question of the batch", len(sb), len(sa))
	}
	ds := make([]float64, len(sa))
	for i := range sa {
		ds[i] = sb[i] - sa[i]
	}
	return compare.SequentialBatch(p, s, ds)
}
