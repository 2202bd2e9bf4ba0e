// Package triage answers, for each test that failed in one CI run, whether
// the failure is noise or news: is it the known 3% flake, or did this
// change break it?
//
// Input is the past, a history.History of earlier runs (report files, or
// a store read into one) and Result of it, and this run's per-test
// results. Each failure of the run gets one class, in this order:
//
//   - quarantined: the quarantine registry holds the test and its entry
//     has not expired. Does not block.
//   - known-flake, by a retry: it failed and a retry passed in this very
//     run, or it passed in a past run of this run's commit (a job run
//     again): proof of non-determinism on this commit. Does not block.
//   - outage: this run is an outage, too many tests failed at once for
//     chance (history's outage rule against the history's healthy
//     failure share: a binomial tail below Options.History.Alpha, one run
//     judged, and MinOutageTests failures or more). Does not block: rerun
//     the job; a failure that was already broken before stays broken.
//   - broken: it failed in every one of its last runs since a commit, and
//     in this one (at least BrokenStreak runs with this one), or in every
//     run it ever had, and a flake at the rate its earlier record allows
//     would fail so many in a row with chance below the run's level.
//     Blocks.
//   - new: it never failed in its past runs outside incidents, or so
//     rarely that the one-sided Clopper–Pearson upper bound on its rate at
//     confidence 1 − Alpha/m (m the failures judged in this run) is below
//     MinRate: a flake that rare fails now with chance below the bound.
//     Blocks.
//   - known-flake: otherwise; its rate, Wilson interval, flips on one
//     commit, and the reruns that would confirm it: if it fails every one,
//     it is not a flake at its interval's upper rate (at the budget's
//     target). Blocks only under Options.BlockFlakes.
//
// The error rate, under its real use (every pull request's run triaged):
// a flake at rate MinRate or more, in a run in which it fails, is called
// new or broken with chance at most Alpha over all the run's judged
// failures together (the Clopper–Pearson bound covers its rate with
// chance 1 − Alpha/m for each of the m, Bonferroni over them), whatever
// the number of runs triaged: each run is its own decision and its false
// blocks are at most Alpha of the runs. A flake rarer than MinRate, or one
// the history has too few runs to have seen fail, is indistinguishable
// from a breakage on one run: it is called new, and the Result says when
// the history is too short to prove it (Proven false).
//
// Beside the failures, Result lists the quarantine entries whose runs
// since they opened (in the history and this run) prove their release by
// quarantine.ReleaseProven, the rule that holds however often it is
// checked, when the history holds a run of the test from before the
// entry's opening (else runs since it may be missing, and counting those
// left would restart the rule's count: a warning says so). KeepRegistry
// makes the registry's change, the proposed entries added and the proven
// releases removed, and UnifiedDiff writes it as one diff for git apply.
//
// Results are deterministic: failures are sorted by class, then name.
package triage
