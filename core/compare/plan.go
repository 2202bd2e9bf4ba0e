package compare

import (
	"math"

	"github.com/flakegate/flakegate/core/stat"
)

// Plan says how large a change this eval can see, and how many questions
// and epochs would see a chosen one. A two-sided test at level α = 1−Level
// whose estimate has standard error SE detects a true change δ with
// probability
//
//	power(δ) = Φ(δ/SE − z_{1−α/2}) + Φ(−δ/SE − z_{1−α/2})
//
// and the minimum detectable effect at power π is MDE = (z_{1−α/2} + z_π)·SE
// (the normal approximation, as Miller 2024 plans an eval's size). With n questions,
// K epochs on each side and the split of Noise, SE² = (Q_c + S/K)/n, so
// the questions needed for δ are ⌈(z_{1−α/2} + z_π)²·(Q_c + S/K)/δ²⌉.
// Q_c is the questions' part of the variance: n·SE² − W with SE the
// clustered standard error when there are clusters (answers are
// independent across questions even within a cluster, so the clusters
// inflate only this part), which is Q without them.
type Plan struct {
	Power float64 `json:"power"` // the target, in (0,1)
	// MDE is the smallest change this eval (its questions and epochs)
	// detects with probability Power, a fraction.
	MDE    float64 `json:"mde"`
	Effect float64 `json:"effect"` // the change planned for, a fraction
	// PowerAtEffect is the probability this eval detects a change of
	// Effect, in [0,1].
	PowerAtEffect float64 `json:"power_at_effect"`
	// QuestionsNeeded is the questions that detect Effect with probability
	// Power at this eval's epochs and noise.
	QuestionsNeeded int64 `json:"questions_needed"`
	// DesignEffect is the clusters' variance inflation at this eval's
	// epochs (1 without clusters).
	DesignEffect float64 `json:"design_effect"`
	// Epochs plans 1, 2, 3, 5 and 10 epochs a side; empty without the
	// split of answer noise from question sampling.
	Epochs []PlanRow `json:"epochs"`
}

// PlanRow is the plan at one number of epochs.
type PlanRow struct {
	Epochs          int     `json:"epochs"`           // trials of each question on each side
	MDE             float64 `json:"mde"`              // at this eval's questions, a fraction
	QuestionsNeeded int64   `json:"questions_needed"` // to detect Effect with probability Power
}

// planEpochs are the epochs a plan lists.
var planEpochs = []int{1, 2, 3, 5, 10}

func plan(res *Result, d []float64, opt Options) Plan {
	n := float64(len(d))
	se := res.SE
	p := Plan{Power: opt.Power, Effect: opt.Effect, DesignEffect: 1, Epochs: []PlanRow{}}
	if res.Cluster != nil {
		se, p.DesignEffect = res.Cluster.SE, res.Cluster.DesignEffect
	}
	v := float64(se*se) * n // the variance of one question's difference, clusters included
	p.MDE = MDE(v, n, opt.Level, opt.Power)
	p.PowerAtEffect = PowerAt(opt.Effect, v, n, opt.Level)
	p.QuestionsNeeded = QuestionsNeeded(v, opt.Effect, opt.Level, opt.Power)
	if nz := res.Noise; nz != nil {
		// Answers are independent across questions, clusters or not: the
		// clusters inflate only the questions' part of v.
		q := max(0, v-nz.AnswerVariance)
		for _, k := range planEpochs {
			vk := q + nz.TrialVariance/float64(k)
			p.Epochs = append(p.Epochs, PlanRow{Epochs: k, MDE: MDE(vk, n, opt.Level, opt.Power),
				QuestionsNeeded: QuestionsNeeded(vk, opt.Effect, opt.Level, opt.Power)})
		}
	}
	return p
}

// zSum is z_{1−α/2} + z_π for a two-sided test at level (confidence) and
// power π.
func zSum(level, power float64) float64 { return stat.Z(level) + stat.Z(float64(2*power)-1) }

// MDE is the smallest change a two-sided test at confidence level detects
// with probability power, when one question's difference has variance v
// and there are n questions: (z_{1−α/2} + z_π)·√(v/n).
func MDE(v, n, level, power float64) float64 {
	return zSum(level, power) * math.Sqrt(v/n)
}

// PowerAt is the probability that a two-sided test at confidence level
// detects a change of effect, with variance v per question and n questions.
// With v = 0 any change is detected.
func PowerAt(effect, v, n, level float64) float64 {
	se := math.Sqrt(v / n)
	if se == 0 {
		if effect == 0 {
			return 1 - level
		}
		return 1
	}
	z := stat.Z(level)
	return stat.NormalSurvival(z-effect/se) + stat.NormalSurvival(z+effect/se)
}

// QuestionsNeeded is the questions at which a two-sided test at confidence
// level detects effect with probability power, with variance v per
// question: ⌈(z_{1−α/2} + z_π)²·v/effect²⌉, and at least 2.
func QuestionsNeeded(v, effect, level, power float64) int64 {
	z := zSum(level, power)
	return max(2, stat.SnapCeil(float64(z*z)*v/float64(effect*effect)))
}
