// Package flaky is a test suite with deliberately flaky tests for
// flakegate's report readers and CI example. Every outcome is a pure
// function of FLAKY_SEED, FLAKY_RUN and FLAKEGATE_RUN (which
// examples/ci/flakegate-gate.sh sets per run), the test's name and how many
// times it has run in this process, so that a report is reproducible byte for byte in
// its outcomes (times still vary).
package flaky

import (
	"crypto/sha256"
	"encoding/binary"
	"os"
	"strconv"
	"sync"
)

var (
	mu    sync.Mutex
	execs = map[string]int{}
)

// Fails reports whether this execution of the named test fails when it fails
// with probability rate: a SHA-256 of the seed, the run, the name and the
// execution count, mapped to [0,1), below rate. FLAKY_RATE_SCALE multiplies
// every rate (a "patched" arm can set it to 0.2 to model a fix).
func Fails(name string, rate float64) bool {
	mu.Lock()
	execs[name]++
	n := execs[name]
	mu.Unlock()
	if s, err := strconv.ParseFloat(os.Getenv("FLAKY_RATE_SCALE"), 64); err == nil {
		rate *= s
	}
	sum := sha256.Sum256([]byte(os.Getenv("FLAKY_SEED") + "\x00" + os.Getenv("FLAKY_RUN") + os.Getenv("FLAKEGATE_RUN") + "\x00" + name + "\x00" + strconv.Itoa(n)))
	return float64(binary.BigEndian.Uint64(sum[:8])>>11)/(1<<53) < rate
}
