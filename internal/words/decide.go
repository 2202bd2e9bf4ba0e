package words

import (
	"cmp"
	"fmt"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
)

// The two-arm decision, sizing and frozen claims in words: verdicts, gate
// actions and their Markdown summaries.

// GateSentence says what a two-arm gate does, as the start of a sentence.
func GateSentence(g string) string { return cmp.Or(gates[g].sentence, "The gate says "+g) }

// VerdictClause says why, from the two arms: "the pass rate fell from
// 85.0% (51/60) to 50.0% (30/60), and their 95% Wilson intervals do not
// overlap".
func VerdictClause(verdict string, baseline, patched gate.Arm, minTrials int64, confidence float64) string {
	b, p := armRates(baseline, patched)
	switch verdict {
	case core.VerdictImproved:
		return "the pass rate rose from " + b + " to " + p + ", and their " + Level(confidence) + " Wilson intervals do not overlap"
	case core.VerdictRegressed:
		return "the pass rate fell from " + b + " to " + p + ", and their " + Level(confidence) + " Wilson intervals do not overlap"
	case core.VerdictNoChange:
		return "the " + Level(confidence) + " Wilson intervals of " + b + " and " + p + " overlap, so no change is shown"
	case core.VerdictUnderpowered:
		return fmt.Sprintf("an arm has fewer than %s (baseline %s, patched %s), too few to tell: %s", Nouns(minTrials, "trial"), Count(baseline.Trials), Count(patched.Trials),
			gate.TrialsShort(minTrials, baseline.Trials, patched.Trials))
	}
	return "the verdict is " + verdict
}

// VerdictWords is a two-arm verdict in a few words, for a table cell.
func VerdictWords(verdict string) string { return cmp.Or(verdicts[verdict].words, verdict) }

// GateWords is a gate action in a few words, for a table cell.
func GateWords(g string) string { return cmp.Or(gates[g].words, g) }

// NamedArm is an arm of a two-arm decision with its name.
type NamedArm struct {
	Name string // "baseline" or "patched"
	gate.Arm
}

// DecideArms are a decision's arms as its tables list them: the baseline,
// then the patched arm.
func DecideArms(r *gate.DecideResult) []NamedArm {
	return []NamedArm{{"baseline", r.Baseline}, {"patched", r.Patched}}
}

// DecideMarkdown summarises a two-arm verdict and, when known, the trials
// per arm that would separate the observed rates.
func DecideMarkdown(r *gate.DecideResult, size *gate.SizeResult, link Link) string {
	var m md
	m.answer(DecideAnswer(r))
	var rows [][]string
	for _, a := range DecideArms(r) {
		rt := "—"
		if a.Rate != nil {
			rt = Percent(*a.Rate)
		}
		rows = append(rows, []string{a.Name, Fraction(a.Passed, a.Trials), rt, Interval(a.Lower, a.Upper)})
	}
	m.table("lrrr", []string{"arm", "passed / trials", "pass rate", Level(r.Confidence) + " Wilson interval"}, rows)
	m.para(AnytimeSentence(r))
	if size != nil {
		m.para(SizeSentence(size))
	}
	warns := r.Warnings
	if size != nil {
		for _, w := range size.Warnings {
			warns = append(warns[:len(warns):len(warns)], "sizing: "+w)
		}
	}
	m.caveats(warns)
	m.link(link)
	return m.String()
}

// SizeSentence says how many trials per arm separate two pass rates.
func SizeSentence(s *gate.SizeResult) string {
	if s.TrialsPerArm == nil {
		return fmt.Sprintf("Pass rates of %s and %s do not separate within %s trials per arm at %s confidence.",
			Percent(s.Baseline), Percent(s.Patched), Count(gate.SizeLimit), Level(s.Confidence))
	}
	return fmt.Sprintf("%s trials per arm separate pass rates of %s and %s: from there their %s Wilson intervals no longer overlap.",
		Count(*s.TrialsPerArm), Percent(s.Baseline), Percent(s.Patched), Level(s.Confidence))
}

// SizeMarkdown summarises a sizing: the trials per arm that separate two
// pass rates.
func SizeMarkdown(r *gate.SizeResult, link Link) string {
	var m md
	m.answer(SizeSentence(r))
	n := "not within " + Count(gate.SizeLimit)
	if r.TrialsPerArm != nil {
		n = Count(*r.TrialsPerArm)
	}
	m.table("rrrr", []string{"baseline pass rate", "patched pass rate", "confidence", "trials per arm"},
		[][]string{{Percent(r.Baseline), Percent(r.Patched), Level(r.Confidence), n}})
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// FreezeAnswer is a frozen claim's status in one sentence.
func FreezeAnswer(r *gate.FreezeResult) string {
	c := r.Claim
	claim := CountRate(c.Passed, c.Trials) + ", " + Level(c.Confidence) + " Wilson interval " + Interval(c.Lower, c.Upper)
	if c.Date != "" {
		claim += ", measured " + c.Date
	}
	n := r.Newer
	switch r.Status {
	case gate.FreezeValid:
		return "The claim holds: the newer rate, " + armRate(*n) + ", is inside the claim's interval (" + claim + ")."
	case gate.FreezeStale:
		return "The claim is stale: the newer rate, " + armRate(*n) + ", left the claim's interval (" + claim + "); measure the test again."
	case gate.FreezeNotComparable:
		return fmt.Sprintf("Too few newer trials to judge the claim: %s against the claim's %s (%s).", Count(n.Trials), Count(c.Trials), claim)
	}
	return "Claim recorded: " + claim + "; check it against a newer count later."
}

// FreezeMarkdown summarises a frozen rate claim and its check.
func FreezeMarkdown(r *gate.FreezeResult, link Link) string {
	var m md
	m.answer(FreezeAnswer(r))
	c := r.Claim
	rows := [][]string{{"claim", Fraction(c.Passed, c.Trials), Percent(c.Rate), Interval(c.Lower, c.Upper)}}
	if n := r.Newer; n != nil {
		rt := "—"
		if n.Rate != nil {
			rt = Percent(*n.Rate)
		}
		rows = append(rows, []string{"newer", Fraction(n.Passed, n.Trials), rt, Interval(n.Lower, n.Upper)})
	}
	m.table("lrrr", []string{"", "passed / trials", "pass rate", Level(c.Confidence) + " Wilson interval"}, rows)
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}
