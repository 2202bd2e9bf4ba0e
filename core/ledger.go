package core

import "io"

// Arms of a two-arm ledger.
const (
	ArmBaseline = "baseline"
	ArmPatched  = "patched"
)

// Ledger accumulates trials of tests in runs of two arms. Within one run of
// one arm, the last outcome recorded for a test stands. Readers of every
// report format (the seed's JSONL ledger, go test -json, JUnit XML) feed it.
type Ledger struct {
	// implementation in ledger_*.go
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { panic("todo") }

// Add records a trial of test in run of arm; a later Add for the same
// (arm, run, test) replaces it.
func (l *Ledger) Add(arm, run, test string, passed bool) { panic("todo") }

// AddSideFailure records a failure outside the test body (when is "setup" or
// "teardown"); these are counted apart from trials.
func (l *Ledger) AddSideFailure(arm, run, test, when string) { panic("todo") }

// ReadLedger reads the seed's per-trial JSONL (fields run, arm, nodeid, when,
// outcome) into l. Errors carry line and column.
func ReadLedger(r io.Reader, l *Ledger) error { panic("todo") }

// LedgerOptions are the settings of each test's two-arm verdict.
type LedgerOptions struct {
	MinTrials  int64
	Confidence float64
	Property   string
}

// DefaultLedgerOptions match DefaultDecideInput.
var DefaultLedgerOptions = LedgerOptions{MinTrials: 20, Confidence: DefaultConfidence, Property: PropertyUnknown}

// LedgerTest is one test's two arms and verdict.
type LedgerTest struct {
	NodeID           string `json:"nodeid"`
	Verdict          string `json:"verdict"`
	Gate             string `json:"gate"`
	Blocks           bool   `json:"blocks"`
	Baseline         Arm    `json:"baseline"`
	Patched          Arm    `json:"patched"`
	SetupFailures    int64  `json:"setup_failures"`
	TeardownFailures int64  `json:"teardown_failures"`
}

// LedgerRuns counts the runs of each arm.
type LedgerRuns struct {
	Baseline int `json:"baseline"`
	Patched  int `json:"patched"`
}

// LedgerResult is every test's verdict, sorted by nodeid.
type LedgerResult struct {
	Runs     LedgerRuns   `json:"runs"`
	Tests    []LedgerTest `json:"tests"`
	Blocks   bool         `json:"blocks"` // some test's gate blocks
	Warnings []string     `json:"warnings"`
}

// Result computes each test's verdict.
func (l *Ledger) Result(opt LedgerOptions) (*LedgerResult, error) { panic("todo") }
