package runner

import (
	"bytes"
	"encoding/json"
	"math"
	"time"
)

// Outcomes of a run record.
const (
	OutcomeDone  = "done"  // the run's report was read: its trials are the rows before the record
	OutcomeError = "error" // the command's own failure: no trials, the run is done again on the next start
)

// WhenRun is the when of a run record, beside the ledger's setup, call and
// teardown rows.
const WhenRun = "run"

// Record is a run record: how one run ended. It is a row of the ledger file
// (the last of the run's rows) and, in the JSON result, an entry of errors.
type Record struct {
	Run     string `json:"run"`     // the run's id: b1, p1, ...
	Arm     string `json:"arm"`     // baseline or patched
	When    string `json:"when"`    // always "run"
	Outcome string `json:"outcome"` // OutcomeDone or OutcomeError
	// Seq is the run's place in the order the ledger's runs ran, from 1,
	// counted over every start with this ledger.
	Seq     int      `json:"seq"`
	Trials  int64    `json:"trials"`           // trial rows of the run, >= 1 when done, 0 for an error
	Passed  int64    `json:"passed"`           // of Trials, the passed ones
	Exit    int      `json:"exit"`             // the command's exit status; -1 when it did not start or was killed
	Seconds float64  `json:"seconds"`          // wall time of the command, >= 0
	Command string   `json:"command"`          // the command line as given
	Commit  string   `json:"commit,omitempty"` // the commit of the arm's git worktree, when it ran in one
	Error   string   `json:"error,omitempty"`  // for OutcomeError: what went wrong, in a sentence
	Notes   []string `json:"notes,omitempty"`  // caveats of reading the run's report
	TS      float64  `json:"ts"`               // Unix time of the run's end, in seconds to the millisecond

	// Failed names the tests that failed in the run (not written: the
	// rows say it).
	Failed []string `json:"-"`
	// CannotStart is whether the command could not start at all: not
	// found or not executable (the shell's exit status 127 or 126, or no
	// process). Not written: Error says it.
	CannotStart bool `json:"-"`
}

// trialRow is a row of the JSONL trial ledger, for one test in one run.
type trialRow struct {
	Run     string `json:"run"`
	Arm     string `json:"arm"`
	NodeID  string `json:"nodeid"`
	When    string `json:"when"`    // call, setup or teardown
	Outcome string `json:"outcome"` // passed or failed
	// Executions and Failures are set when the test ran more than once in
	// the run (go test -count, a rerun plugin): the row's outcome is passed
	// only when every execution passed.
	Executions int64   `json:"executions,omitempty"`
	Failures   int64   `json:"failures,omitempty"`
	TS         float64 `json:"ts"`
}

// unixSeconds is t as the pytest plugin writes ts: seconds to the millisecond.
func unixSeconds(t time.Time) float64 {
	return math.Round(float64(t.UnixMilli())) / 1000
}

// appendJSON appends v and a newline to b, without HTML escaping.
func appendJSON(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
