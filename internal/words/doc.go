// Package words is the wording flakegate's people-facing surfaces share:
// the units figures are written in and the Markdown summaries of results.
// The CLI and the calculator page both take their words from here, so the
// same figure reads the same on each ("7.9 min" of runner time, "95.0%"
// power, "−5.69 pts").
//
// Units: fractions in [0,1] become percentages (Percent, FixedPercent,
// RatePercent, Level), differences of fractions become percentage points
// (Points), rates stay fractions (Rate), seconds become the largest unit
// that keeps the number readable (Duration), counts get thousands
// separators (Count, and Nouns and Fraction, which write counts with it:
// one number format everywhere, never "1200" beside "1 200"). Exact writes
// a number so that it parses back to the same float64.
//
// Markdown: BudgetMarkdown, FlakesMarkdown, DecideMarkdown, SizeMarkdown,
// FreezeMarkdown, LedgerMarkdown, AAMarkdown, QuarantineMarkdown,
// CompareMarkdown and HistoryMarkdown turn a result of the core packages
// into the summary a reviewer reads in a pull request, the same
// bytes from the CLI (-markdown) and the page (Copy as Markdown): the
// answer in one plain sentence first, then the table of figures, then the
// caveats, then the Link that reopens the view (or the note of why there is
// none). The sentences are exported too (BudgetSentence, GateSentence, ...)
// so that every surface says a thing the same way. The A/A check's are a
// story in the order of docs/STATISTICS.md, A/A check (AAStory: AANoise, AADrop, AATrend,
// AAFixedRule, and for a candidate AACandidate, AASure, AAMoved).
//
// One file a result: budget.go, flakes.go, decide.go (with sizing and
// frozen claims), ledger.go, aa.go and aa_markdown.go, quarantine.go,
// compare.go, history.go, anytime.go; markdown.go holds the Markdown
// builder and the links every summary ends with, units.go the units.
//
// Every function is pure and gives the same text on every platform. The
// package imports the core packages and share (a summary ends with the link
// that reopens its view), nothing else: the browser links it, so it stays
// small and free of the page's and the CLI's own code.
package words
