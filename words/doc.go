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
// separators (Count). Exact writes a number so that it parses back to the
// same float64.
//
// Markdown: BudgetMarkdown, DecideMarkdown and AAMarkdown turn a result of
// the core packages into a review comment: a table of the figures, the
// verdict, the warnings, and a link back when one is given.
//
// Every function is pure and gives the same text on every platform. The
// package imports only the core packages: the browser links it, so it stays
// small and free of the page's and the CLI's own code.
package words
