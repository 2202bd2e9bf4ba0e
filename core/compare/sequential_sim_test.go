package compare

import (
	"math/rand/v2"
)

// seqScenario is a planted comparison: each question's difference is +1
// with probability (Rho+Diff)/2, −1 with (Rho−Diff)/2, else 0 (one answer
// a side; Rho the share of questions the two sides answer differently).
type seqScenario struct {
	Rho, Diff float64
}

func (s seqScenario) draw(r *rand.Rand) float64 {
	u := r.Float64()
	switch {
	case u < (s.Rho+s.Diff)/2:
		return 1
	case u < s.Rho:
		return -1
	}
	return 0
}

// seqOutcome is what repeated sequential comparisons of a scenario gave.
type seqOutcome struct {
	Better, Worse, Futile, Capped int
	Questions                     int64 // summed over the replicates
	Reps                          int
}

func (o seqOutcome) share(n int) float64 { return float64(n) / float64(o.Reps) }
func (o seqOutcome) meanQuestions() float64 {
	return float64(o.Questions) / float64(o.Reps)
}

// simulateSeq runs reps seeded comparisons of sc with a look after every
// question, each until an answer or the plan's cap (with noFutility, a
// futility answer does not stop it: the false claims are counted over
// every look up to the cap).
func simulateSeq(p SeqPlan, sc interface{ draw(*rand.Rand) float64 }, reps int, seed uint64) seqOutcome {
	return simulate(p, sc, reps, seed, false)
}

func simulate(p SeqPlan, sc interface{ draw(*rand.Rand) float64 }, reps int, seed uint64, noFutility bool) seqOutcome {
	r := rand.New(rand.NewPCG(seed, 0x5e9))
	o := seqOutcome{Reps: reps}
	for range reps {
		var s SeqState
		v := SeqGoOn
		for v == SeqGoOn || v == SeqFutile && noFutility && s.Questions < p.MaxQuestions {
			s = p.Add(s, sc.draw(r))
			v = p.Verdict(s)
		}
		o.Questions += s.Questions
		switch v {
		case SeqBetter:
			o.Better++
		case SeqWorse:
			o.Worse++
		case SeqFutile:
			o.Futile++
		default:
			o.Capped++
		}
	}
	return o
}

// epochScenario draws a question's difference with k answers a side: the
// question's pass rate is uniform in [0,1] on side A and that plus Diff
// (clamped) on side B; d is the difference of the two sides' pass rates.
type epochScenario struct {
	K    int
	Diff float64
}

func (s epochScenario) draw(r *rand.Rand) float64 {
	p := r.Float64()
	q := min(1, max(0, p+s.Diff))
	var a, b int
	for range s.K {
		if r.Float64() < p {
			a++
		}
		if r.Float64() < q {
			b++
		}
	}
	return float64(b-a) / float64(s.K)
}
