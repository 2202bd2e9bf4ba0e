package sim

import (
	"fmt"

	"github.com/flakegate/flakegate/core/stat"
)

// pairedFires is the paired t-test's decision from the per-scenario
// differences d_s of pass counts: their sum sd and sum of squares sq over n
// scenarios. With t = mean/(sd(d)/√n), t² = sd²·(n-1)/(n·sq - sd²), and the
// test fires when sd < 0 and t² >= tc2, or when the differences are all
// equal and negative (no spread: every scenario dropped alike).
func pairedFires(sd, sq int64, n int, tc2 float64) bool {
	if sd >= 0 {
		return false
	}
	den := int64(n)*sq - sd*sd // n(n-1)·sample variance of d, >= 0
	return den == 0 || float64(float64(sd)*float64(sd))*float64(n-1) >= float64(tc2*float64(den))
}

func simPtr[T any](x T) *T { return &x }

// plantShapes fills Shapes and planted from the fitted pass probabilities q.
func (r *Result) plantShapes(q []float64) {
	n := len(q)
	r.planted = make([][]float64, 4)
	var stable []int
	var sumAll, sumFlaky stat.Sum
	flaky := 0
	for s, x := range q {
		sumAll.Add(x)
		switch {
		case x == 1:
			stable = append(stable, s)
		case x > 0:
			sumFlaky.Add(x)
			flaky++
		}
	}
	target := r.Drop * float64(n) // expected scenarios lost
	scale := func(only func(x float64) bool, sum float64) ([]float64, int, string) {
		if sum < target {
			return nil, 0, fmt.Sprintf("these scenarios pass %.4g times per run on average, fewer than the %.4g to remove", sum, target)
		}
		f := target / sum
		p := make([]float64, n)
		changed := 0
		for s, x := range q {
			p[s] = x
			if only(x) && x > 0 {
				p[s] = float64(x * (1 - f))
				changed++
			}
		}
		return p, changed, ""
	}
	setStable := func(m int, to float64) ([]float64, int, string) {
		if m > len(stable) {
			return nil, 0, fmt.Sprintf("needs %d scenarios that passed every run, the baseline has %d", m, len(stable))
		}
		p := append([]float64(nil), q...)
		for _, s := range stable[:m] {
			p[s] = to
		}
		return p, m, ""
	}
	type made struct {
		name    string
		p       []float64
		changed int
		note    string
	}
	var shapes [4]made
	shapes[0].name = ShapeFlakyWorse
	if flaky == 0 {
		shapes[0].note = "no scenario went both ways"
	} else {
		shapes[0].p, shapes[0].changed, shapes[0].note = scale(func(x float64) bool { return x < 1 }, sumFlaky.Sum())
	}
	shapes[1].name = ShapeStableBreak
	shapes[1].p, shapes[1].changed, shapes[1].note = setStable(r.Broken, 0)
	shapes[2].name = ShapeStableHalf
	shapes[2].p, shapes[2].changed, shapes[2].note = setStable(r.Halved, 0.5)
	shapes[3].name = ShapeAllWorse
	shapes[3].p, shapes[3].changed, shapes[3].note = scale(func(float64) bool { return true }, sumAll.Sum())

	for i, m := range shapes {
		sh := Shape{Shape: m.name, Changed: m.changed, Note: m.note}
		if m.p != nil {
			var d stat.Sum
			for s := range q {
				d.Add(q[s])
				d.Add(-m.p[s])
			}
			sh.PlantedDrop = simPtr(d.Sum() / float64(n))
		} else {
			r.Warnings = append(r.Warnings, fmt.Sprintf("shape %s does not fit this baseline: %s", m.name, m.note))
		}
		r.planted[i] = m.p
		r.Shapes = append(r.Shapes, sh)
	}
}
