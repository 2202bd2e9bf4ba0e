// Package aa is the A/A check of an eval suite: how noisy its pass rate is
// when nothing changed, the drop a comparison must pass to mean something,
// how many runs per side catch a drop, whether the runs drift, and whether
// a candidate regressed (docs/STATISTICS.md, A/A check).
//
// Its input is a Side, the sufficient statistics of one set of runs: each
// scenario's and each run's passes out of rows. ReadCSV reads one from a
// scenario,run,passed CSV in one streaming pass; FromLedger makes one from
// an arm of a ledger (each test a scenario, each report a run). Check
// computes the check of a baseline and, given one, a candidate; InDepth
// adds the in-depth analyses (variance ratio, trend test, fixed-drop rule,
// pass^k, flaky scenarios, paired t-test); Simulate measures which gate
// catches which shape of regression (package sim runs it). Options select
// what a Result lists; the Result's JSON is the public contract.
//
// The figures follow the original A/A script the formulas were first written
// in operation by operation and agree with it bit for bit; every figure is the same bits on every
// platform. Malformed input is a *core.Error of Kind Invalid with line and
// column; input the statistics cannot use (a scenario seen once) is
// Unusable; caveats are Warnings. Fractions are in [0,1]; drops are
// fractions, not points.
package aa
