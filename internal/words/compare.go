package words

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/share"
)

// The comparison of two models in sentences: the answer (how many points
// B gains or loses, its interval, how many questions flipped each way and
// the test that fits), then what the interval means, the exact test on the
// flips, the answer noise, the clusters and what the eval can detect. Each
// sentence explains its terms where it uses them.

// pointsOne is a difference of fractions in percentage points with one
// decimal and no unit, a negative one with Minus: "3.1", "−0.4".
func pointsOne(v float64) string {
	s := strconv.FormatFloat(100*v, 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	if s[0] == '-' {
		s = Minus + s[1:]
	}
	return s
}

// oneRun reports whether every question was answered once a side.
func oneRun(r *compare.Result) bool { return r.McNemar != nil }

// interval is the interval the answer quotes: the clustered one when
// there are clusters.
func interval(r *compare.Result) (low, high, p float64, how string) {
	if c := r.Cluster; c != nil {
		return c.Low, c.High, c.PValue, ", clustered by " + c.Field
	}
	return r.Low, r.High, r.PValue, ""
}

// CompareAnswer is the answer a reviewer pastes: "B answers 3.1 points more
// questions right (95% interval 1.2 to 5.0); 41 questions went from wrong
// to right and 19 from right to wrong; McNemar p = 0.006".
func CompareAnswer(r *compare.Result) string {
	low, high, p, how := interval(r)
	var s string
	ci := fmt.Sprintf("(%s interval %s to %s%s)", Level(r.Level), pointsOne(low), pointsOne(high), how)
	switch pts := pointsOne(math.Abs(r.Diff)); {
	case r.TooFew:
		s = fmt.Sprintf("%s are too few to say whether B or A is better: B − A is %s points, and the %s interval%s covers every difference accuracy can take (−100 to 100 points)",
			Nouns(r.Questions, "question"), pointsOne(r.Diff), Level(r.Level), how)
	case r.Diff == 0 && oneRun(r):
		s = "B and A answer exactly the same share of questions right " + ci
	case r.Diff == 0:
		s = "B and A score exactly the same on average " + ci
	case pts == "0.0" && oneRun(r):
		s = "B and A answer the same share of questions right, within 0.05 points " + ci
	case pts == "0.0":
		s = "B and A score the same, within 0.05 points " + ci
	case oneRun(r) && r.Diff > 0:
		s = "B answers " + pts + " points more questions right " + ci
	case oneRun(r):
		s = "B answers " + pts + " points fewer questions right " + ci
	case r.Diff > 0:
		s = "B scores " + pts + " points higher " + ci
	default:
		s = "B scores " + pts + " points lower " + ci
	}
	if oneRun(r) {
		s += fmt.Sprintf("; %s went from wrong to right and %s from right to wrong", Nouns(r.Improved, "question"), Count(int64(r.Worsened)))
		if r.Cluster == nil {
			return s + "; McNemar p = " + PValue(r.McNemar.PValue) + "."
		}
	} else {
		s += fmt.Sprintf("; %s scored higher and %s lower", Nouns(r.Improved, "question"), Count(int64(r.Worsened)))
	}
	test := "paired t-test"
	if how != "" {
		test = "clustered t-test"
	}
	return s + "; " + test + " p = " + PValue(p) + "."
}

// CompareStory is the comparison's sentences after the answer, the empty
// ones left out.
func CompareStory(r *compare.Result) []string {
	var out []string
	for _, s := range []string{ComparePairing(r), CompareMeaning(r), CompareMcNemar(r), CompareNoise(r), CompareCluster(r), ComparePower(r)} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// epochsWords is "1 run", "3 epochs" or "1 to 5 epochs" for a side.
func epochsWords(s compare.Side) string {
	if s.Epochs == nil {
		return "a varying number of answers per question"
	}
	if *s.Epochs == 1 {
		return "one answer per question"
	}
	return Nouns(*s.Epochs, "answer") + " per question"
}

// ComparePairing says what was paired and what was left out.
func ComparePairing(r *compare.Result) string {
	with := "A with " + epochsWords(r.A) + ", B with " + epochsWords(r.B)
	if ea, eb := r.A.Epochs, r.B.Epochs; ea != nil && eb != nil && *ea == *eb {
		with = "each with " + epochsWords(r.A)
	}
	s := fmt.Sprintf("Paired by question: %s both sides answered (%s); A answers %s of them right, B %s.",
		Nouns(r.Questions, "question"), with, Percent(r.A.Accuracy), Percent(r.B.Accuracy))
	switch a, b := r.A.OnlyCount, r.B.OnlyCount; {
	case a > 0 && b > 0:
		s += fmt.Sprintf(" Left out: %s only A has and %s only B has.", Nouns(a, "question"), Count(int64(b)))
	case a > 0:
		s += fmt.Sprintf(" Left out: %s only A has.", Nouns(a, "question"))
	case b > 0:
		s += fmt.Sprintf(" Left out: %s only B has.", Nouns(b, "question"))
	}
	return s
}

// CompareMeaning says whether the interval excludes no change.
func CompareMeaning(r *compare.Result) string {
	low, high, _, _ := interval(r)
	what := "The interval is the range of differences these questions are consistent with"
	switch {
	case low > 0:
		return what + "; it lies above zero, so B is better on questions like these, not only on these."
	case high < 0:
		return what + "; it lies below zero, so B is worse on questions like these, not only on these."
	}
	return what + "; it includes zero, so this eval cannot tell the two apart."
}

// CompareMcNemar explains the exact test on the flipped questions.
func CompareMcNemar(r *compare.Result) string {
	m := r.McNemar
	if m == nil {
		return ""
	}
	n := m.WrongToRight + m.RightToWrong
	if n == 0 {
		return "No question changed between A and B, so McNemar's test (which counts only the questions that changed) has nothing to weigh."
	}
	return fmt.Sprintf("McNemar's exact test counts only the %s that changed: were B no better than A, each would be as likely to go one way as the other, and a split of %s to %s or more lopsided happens with probability p = %s (mid-p %s).",
		Nouns(n, "question"), Count(m.WrongToRight), Count(m.RightToWrong), PValue(m.PValue), PValue(m.MidP))
}

// CompareNoise says how much of the uncertainty more epochs would remove.
func CompareNoise(r *compare.Result) string {
	nz := r.Noise
	if nz == nil {
		if oneRun(r) {
			return "With one answer per question, answer noise (the same question answered again) and question sampling cannot be told apart; run each question 2 or more times (epochs) on both sides to split them."
		}
		return ""
	}
	return fmt.Sprintf("Answer noise (the same question answered again can go another way) makes %s of the squared standard error and question sampling (which questions the eval happens to hold) the rest: more epochs could shrink the standard error from %s to no less than %s points.",
		Percent(nz.AnswerShare), pointsTwo(r.SE), pointsTwo(nz.SEQuestion))
}

// pointsTwo is a fraction in points with two decimals, no unit.
func pointsTwo(v float64) string { return strconv.FormatFloat(100*v, 'f', 2, 64) }

// CompareCluster says what the clusters do to the standard error.
func CompareCluster(r *compare.Result) string {
	c := r.Cluster
	if c == nil {
		return ""
	}
	return fmt.Sprintf("Questions that share a %s are not independent: clustered by %s (%s), the standard error is %s points instead of %s (a design effect of %s: the clusters multiply the variance by that), and the interval is %s to %s.",
		c.Field, c.Field, Nouns(c.Clusters, c.Field), pointsTwo(c.SE), pointsTwo(r.SE), strconv.FormatFloat(c.DesignEffect, 'f', 2, 64), pointsOne(c.Low), pointsOne(c.High))
}

// ComparePower says what change this eval detects, and what it takes to
// detect the planned one.
func ComparePower(r *compare.Result) string {
	p := r.Plan
	size := Nouns(r.Questions, "question")
	if e := r.A.Epochs; e != nil && r.B.Epochs != nil && *e == *r.B.Epochs && *e > 1 {
		size += " and " + Nouns(*e, "epoch")
	}
	var s string
	if p.MDE >= 1 {
		s = fmt.Sprintf("With %s this eval is too small to detect even a 100-point change %s of the time", size, Level(p.Power))
	} else {
		s = fmt.Sprintf("With %s this eval detects a %s-point change %s of the time", size, pointsOne(p.MDE), Level(p.Power))
	}
	s += fmt.Sprintf(" (two-sided, at %s); a %s-point change it detects %s of the time", Level(r.Level), pointsOne(p.Effect), Percent(p.PowerAtEffect))
	if p.QuestionsNeeded > int64(r.Questions) {
		s += fmt.Sprintf(", and detecting it %s of the time takes about %s", Level(p.Power), Nouns(p.QuestionsNeeded, "question"))
		if len(p.Epochs) > 0 {
			s += " at these epochs"
		}
	}
	return s + "."
}

// FlipWords is how a flipped question's change reads: "wrong → right" for
// one answer a side, "33.3% → 100.0%" otherwise.
func FlipWords(r *compare.Result, f compare.Flip) string {
	if oneRun(r) {
		if f.B > f.A {
			return "wrong → right"
		}
		return "right → wrong"
	}
	return Percent(f.A) + " → " + Percent(f.B)
}

// CompareMarkdown summarises a comparison: the answer, the flipped
// questions, the story, the figures and the plan.
func CompareMarkdown(r *compare.Result, link Link) string {
	var m md
	m.answer(CompareAnswer(r))
	var rows [][]string
	for _, f := range r.Flips {
		rows = append(rows, []string{f.ID, FlipWords(r, f)})
	}
	if len(rows) > 0 {
		m.para(flippedHead(r))
		m.table("ll", []string{"question", "A → B"}, rows)
	}
	m.list(CompareStory(r))
	m.table("lr", []string{"figure", "value"}, CompareFigures(r))
	rows = nil
	for _, e := range r.Plan.Epochs {
		rows = append(rows, []string{Count(int64(e.Epochs)), pointsOne(e.MDE) + " pts", Count(e.QuestionsNeeded)})
	}
	m.table("rrr", []string{"epochs", "detects " + Level(r.Plan.Power) + " of the time at " + Count(int64(r.Questions)) + " questions",
		"questions to detect " + pointsOne(r.Plan.Effect) + " pts"}, rows)
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// flippedHead introduces the list of flipped questions, saying when it is
// cut short.
func flippedHead(r *compare.Result) string {
	up, down := "went from wrong to right", "from right to wrong"
	if !oneRun(r) {
		up, down = "scored higher", "lower"
	}
	s := fmt.Sprintf("Questions that changed: %s %s, %s %s", Count(int64(r.Improved)), up, Count(int64(r.Worsened)), down)
	if shown := len(r.Flips); shown < r.Improved+r.Worsened {
		s += fmt.Sprintf(" (the largest %s of each shown)", Count(int64(maxListed(r))))
	}
	return s + "."
}

// maxListed is how many flips of each way the result lists.
func maxListed(r *compare.Result) int {
	up := 0
	for _, f := range r.Flips {
		if f.B > f.A {
			up++
		}
	}
	return max(up, len(r.Flips)-up)
}

// CompareFigures is the figures' table: each a label and a value.
func CompareFigures(r *compare.Result) [][]string {
	rows := [][]string{
		{"questions paired", Count(int64(r.Questions))},
		{"accuracy A, B", Percent(r.A.Accuracy) + ", " + Percent(r.B.Accuracy)},
		{"difference B − A", Points(r.Diff)},
		{"standard error (paired)", Points(r.SE)},
		{Level(r.Level) + " interval (t, " + Nouns(r.DF, "degree") + " of freedom)", Points(r.Low) + " to " + Points(r.High)},
		{"paired t-test p", PValue(r.PValue)},
	}
	if m := r.McNemar; m != nil {
		rows = append(rows, []string{"McNemar exact p, mid-p", PValue(m.PValue) + ", " + PValue(m.MidP)})
	}
	if nz := r.Noise; nz != nil {
		rows = append(rows,
			[]string{"standard error from answer noise", Points(nz.SEAnswer)},
			[]string{"standard error from question sampling", Points(nz.SEQuestion)})
	}
	if c := r.Cluster; c != nil {
		rows = append(rows,
			[]string{"clustered standard error (" + Nouns(c.Clusters, c.Field) + ")", Points(c.SE)},
			[]string{"clustered interval", Points(c.Low) + " to " + Points(c.High)},
			[]string{"design effect", strconv.FormatFloat(c.DesignEffect, 'f', 2, 64)})
	}
	rows = append(rows, []string{"minimum detectable effect (" + Level(r.Plan.Power) + " power)", Points(r.Plan.MDE)})
	return rows
}

// CompareTooLong says that a comparison's questions (bytes of link) are too
// many for a link.
func CompareTooLong(bytes int) string {
	return fmt.Sprintf("These questions take %s bytes as a link, over the %s-byte limit: drop the logs on the calculator's comparison view instead.",
		Count(int64(bytes)), Count(share.MaxFragment))
}

// CompareLink is the link of a comparison on site (LinkOf), whose note also
// says, when the logs had reading notes (notes true), that the view shows
// the figures without them.
func CompareLink(v share.View, site string, notes bool) Link {
	l := LinkOf(v, site)
	if site != "" && notes {
		l.Note = strings.TrimSpace(l.Note + " The calculator shows these figures without the logs' reading notes.")
	}
	return l
}
