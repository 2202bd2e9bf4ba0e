// Package core is the contract every part of flakegate shares, and the root
// of the packages that compute its statistics.
//
// Here: the input error (*Error, its Kind, and FieldErrorf and PosErrorf,
// with which every reader and calculator words one), counts of passes out
// of trials (Count, ParseCount, ParseRates), the CSV table the counts,
// samples and manifest readers read a header and its rows with (CSVTable,
// CSVError), the default confidence and its check, the machine names of
// verdicts, gates, property checks and lanes, and WriteJSON, through which
// every surface writes a result.
//
// Below, one concept a package, dependencies pointing one way (no package
// imports one above it; stat imports nothing of ours):
//
//	core/stat    special functions, exact sums, Z and Wilson, permutation test
//	core/gate    rerun budget, two-arm decision, sizing, frozen claims
//	core/ledger  trials of tests in runs of two arms, verdicts, flaky histories
//	core/report  the test-report readers (JSONL ledger, go test -json, JUnit)
//	core/aa      the A/A check of an eval suite, in depth, from CSV or a ledger
//	core/aa/sim  the gate simulator
//	core/quarantine  the registry of quarantined tests and its check
//
// The contract of all of them: inputs are plain structs with a Default
// value; results are structs whose JSON tags are the public contract served
// by the API and printed by the CLI with -json. Rates, powers and drops are
// fractions in [0,1], never points. Statistical caveats travel as Warnings
// beside a result; an *Error is returned only when the input cannot be used,
// and it says what and where. Every package is pure (no I/O beyond the
// io.Reader it is handed, no clocks, no globals that change, no randomness
// that is not seeded by the caller), imports the standard library only, and
// gives the same bits natively and in WebAssembly: sums run in a fixed order
// and are exactly rounded where the order could matter.
package core
