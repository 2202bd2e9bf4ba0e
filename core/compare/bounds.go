package compare

import "github.com/flakegate/flakegate/core"

// A difference of two accuracies lies in [−1, 1], but a t interval on few
// questions (or few clusters) can reach past it: with 3 questions and t on
// 2 degrees of freedom, ±4.3 standard errors. Cutting the interval to the
// bounds changes no coverage (the true difference is inside them) and
// stops the answer quoting differences accuracy cannot take; an interval
// cut at both ends covers every difference there is, and says nothing.

// cutToBounds cuts [low, high] to [−1, 1] and says which ends it cut.
func cutToBounds(low, high float64) (lo, hi float64, cutLow, cutHigh bool) {
	return max(low, -1), min(high, 1), low < -1, high > 1
}

// bound cuts the result's intervals (and the clustered one) to [−1, 1],
// with a warning for each cut, and sets TooFew when the quoted interval
// (the clustered one with clusters) covers every difference.
func bound(res *Result) {
	var cl, ch bool
	res.Low, res.High, cl, ch = cutToBounds(res.Low, res.High)
	if cl || ch {
		res.Warnings = append(res.Warnings, "the t interval reached past what a difference in accuracy can be (−100 to 100 points) and is cut to those bounds")
	}
	quoted := cl && ch
	if c := res.Cluster; c != nil {
		c.Low, c.High, cl, ch = cutToBounds(c.Low, c.High)
		if cl || ch {
			res.Warnings = append(res.Warnings, "the clustered interval reached past −100 to 100 points and is cut to those bounds")
		}
		quoted = cl && ch
	}
	if quoted {
		res.TooFew = true
		res.Warnings = append(res.Warnings, core.Nouns(res.Questions, "question")+" are too few to say anything: the interval covers every difference accuracy can take")
	}
}
