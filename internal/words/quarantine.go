package words

import (
	"fmt"

	"github.com/flakegate/flakegate/core/quarantine"
)

// StateWords is a quarantined test's state in a word or two, for a table
// cell: "still flaky", "stale", "released", "expired", "missing".
func StateWords(state string) string {
	if state == quarantine.StateStillFlaky {
		return "still flaky"
	}
	return state
}

// TestStateWords is a test's state for a table cell: StateWords, and
// "stale, improving" for a claim that went stale because the test got
// better (it does not block).
func TestStateWords(t quarantine.TestResult) string {
	if t.Improving {
		return "stale, improving"
	}
	return StateWords(t.State)
}

// CleanRunsSentence says what clean runs release a quarantined test, and
// why: "361 clean runs from the start of a quarantine release a test below
// 1% at 95% confidence, checked after every run: a test that still fails
// 1% of the time or more is released at most 5% of the time, however often
// it is checked (299 in a row would do for one look from one fixed
// start)."
func CleanRunsSentence(r *quarantine.CleanRunsResult) string {
	return fmt.Sprintf("%s from the start of a quarantine release a test below %s at %s confidence, checked after every run: "+
		"a test that still fails %s of the time or more is released at most %s of the time, however often it is checked "+
		"(%s in a row would do for one look from one fixed start).",
		Nouns(r.CleanRunsChecked, "clean run"), Level(r.Below), Level(r.Confidence), Level(r.Below), Level(1-r.Confidence), Count(r.CleanRuns))
}

// QuarantineAnswer is a registry check's answer in one sentence: does any
// quarantined test block the gate, and why.
func QuarantineAnswer(r *quarantine.Result) string {
	n := len(r.Tests)
	if n == 0 {
		return "The gate passes: no test is quarantined."
	}
	// A stale claim blocks only when the test got worse.
	by := map[string]int{}
	blocked := 0
	for _, t := range r.Tests {
		if t.Blocks {
			by[t.State]++
			blocked++
		}
	}
	var why []string
	for _, s := range []string{quarantine.StateStale, quarantine.StateExpired, quarantine.StateMissing} {
		if k := by[s]; k > 0 {
			why = append(why, Count(int64(k))+" "+s)
		}
	}
	if blocked == 0 {
		if n == 1 {
			return "The gate passes: its one quarantined test does not block."
		}
		return fmt.Sprintf("The gate passes: none of its %s blocks.", Nouns(n, "quarantined test"))
	}
	need := "need their owners"
	if blocked == 1 {
		need = "needs its owner"
	}
	return fmt.Sprintf("The gate blocks: %s of %s %s (%s).", Count(int64(blocked)), Nouns(n, "quarantined test"), need, join(why))
}

// QuarantineTally says how many tests are in each state that does not
// block: "2 released (they leave the registry), 9 still flaky."
func QuarantineTally(r *quarantine.Result) string {
	var parts []string
	if k := r.States.Released; k > 0 {
		parts = append(parts, Count(int64(k))+" released (proven below their target: they leave the registry)")
	}
	improving := 0
	for _, t := range r.Tests {
		if t.Improving {
			improving++
		}
	}
	if improving > 0 {
		parts = append(parts, Count(int64(improving))+" improving (stale because the test got better: no block, the clean runs still decide the release)")
	}
	if k := r.States.StillFlaky; k > 0 {
		parts = append(parts, Count(int64(k))+" still flaky")
	}
	if len(parts) == 0 {
		return ""
	}
	return capitalize(join(parts)) + "."
}

// QuarantineSentence says one test's state and its evidence, in lower
// case: "stale: since its claim it passed 27/40 (67.5%), outside the
// claimed 95% Wilson interval [86.3%, 98.3%] (57/60 on 2026-11-20); measure
// it again: 20 more trials (as many as the claim's) replace the claim, if
// the rate stays outside it".
func QuarantineSentence(t quarantine.TestResult) string {
	rel := t.Release
	c := t.Claim
	claim := fmt.Sprintf("%s Wilson interval %s (%s on %s)", Level(c.Confidence), Interval(c.Lower, c.Upper), Fraction(c.Passed, c.Trials), c.Date)
	still := fmt.Sprintf("%s would prove it below %s if none fails", Nouns(rel.Remaining, "more clean run"), Level(rel.Below))
	switch t.State {
	case quarantine.StateReleased:
		return fmt.Sprintf("released: its %s since the count started, %s with a failure, prove its failure rate below %s at %s confidence, however often it was checked; it leaves the registry",
			Nouns(rel.Runs, "run"), Count(rel.Failed), Level(rel.Below), Level(rel.Confidence))
	case quarantine.StateStale:
		again := "measured again in full, so a writing check makes this count its claim"
		if more := c.Trials - t.Since.Trials; more > 0 {
			again = fmt.Sprintf("measure it again: %s more (as many as the claim's) replace the claim, if the rate stays outside it", Nouns(more, "trial"))
		}
		if t.Improving {
			return fmt.Sprintf("improving: since its claim it passed %s, which rules out the claimed %s from above at any look, so it does not block; %s (%s counted, %s with a failure); %s",
				armRate(t.Since), claim, still, Nouns(rel.Runs, "run"), Count(rel.Failed), again)
		}
		return fmt.Sprintf("stale: since its claim it passed %s, which rules out the claimed %s from below at any look; %s",
			armRate(t.Since), claim, again)
	case quarantine.StateExpired:
		return fmt.Sprintf("expired: its quarantine ended %s (%s ago) without release; it blocks until %s renews it or the test is deleted (%s)",
			t.Expires, Nouns(-t.DaysLeft, "day"), t.Owner, still)
	case quarantine.StateMissing:
		return fmt.Sprintf("missing: not in the new reports; if it was renamed, map the old id to the new one to keep the %s already counted, and if it was deleted, remove it",
			Nouns(c.Trials+t.Since.Trials, "trial"))
	}
	holds := "too few trials since it to judge it (" + Count(t.Since.Trials) + ")"
	if t.Comparable {
		holds = "since it the test passed " + armRate(t.Since) + ", inside it"
	}
	s := fmt.Sprintf("still flaky: %s (%s counted, %s with a failure); its claim holds, %s: %s", still, Nouns(rel.Runs, "run"), Count(rel.Failed), claim, holds)
	if b := t.Budget; b.Reruns != nil && b.Power != nil {
		s += fmt.Sprintf("; %s catch its flake %s of the time (%s)", Nouns(*b.Reruns, "rerun"), Percent(*b.Power), LaneWords(b.Lane))
	}
	return s
}

// quarantineOrder is the tests in the order a summary lists them: those
// that block, then the released, then the still flaky, each by id.
func quarantineOrder(r *quarantine.Result) []quarantine.TestResult {
	rank := func(t quarantine.TestResult) int {
		switch {
		case t.Blocks:
			return 0
		case t.State == quarantine.StateReleased:
			return 1
		case t.Improving:
			return 2
		}
		return 3
	}
	// Rank by rank, each in the registry's order: a stable sort by rank
	// without a sort's code for this type in app.wasm.
	out := make([]quarantine.TestResult, 0, len(r.Tests))
	for k := range 4 {
		for _, t := range r.Tests {
			if rank(t) == k {
				out = append(out, t)
			}
		}
	}
	return out
}

// QuarantineRow is a test's row in the summary's table: test, state,
// owner, claim, since the claim, clean runs, reruns and lane, expiry.
func QuarantineRow(t quarantine.TestResult) []string {
	since := "—"
	if t.Since.Trials > 0 {
		since = armRate(t.Since)
	}
	reruns := "—"
	if b := t.Budget; b.Reruns != nil {
		reruns = Count(*b.Reruns) + " (" + LaneWords(b.Lane) + ")"
	}
	expires := t.Expires
	switch {
	case t.DaysLeft < 0:
		expires += " (expired)"
	case t.DaysLeft == 0:
		expires += " (last day)"
	}
	id := t.Test
	if t.RenamedFrom != "" {
		id += " (was " + t.RenamedFrom + ")"
	}
	return []string{id, TestStateWords(t), t.Owner, CountRate(t.Claim.Passed, t.Claim.Trials), since,
		Count(t.Release.Remaining) + " of " + Count(t.Release.Needed), reruns, expires}
}

// QuarantineHead is the header of the summary's table.
var QuarantineHead = []string{"test", "state", "owner", "claim", "since the claim", "clean runs to release", "reruns (lane)", "expires"}

// QuarantineMarkdown summarises a check of the quarantine registry: the
// answer, the table of every test (those that block first), what each test
// that blocks or leaves must do, and how clean runs prove a release.
func QuarantineMarkdown(r *quarantine.Result, link Link) string {
	var m md
	m.answer(QuarantineAnswer(r))
	checked := "Checked " + r.Today + " against " + Nouns(r.Runs, "run") + " of new reports."
	if !r.Reports {
		checked = "Checked " + r.Today + " against the registry's own evidence: no new reports, so nothing new is counted and no test can be missing."
	}
	if t := QuarantineTally(r); t != "" {
		checked += " " + t
	}
	m.para(checked)
	order := quarantineOrder(r)
	var rows [][]string
	var says []string
	for i, t := range order {
		if i < MaxMarkdownRows {
			rows = append(rows, QuarantineRow(t))
		}
		if t.State != quarantine.StateStillFlaky {
			says = append(says, t.Test+" — "+QuarantineSentence(t)+".")
		}
	}
	m.table("lllrrrrl", QuarantineHead, rows)
	if more := len(order) - MaxMarkdownRows; more > 0 {
		m.para(fmt.Sprintf("The other %s, all still flaky, are in the JSON.", Nouns(more, "test")))
	}
	m.list(says)
	if len(r.Tests) > 0 {
		m.para(cleanRunsRule + " " + releaseRules(r) + ".")
	}
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// cleanRunsRule explains clean runs where a summary uses them; the
// release rules of the tests follow it.
const cleanRunsRule = "A clean run is an independent run (a report file, or a run of a ledger; go test -count=20 in one file is one run) " +
	"in which every execution of the test passed, counted once however often it is given. Every run since the quarantine started counts, " +
	"failures included, and the count never restarts, so the proof holds however often the registry is checked (docs/STATISTICS.md). With no failure,"

// releaseRules lists the release rules of a check's tests, each once, in
// the order first met: "below 1% at 95% takes 299 and below 10% at 95%
// takes 29".
func releaseRules(r *quarantine.Result) string {
	var rules []string
	seen := map[quarantine.Release]bool{}
	for _, t := range r.Tests {
		k := quarantine.Release{Below: t.Release.Below, Confidence: t.Release.Confidence}
		if seen[k] {
			continue
		}
		seen[k] = true
		rules = append(rules, fmt.Sprintf("below %s at %s takes %s clean runs from the start", Level(k.Below), Level(k.Confidence), Count(t.Release.Needed)))
	}
	return join(rules)
}

// CleanRunsMarkdown is the clean runs a release rule needs, as a summary.
func CleanRunsMarkdown(r *quarantine.CleanRunsResult, link Link) string {
	var m md
	m.answer(CleanRunsSentence(r))
	m.para(fmt.Sprintf("%s %s clean runs from the start prove it, and one fewer would not do. "+
		"At one look from one fixed start, m clean runs in a row would do when (1 − p)^m ≤ 1 − c: here (1 − %s)^%d ≤ 1 − %s.",
		cleanRunsRule, Count(r.CleanRunsChecked), Exact(r.Below), r.CleanRuns, Exact(r.Confidence)))
	m.caveats(r.Warnings)
	m.link(link)
	return m.String()
}

// RegistryTooLong says that a registry's check (bytes of link) is too long
// for a link, which then holds the date of the check only.
func RegistryTooLong(bytes int) string {
	return "This registry is too long for a link (" + Count(int64(bytes)/1024+1) + " KB): the link holds the date of the check, not the registry. Share the registry file with it and drop it on the page."
}
