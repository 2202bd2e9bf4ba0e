// Package shop is a test suite with planted flaky tests for the quarantine
// registry's week of nightly runs (../gen.sh). A test fails with the rate
// the table below gives it on the night SHOP_NIGHT names (0 is the
// measurement that opened the quarantine, 1 to 7 the nights after it).
// Whether one execution fails is a pure function of the night, the test's
// key and how many times it has run in this process, so a night's report
// is reproducible in its outcomes (times still vary).
package shop

import (
	"crypto/sha256"
	"encoding/binary"
	"os"
	"strconv"
	"sync"
)

// rates is each test's failure rate per night, 0 to 7.
var rates = map[string][8]float64{
	"checkout":  {0.05, 0, 0, 0, 0, 0, 0, 0},                      // fixed after the measurement
	"login":     {0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05}, // flaky all week
	"search":    {0.03, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4},        // much worse from night 1
	"payment":   {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1},         // flaky; its quarantine expires
	"inventory": {0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05}, // renamed TestStock from night 3
	"cart":      {0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08, 0.08}, // deleted from night 5
	"shipping":  {0.08, 0, 0, 0, 0, 0, 0, 0},                      // fixed after the measurement
	"email":     {0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01}, // a rare flake
	"auth":      {0.02, 0, 0, 0, 0, 0, 0, 0},                      // fixed, but held to 0.1%
	"report":    {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1},         // expires, then renewed
	"upload":    {0.2, 0, 0, 0, 0, 0, 0, 0},                       // fixed: far better than claimed
	"cache":     {0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2},         // flaky as claimed
	"queue":     {0.1, 0.1, 0.1, 0.1, 0, 0, 0, 0},                 // fixed on night 4
}

var (
	mu    sync.Mutex
	execs = map[string]int{}
)

// Fails reports whether this execution of the test with key fails on the
// night SHOP_NIGHT: a SHA-256 of the night, the key and the execution
// count, mapped to [0,1), below the test's rate that night.
func Fails(key string) bool {
	night, err := strconv.Atoi(os.Getenv("SHOP_NIGHT"))
	if err != nil || night < 0 || night > 7 {
		panic("SHOP_NIGHT must be a night from 0 to 7")
	}
	mu.Lock()
	execs[key]++
	n := execs[key]
	mu.Unlock()
	sum := sha256.Sum256([]byte("shop\x00" + strconv.Itoa(night) + "\x00" + key + "\x00" + strconv.Itoa(n)))
	return float64(binary.BigEndian.Uint64(sum[:8])>>11)/(1<<53) < rates[key][night]
}
