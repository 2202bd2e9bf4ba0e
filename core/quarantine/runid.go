// The calculator's app.wasm is built with -tags calculator (mk/web.mk):
// the page never computes a run's identity (the CLI and the API do), and
// crypto/sha256 brings Go's FIPS module (AES, SHA-3, SHA-512, HMAC, DRBG
// and their self-tests) with it, 194 KB of app.wasm.

//go:build !calculator

package quarantine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"

	"github.com/flakegate/flakegate/core/jsonscan"
)

// A run's identity says whether two inputs are the same run, so that a run
// given again (the same night's report checked twice, or a writing check
// run twice) is counted once, while two runs that happen to read alike
// (two nights on which every test passed, in a format that carries no
// time) are two runs. docs/QUARANTINE.md states the rule:
//
//   - a report that carries the time it was written (go test -json's Time,
//     JUnit's timestamp, any ISO 8601 date-time or Unix start time) is
//     told apart by its content alone: RunID is the SHA-256 of its bytes,
//     so the same bytes are the same run wherever they are read from;
//   - a report that carries no time (TAP, a JUnit file without timestamp)
//     cannot be told from another night's identical report by its bytes:
//     its identity is its content together with where it was made, the
//     caller's context: the CI system's run id and attempt and the file's
//     path when the environment gives them (GITHUB_RUN_ID and
//     GITHUB_RUN_ATTEMPT), else the file's path and modification time;
//   - a run of a ledger is identified by its own rows, which carry the
//     time of each trial (ts), and its name: LedgerRunIDs.

// runIDHex is the number of hexadecimal digits of an identity: 128 bits.
const runIDHex = 32

// TimeHeadBytes is how much of a report's start CarriesTime looks at: the
// time a report carries is in its first lines (go test -json's first
// event, a JUnit testsuite's attributes, a JSON report's start).
const TimeHeadBytes = 64 << 10

// maxLedgerLine is the longest ledger row LedgerIDs reads; a longer line is
// the ledger reader's error to report.
const maxLedgerLine = 1 << 20

// timeKeys are the JSON keys under which reports write a Unix start time.
var timeKeys = [][]byte{[]byte(`"start"`), []byte(`"startTime"`), []byte(`"timestamp"`), []byte(`"time"`), []byte(`"created"`), []byte(`"ts"`)}

// CarriesTime reports whether a report holds the time it was written in
// its first TimeHeadBytes, so that its bytes alone tell it apart from any
// other run's: a date-time as ISO 8601 writes it (2026-11-23T02:00:01Z,
// or with a space for the T), or a Unix time in seconds or milliseconds
// under a JSON key that names a time ("startTime": 1700000000000).
func CarriesTime(content []byte) bool {
	b := content[:min(len(content), TimeHeadBytes)]
	digits := func(at, n int) bool {
		if at < 0 || at+n > len(b) {
			return false
		}
		for _, c := range b[at : at+n] {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	// dddd-dd-dd[T ]dd:dd:dd, found by its first dash.
	for i := 4; i+15 <= len(b); i++ {
		if b[i] == '-' && b[i+3] == '-' && (b[i+6] == 'T' || b[i+6] == ' ') && b[i+9] == ':' && b[i+12] == ':' &&
			digits(i-4, 4) && digits(i+1, 2) && digits(i+4, 2) && digits(i+7, 2) && digits(i+10, 2) && digits(i+13, 2) {
			return true
		}
	}
	for _, k := range timeKeys {
		for rest := b; ; {
			i := bytes.Index(rest, k)
			if i < 0 {
				break
			}
			rest = rest[i+len(k):]
			v := bytes.TrimLeft(rest, " \t")
			if len(v) == 0 || v[0] != ':' {
				continue
			}
			v = bytes.TrimLeft(v[1:], " \t")
			if n := len(v) - len(bytes.TrimLeft(v, "0123456789")); n >= 10 && v[0] == '1' {
				return true
			}
		}
	}
	return false
}

// RunID is the identity of the run a report holds: RunHash's of content.
func RunID(content []byte, context string) string {
	r := NewRunHash(false)
	r.Write(content)
	return r.ID(context)
}

// RunHash computes a report's identity as it is read (it is an io.Writer:
// tee the report into it), in memory bounded by TimeHeadBytes and one
// ledger row.
type RunHash struct {
	h      hash.Hash
	head   []byte
	ledger bool
	line   []byte
	runs   map[string]hash.Hash
	order  []string
	scan   jsonscan.Scanner // reads a ledger row's run and arm
}

// NewRunHash starts a report's identity; ledger says the report is a JSONL
// ledger, whose runs LedgerIDs identifies one by one.
func NewRunHash(ledger bool) *RunHash {
	return &RunHash{h: sha256.New(), ledger: ledger, runs: map[string]hash.Hash{}}
}

// Write adds the report's next bytes. It never fails.
func (r *RunHash) Write(p []byte) (int, error) {
	r.h.Write(p)
	if n := TimeHeadBytes - len(r.head); n > 0 {
		r.head = append(r.head, p[:min(n, len(p))]...)
	}
	if r.ledger {
		rest := p
		for len(rest) > 0 {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				if len(r.line)+len(rest) <= maxLedgerLine {
					r.line = append(r.line, rest...)
				}
				break
			}
			if len(r.line)+i <= maxLedgerLine {
				r.row(append(r.line, rest[:i]...))
			}
			r.line, rest = r.line[:0], rest[i+1:]
		}
	}
	return len(p), nil
}

// row adds one ledger row to its run's identity.
func (r *RunHash) row(line []byte) {
	// A line the ledger's reader refuses counts for no run: the same
	// grammar, keys exactly as written, each at most once.
	var row struct{ Run, Arm string }
	r.scan.Reset(line, 1, "line")
	err := r.scan.Object(func(key []byte) error {
		var err error
		switch string(key) {
		case "run":
			row.Run, err = r.scan.Text()
		case "arm":
			row.Arm, err = r.scan.Text()
		default:
			err = r.scan.Skip()
		}
		return err
	})
	if err != nil || r.scan.End() != nil || row.Run == "" {
		return
	}
	if row.Arm == "" {
		row.Arm = "baseline"
	}
	k := row.Arm + "\x00" + row.Run
	h, ok := r.runs[k]
	if !ok {
		h = sha256.New()
		h.Write([]byte(k + "\x00"))
		r.runs[k] = h
		r.order = append(r.order, k)
	}
	h.Write(bytes.TrimSpace(line))
	h.Write([]byte{'\n'})
}

// ID is the identity of the report written so far: the SHA-256 of its
// content when it carries its time (CarriesTime), else of its content's
// SHA-256 and context, which says where and when it was made (see above).
// It is 32 lowercase hexadecimal digits.
func (r *RunHash) ID(context string) string {
	sum := r.h.Sum(nil)
	if !CarriesTime(r.head) {
		h := sha256.New()
		h.Write(sum)
		h.Write([]byte{0})
		h.Write([]byte(context))
		sum = h.Sum(nil)
	}
	return hex.EncodeToString(sum)[:runIDHex]
}

// LedgerIDs is the identity of every run of a JSONL ledger written so far
// (NewRunHash(true)), keyed by arm, NUL and run name: the SHA-256 of the
// key and of the run's rows in file order (each row carries its time, ts).
// Lines that are not a row of a run are left to the ledger's reader.
func (r *RunHash) LedgerIDs() map[string]string {
	if len(r.line) > 0 {
		r.row(r.line)
		r.line = r.line[:0]
	}
	out := make(map[string]string, len(r.order))
	for _, k := range r.order {
		out[k] = hex.EncodeToString(r.runs[k].Sum(nil))[:runIDHex]
	}
	return out
}

// LedgerRunIDs is LedgerIDs of a whole ledger held in memory.
func LedgerRunIDs(content []byte) map[string]string {
	r := NewRunHash(true)
	r.Write(content)
	return r.LedgerIDs()
}
