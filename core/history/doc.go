// Package history finds the flaky tests in many CI runs' reports and tells
// them from outages.
//
// Input is a sequence of runs, each one report file (read by package
// report, in any format it reads) or one run's per-test results, with what
// is known of the run: its commit, branch, job and time (from a manifest, or
// from what the report carries: ReportMeta). A History keeps, per test, two
// bits per run since the test first appeared (it failed; it passed), and
// per run its counts: memory is about runs × tests / 4 bytes plus the
// names, never the results themselves (10,000 runs of 5,000 tests fit in
// about 13 MB).
//
// Result decides, in this order:
//
//  1. Order. Runs are put in time order when every run has a time, and
//     kept in the order given otherwise (a warning says so).
//  2. Outage runs. A run is an outage when the number of tests that failed
//     in it is too large to be chance: under no shared cause the count is a
//     sum of independent Bernoulli trials with some mean μ, and Hoeffding
//     (1956) shows its upper tail is at most that of Binomial(n, μ/n), n the
//     tests of the run. μ/n is the pooled failure share of the runs not
//     flagged (iterated until no run changes). A run is flagged when that
//     binomial tail is below Alpha divided by the number of runs (Bonferroni:
//     at most Alpha chance over the whole history to call one healthy run
//     an outage) and at least MinOutageTests tests failed in it.
//  3. Groups. Outside outage runs, tests that failed in exactly the same
//     runs, at least twice, never apart, and passed in other runs are one
//     incident: a shared cause (a fixture, a service), not each its own
//     flake. A test and its own subtests (go test's "TestX" and
//     "TestX/case") failing together are one failure, not a group. Tests
//     whose shared failures are one unbroken stretch of at least
//     BrokenStreak of their runs are no group either: one commit broke
//     them and one fixed them, a shared regression, and step 5 calls each
//     broken.
//  4. Per test, outside the incidents (Options.KeepIncidents keeps them):
//     runs, failures (runs in which any attempt failed), the failure rate
//     and its Wilson interval, flips on one commit (a commit, or a single
//     run, on which the test both failed and passed: proof of
//     non-determinism), flips in time order, first and last failure, a
//     trend (Fisher's exact test of the recent half of its runs against the
//     earlier half), the cost (rate times its own mean run time where the
//     reports give durations, report.Options.Durations; else times
//     Options.Budget.CostSeconds), the
//     rerun budget and lane (gate.Budget) and the claim a quarantine would
//     freeze (gate.Freeze).
//  5. Status. A test that failed and passed outside incidents is flaky,
//     unless its failures are one unbroken stretch of at least
//     BrokenStreak runs with no flip on one commit: then it was broken (a
//     regression and its fix). A test that never passed is failing.
//
// The naive rule (a test that failed and passed at least once, incidents
// included) is counted beside it.
//
// Results are deterministic: tests are sorted by name within each list,
// runs keep their order, and every sum is over integers.
//
// Runs read elsewhere come in as NewParsed (AddParsed), or, from a history
// store, with their tests named by index in its name table (Table,
// AddIndexed: each name looked up once): the same figures either way.
package history
