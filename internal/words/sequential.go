package words

import (
	"fmt"
	"strconv"

	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/stat"
)

// The sequential comparison in sentences: the answer so far (B better, B
// worse, no difference as large as planned, or go on) with the questions
// it rests on, and the evidence behind it.

// SequentialAnswer is the answer a reviewer pastes: "B is better: after
// 412 of 500 questions, …".
func SequentialAnswer(r *compare.Sequential) string {
	after := fmt.Sprintf("after %s of the %s both sides answered", Nouns(r.Used, "question"), Count(int64(r.Paired)))
	conf := Level(r.Plan.Level)
	switch r.Verdict {
	case compare.SeqBetter:
		return fmt.Sprintf("B is better than A (%s confidence, valid however often this is checked): %s, B answers %s points more right; stop the eval here.", conf, after, pointsOne(r.Diff))
	case compare.SeqWorse:
		return fmt.Sprintf("B is worse than A (%s confidence, valid however often this is checked): %s, B answers %s points fewer right; stop the eval here.", conf, after, pointsOne(-r.Diff))
	case compare.SeqFutile:
		return fmt.Sprintf("B and A differ by less than the planned %s points either way (a difference that large is ruled out at %s of power kept): %s; stop the eval here.", pointsOne(r.Plan.Effect), Percent(r.Plan.Power), after)
	case compare.SeqCapped:
		return fmt.Sprintf("No answer within the cap of %s: neither a difference nor its absence is shown (%s, B − A = %s points); stop the eval here.", Nouns(r.Plan.MaxQuestions, "question"), after, pointsOne(r.Diff))
	}
	return fmt.Sprintf("Go on: %s, the evidence is not yet enough for an answer at %s (B − A = %s points so far); add questions and check again.", after, conf, pointsOne(r.Diff))
}

// evidence is an e-process's value e^log as a plain number: "3.2", "1.2e+05".
func evidence(log float64) string {
	return strconv.FormatFloat(stat.Exp(log), 'g', 3, 64)
}

// SequentialFigures is the figures' table: each a label and a value.
func SequentialFigures(r *compare.Sequential) [][]string {
	s := r.State
	need := evidence(r.Threshold)
	return [][]string{
		{"verdict", r.Verdict},
		{"questions used, paired", Count(s.Questions) + ", " + Count(int64(r.Paired))},
		{"B higher, lower, same", Count(s.Up) + ", " + Count(s.Down) + ", " + Count(s.Questions-s.Up-s.Down)},
		{"difference B − A (questions used)", Points(r.Diff)},
		{"evidence B better, B worse (a claim needs " + need + ")", evidence(s.LogBetter) + ", " + evidence(s.LogWorse)},
		{"evidence of no " + pointsOne(r.Plan.Effect) + "-point difference, up and down (needs " + evidence(-stat.Log(1-r.Plan.Power)) + " each)", evidence(s.LogNotAbove) + ", " + evidence(s.LogNotBelow)},
	}
}

// SequentialMarkdown summarises a sequential comparison.
func SequentialMarkdown(r *compare.Sequential) string {
	var m md
	m.answer(SequentialAnswer(r))
	m.para("Each evidence is a bet against one hypothesis that starts at 1 and grows when the answers contradict it; checked after every question, it reaches 1/α falsely with probability at most α (Ville's inequality), so this answer stays valid however often it is looked at.")
	m.table("lr", []string{"figure", "value"}, SequentialFigures(r))
	m.caveats(r.Warnings)
	return m.String()
}
