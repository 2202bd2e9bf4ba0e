// Package planted is a test suite with a planted flaky test, for flakegate
// run's tests. TestPlanted fails in a run when a SHA-256 of FLAKY_SEED and
// the run's id (FLAKEGATE_RUN) maps below its failure rate (FLAKY_RATE, 0.3
// by default; FLAKY_RATE_PATCHED in the patched arm). Every test appends
// "run arm test outcome" to $FLAKY_TALLY as it ends: a count of what ran
// that owes nothing to go test -json, the report readers or the ledger.
package planted

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

func rate() float64 {
	name := "FLAKY_RATE"
	if os.Getenv("FLAKEGATE_ARM") == "patched" {
		name = "FLAKY_RATE_PATCHED"
	}
	if r, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil {
		return r
	}
	return 0.3
}

func fails(test string, rate float64) bool {
	sum := sha256.Sum256([]byte(os.Getenv("FLAKY_SEED") + "\x00" + os.Getenv("FLAKEGATE_RUN") + "\x00" + test))
	return float64(binary.BigEndian.Uint64(sum[:8])>>11)/(1<<53) < rate
}

func tally(t *testing.T, failed bool) {
	path := os.Getenv("FLAKY_TALLY")
	if path == "" {
		return
	}
	outcome := "passed"
	if failed {
		outcome = "failed"
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s %s %s\n", os.Getenv("FLAKEGATE_RUN"), os.Getenv("FLAKEGATE_ARM"), t.Name(), outcome)
}

func TestStable(t *testing.T) { tally(t, false) }

func TestPlanted(t *testing.T) {
	f := fails(t.Name(), rate())
	tally(t, f)
	if f {
		t.Fatal("planted flake")
	}
}

// TestTmp checks that the run has a temporary directory of its own.
func TestTmp(t *testing.T) {
	dir := os.Getenv("FLAKEGATE_TMPDIR")
	ok := dir != "" && os.TempDir() == dir
	if ok {
		_, err := os.Stat(dir)
		ok = err == nil
	}
	tally(t, !ok)
	if !ok {
		t.Fatalf("FLAKEGATE_TMPDIR %q, TMPDIR %q", dir, os.TempDir())
	}
}

// TestBlock blocks the run whose id is FLAKY_BLOCK_RUN: it creates
// FLAKY_BLOCK_FILE and waits until its parent (go test) is gone, so that a
// test can kill flakegate in the middle of a run.
func TestBlock(t *testing.T) {
	if os.Getenv("FLAKY_BLOCK_RUN") == "" || os.Getenv("FLAKY_BLOCK_RUN") != os.Getenv("FLAKEGATE_RUN") {
		tally(t, false)
		return
	}
	parent := os.Getppid()
	if err := os.WriteFile(os.Getenv("FLAKY_BLOCK_FILE"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); os.Getppid() == parent && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	tally(t, true)
	t.Fatal("blocked until go test was gone")
}
