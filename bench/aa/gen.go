// Package aabench makes the large A/A inputs the benchmarks and
// compare.sh run on: a seeded scenario,run,passed CSV of any size, the same
// bytes on every machine.
package aabench

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"
)

// Shape of the benchmark's CSV: 10,000 scenarios × 100 runs, 1,000,000 rows.
const (
	Scenarios = 10_000
	Runs      = 100
	Seed      = 4004
)

// WriteCSV writes runs runs of scenarios scenarios, grouped by run, each run
// in a new order of scenarios (as an eval harness that shuffles would write
// them). 80% of the scenarios always pass, 5% always fail and the rest pass
// with a probability drawn from [0.2, 0.95].
func WriteCSV(w io.Writer, scenarios, runs int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 0x41a))
	q := make([]float64, scenarios)
	for i := range q {
		switch u := r.Float64(); {
		case u < 0.80:
			q[i] = 1
		case u < 0.85:
			q[i] = 0
		default:
			q[i] = 0.2 + 0.75*r.Float64()
		}
	}
	order := make([]int, scenarios)
	for i := range order {
		order[i] = i
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString("scenario,run,passed\n")
	var line []byte
	for run := 0; run < runs; run++ {
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, s := range order {
			line = append(line[:0], "scenario-"...)
			line = appendPadded(line, s, 5)
			line = append(line, ",run-"...)
			line = appendPadded(line, run+1, 3)
			if r.Float64() < q[s] {
				line = append(line, ",1\n"...)
			} else {
				line = append(line, ",0\n"...)
			}
			bw.Write(line)
		}
	}
	return bw.Flush()
}

func appendPadded(b []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
