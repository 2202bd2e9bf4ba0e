// Package report reads test reports and eval logs into a *ledger.Ledger:
// the JSONL trial ledger (ReadLedger), go test -json, JUnit XML in
// its many dialects, NUnit, TRX, xUnit.net, TAP, the JSON reports of Jest,
// Vitest, Mocha, mochawesome, Playwright, CTRF and RSpec, and the logs of
// inspect_ai, lm-evaluation-harness and promptfoo. Read reads one file in a
// format it is told or detects (DetectFormat, which also names many formats
// it does not read); its doc says what counts as a trial in each format.
// Each file is one run, every attempt a trial: a retry is never folded into
// a pass.
//
// The readers stream: memory is bounded by the longest line they accept
// (MaxLineBytes, MaxGoTestLineBytes), by the nesting they accept (JSON 512
// deep, XML MaxXMLDepth: a deeper element is refused when its start tag is
// read, before anything is built for it) and by the ledger, never by the
// size of the file; within twice the input plus 32 MB for any input,
// accepted or refused (memory_test.go measures it). LimitReader refuses a
// report over a size with a TooLarge error instead of reading part of it.
// Malformed input is a *core.Error of Kind Invalid with the line and column
// of the fault (the caller adds the file name with core.WithFile); a report
// that has no trials to count (a build that failed) is Unusable. What a reader noticed but could still
// count is a warning on the ledger (Ledger.Warn).
package report
