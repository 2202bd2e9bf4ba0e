// Package report reads test reports into a *ledger.Ledger: the seed's
// JSONL trial ledger (ReadLedger), go test -json (test2json) streams and
// JUnit XML as pytest, Maven Surefire, gotestsum, Jest and Playwright write
// it. Read reads one file in a format it is told or detects (DetectFormat);
// its doc says what counts as a trial in each format.
//
// The readers stream: memory is bounded by the longest line they accept
// (MaxLineBytes, MaxGoTestLineBytes) and by the ledger, never by the size
// of the file; LimitReader refuses a report over a size with a TooLarge
// error instead of reading part of it. Malformed input is a *core.Error of
// Kind Invalid with the line and column of the fault (the caller adds the
// file name with core.WithFile); a report that has no trials to count (a
// build that failed) is Unusable. What a reader noticed but could still
// count is a warning on the ledger (Ledger.Warn).
package report
