package compare

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
)

// randomSides makes two sides of n questions, each answered k times a side
// (k = 0 draws 1 to 5 per question and side), with question difficulty
// drawn per question and B shifted by up to ±0.3.
func randomSides(r *rand.Rand, n, k int) (a, b *aa.Side) {
	a, b = &aa.Side{}, &aa.Side{}
	shift := (r.Float64() - 0.5) * 0.6
	for i := range n {
		p := r.Float64()
		q := min(1, max(0, p+shift+(r.Float64()-0.5)*0.4))
		id := fmt.Sprintf("q%d", i)
		a.Scenarios = append(a.Scenarios, draw(r, id, p, k))
		b.Scenarios = append(b.Scenarios, draw(r, id, q, k))
	}
	return a, b
}

func draw(r *rand.Rand, id string, p float64, k int) aa.Tally {
	if k == 0 {
		k = 1 + r.IntN(5)
	}
	t := aa.Tally{ID: id, Total: int64(k)}
	for range k {
		if r.Float64() < p {
			t.Passed++
		}
	}
	return t
}

// near reports whether got is within tol of want, relatively for |want| > 1.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

// sides parses "id:passed/total id:passed/total ..." into a side.
func sides(spec string) *aa.Side {
	s := &aa.Side{}
	for _, f := range strings.Fields(spec) {
		id, frac, _ := strings.Cut(f, ":")
		p, tot, _ := strings.Cut(frac, "/")
		pi, _ := strconv.ParseInt(p, 10, 64)
		ti, _ := strconv.ParseInt(tot, 10, 64)
		s.Scenarios = append(s.Scenarios, aa.Tally{ID: id, Passed: pi, Total: ti})
	}
	return s
}

func hasWarning(res *Result, part string) bool {
	for _, w := range res.Warnings {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}
