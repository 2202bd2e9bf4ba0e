// Package runner runs a test or eval command N times per arm, each run a
// fresh process, and records every run's trials in an append-only ledger
// file. It is the trial loop of the two-arm method (baseline against patched)
// as one command: the arms alternate so that a drift in time hits both alike,
// a kill loses at most the run in progress, and a second start with the same
// ledger runs only what is missing.
//
// # Runs
//
// Each run of an arm is an independent process with its own temporary
// directory, never a retry inside one process: retries share caches, ports
// and fixtures, and correlated trials make every interval too narrow. A run
// sees its arm and id in its environment:
//
//	FLAKEGATE_ARM, FLAKE_ARM   baseline or patched
//	FLAKEGATE_RUN, FLAKE_RUN   b1, b2, ... for the baseline; p1, p2, ... for the other arm
//	FLAKEGATE_TMPDIR, TMPDIR   the run's own temporary directory, removed after it
//	FLAKE_LEDGER               a file in that directory, where a pytest plugin
//	                           of the ledger format writes the run's rows
//
// The FLAKE_* names are the ones that pytest plugin reads. A run's report
// is its standard output (go test -json) or the files matching a path pattern
// that the run wrote; every format report.Read reads is accepted.
//
// # Order
//
// OrderInterleave runs b1 p1 b2 p2 ...; OrderRandom runs the same pairs, each
// pair's two runs in an order drawn from the seed, so that a drift in time
// still hits both arms alike but no fixed period in the machine lines up with
// one arm. Each run record keeps its place in the order actually run (seq).
//
// # The ledger file
//
// The ledger is the JSONL trial ledger: one row per test per run
// (run, arm, nodeid, when, outcome, ts), failed setups and teardowns as rows
// of their own, and after a run's rows one run record, a row whose when is
// "run":
//
//	{"run":"b3","arm":"baseline","when":"run","outcome":"done","seq":5,"trials":4,"passed":3,"exit":1,"seconds":2.4,...}
//	{"run":"p3","arm":"patched","when":"run","outcome":"error","seq":6,"error":"the command wrote no report",...}
//
// A run's rows and its record are written with one append and flushed to the
// disk (fsync) before the next run starts. A run record commits the rows
// before it: rows after the last record are what a kill left of the run in
// progress, and the next start drops them with a warning. Outcome "error" is
// the command's own failure (it could not start, it wrote no report, the
// report could not be read, it ran no test): such a run has no trial rows, is
// shown beside the verdict, and is run again by the next start.
//
// In a ledger run, a test's trial is its outcome in that process: passed only
// when every execution of it in the run passed. A test that go test -count=N
// or a rerun plugin executed several times in one run keeps one trial (the
// executions are not independent) and the row says how many executions and
// failures it had.
package runner
