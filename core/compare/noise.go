package compare

import (
	"math"

	"github.com/flakegate/flakegate/core/aa"

	"github.com/flakegate/flakegate/core/stat"
)

// Noise splits the variance of a question's difference d_i = b_i − a_i
// into the part that answering the same question again would change
// (answer noise) and the part that choosing other questions would
// (question sampling), as Miller (2024, "Adding Error Bars to Evals")
// splits an eval score's variance by the law of total variance. With k trials of a question
// whose pass rate is p̂ on a side, p̂(1−p̂)/(k−1) is an unbiased estimate of
// the variance its trials add to p̂, so
//
//	W = mean over questions of [p̂_A(1−p̂_A)/(k_A−1) + p̂_B(1−p̂_B)/(k_B−1)]
//	Q = max(0, s²_d − W)        s²_d the sample variance of the d_i
//	S = mean over questions of [k_A·p̂_A(1−p̂_A)/(k_A−1) + k_B·p̂_B(1−p̂_B)/(k_B−1)]
//
// and SE² = s²_d/n = (Q + W)/n: more epochs shrink W, more questions both.
type Noise struct {
	// AnswerVariance is W, the variance of a question's difference that
	// its answers' randomness adds at these epochs.
	AnswerVariance float64 `json:"answer_variance"`
	// QuestionVariance is Q, the variance of the questions' true
	// differences; 0 when W is at least s²_d.
	QuestionVariance float64 `json:"question_variance"`
	// AnswerShare is W/s²_d capped at 1: the share of the squared standard
	// error more epochs would remove, in [0,1].
	AnswerShare float64 `json:"answer_share"`
	SEAnswer    float64 `json:"se_answer"`   // √(W/n), a fraction
	SEQuestion  float64 `json:"se_question"` // √(Q/n): the standard error with endless epochs
	// TrialVariance is S, the variance of one answer on each side, summed:
	// a question's difference varies by Q + S/K at K epochs a side.
	TrialVariance float64 `json:"trial_variance"`
}

// noiseOf needs two or more trials of every paired question on both sides.
func noiseOf(pairs []pair, d []float64) (*Noise, []string) {
	single, multi := false, false
	for _, p := range pairs {
		if p.a.Total < 2 || p.b.Total < 2 {
			single = true
		} else {
			multi = true
		}
	}
	if single {
		if multi {
			return nil, []string{"some questions have one trial on a side: splitting answer noise from question sampling needs 2 or more trials (epochs) of every question on both sides"}
		}
		return nil, nil
	}
	var w, s stat.Sum
	for _, p := range pairs {
		wa, wb := trialVar(p.a), trialVar(p.b)
		w.Add(wa / float64(p.a.Total-1))
		w.Add(wb / float64(p.b.Total-1))
		s.Add(float64(wa*float64(p.a.Total)) / float64(p.a.Total-1))
		s.Add(float64(wb*float64(p.b.Total)) / float64(p.b.Total-1))
	}
	n := float64(len(pairs))
	nz := &Noise{AnswerVariance: w.Sum() / n, TrialVariance: s.Sum() / n}
	var warns []string
	s2 := 0.0
	if !equalDiffs(pairs) {
		s2 = stat.SampleVariance(d)
	}
	nz.QuestionVariance = max(0, s2-nz.AnswerVariance)
	if s2 > 0 {
		nz.AnswerShare = min(1, nz.AnswerVariance/s2)
	}
	if nz.AnswerVariance > s2 && s2 > 0 {
		warns = append(warns, "the answers' noise accounts for all the spread between questions' differences; the questions' own spread is taken as 0")
	}
	nz.SEAnswer = math.Sqrt(nz.AnswerVariance / n)
	nz.SEQuestion = math.Sqrt(nz.QuestionVariance / n)
	return nz, warns
}

// trialVar is p̂(1−p̂) of a tally.
func trialVar(t aa.Tally) float64 {
	p := rate(t)
	return float64(p * (1 - p))
}
