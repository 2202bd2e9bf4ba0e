// Package ledger holds trials of tests in runs of two arms, baseline and
// patched: the one type every report reader (package report) feeds.
//
// A Ledger keeps, per arm, the runs in order of first appearance and, per
// (run, test), the outcome that stands (Add: the last one in a run, the
// seed ledger's rule), extra independent trials (AddTrial: go test -count,
// JUnit reruns), setup and teardown failures apart from trials
// (AddSideFailure), and every execution for the retry history. Memory
// grows with runs times tests, not with the rows read.
//
// From it: Result, each test's two-arm verdict (gate.Decide), sorted by
// nodeid; Summary, its sufficient statistics, whose own Result is the
// ledger's figure for figure (a share link carries it); Flakes and
// FlakeBudgets, the tests whose history shows a failure and a pass in one
// arm, and the rerun budget each needs (gate.Budget).
//
// Results are deterministic: tests are sorted by nodeid and sums are over
// integers. A ledger without trials is a *core.Error of Kind Unusable;
// caveats (tests seen in one arm, side failures) are Warnings.
package ledger
