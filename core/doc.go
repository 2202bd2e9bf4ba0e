// Package core holds every statistic flakegate computes and the parsers that
// feed them. It is pure: no I/O beyond the io.Reader it is handed, no clocks,
// no globals that change, no randomness that is not seeded by the caller.
//
// The package answers three questions:
//
//   - Budget: how many reruns catch a flake of per-run failure rate p with a
//     target detection power, what they cost, and which lane of the merge gate
//     they belong in. Detection power is 1-(1-p)^k.
//   - Interval and decision: Wilson score intervals on pass rates, a two-arm
//     verdict (baseline against patched), the trials per arm needed to
//     separate two rates, per-test verdicts read from a trial ledger, and
//     frozen rate claims checked against newer counts.
//   - A/A: how noisy an eval suite is when nothing changed, the threshold a
//     drop must pass, how many runs per side catch a drop, whether the runs
//     trend, and whether a candidate regressed.
//
// Inputs are plain structs with a Default value; results are structs whose
// JSON tags are the public contract served by the API and printed by the CLI
// with -json. Rates, powers and drops are fractions in [0,1], never points.
// Statistical caveats travel as Warnings beside a result; an *Error is
// returned only when the input cannot be used, and it says what and where.
//
// Every function here gives the same bits natively and in WebAssembly: sums
// run in a fixed order and are exactly rounded where the order could matter.
package core
