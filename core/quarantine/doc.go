// Package quarantine keeps a registry of quarantined tests and judges it
// against new test reports: quarantine on evidence, with owners, expiry
// dates, and release on proof.
//
// A Registry is a JSON file a team commits beside its code (the format is
// versioned, Version; docs/QUARANTINE.md describes it). Each Entry names a
// test, who owns it and why it is quarantined, from when and until when,
// the frozen claim of its pass rate (passed of trials on a date, with its
// Wilson interval: docs/STATISTICS.md, Frozen claims), the failure rate it must be
// proven below to leave, and the evidence gathered since the claim; the
// registry also remembers the runs it has counted.
//
// The unit of evidence is the independent run: a report file, or a run of
// a ledger (Reports holds one count per run). A run is clean when every
// execution of the test in it passed; go test -count=14 in one file is one
// run. A run is counted once: RunID and RunHash give each run an identity
// (its content when it carries its time, else its content and where it was
// made), FromLedgerRuns leaves out a run the registry has counted or that
// repeats another, and Check remembers the identities of the runs it
// counts (Registry.Counted).
//
// Check gives every test one state:
//
//   - still-flaky: the claim holds; the result carries the rerun budget and
//     lane of the claimed rate (docs/STATISTICS.md, Rerun budget) and the clean runs still needed;
//   - stale: the pass rate since the claim left the claimed interval at a
//     comparable number of trials (gate.Freeze): measure again; once the
//     trials since the claim are as many as the claim's, they replace it.
//     Above the interval the test got better (TestResult.Improving): it
//     does not block, and the clean runs still needed say when it leaves;
//   - released: the clean runs in a row prove the failure rate below the
//     target at the confidence asked, (1 − below)^m ≤ 1 − confidence
//     (CleanRuns);
//   - expired: past its expiry date without release;
//   - missing: not in the new reports (renamed or deleted; Options.Renames
//     maps an old id to a new one so the measurement survives a rename).
//
// Stale (unless improving), expired and missing block a gate; still-flaky
// and released do not.
// Check also returns the registry a writing check stores. Add, Renew,
// Remove and Rename edit a registry; Read and Parse read one strictly,
// Write writes one canonically (sorted, deterministic bytes).
//
// Contract: the package is pure. Today is always an input (Options.Today,
// the today argument of Read and the editors); nothing here reads a clock,
// a file or the network. A registry is bounded (MaxBytes, MaxTests,
// MaxIDBytes, MaxTextBytes) before it is worked on. Bad input is a
// *core.Error naming the JSON path of the fault and, when read from text,
// its line and column; no input panics or yields a wrong number. The
// package imports core, core/stat, core/gate and core/ledger only; readers
// of test reports (core/report) fill a ledger that FromLedger turns into
// Reports.
package quarantine
