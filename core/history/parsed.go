package history

import (
	"github.com/flakegate/flakegate/core/internal/sorts"
	"slices"
	"strings"
)

// Seconds is one test's timed attempts in one report file: the sum of
// their run times, in seconds, as the report gave them in its order, and
// how many there were.
type Seconds struct {
	Test string
	Sum  float64 // seconds, as summed in the report's order
	N    int64   // timed attempts, >= 1
}

// NewParsed is a report file read elsewhere (a history store keeps what
// ParseRun read): its runs in order, each with its results, the reader's
// caveats and the per-test run times (each test once). AddParsed adds it
// as it adds what ParseRun returns, so the figures are the same. metas and
// runs have the same length; p keeps the slices.
func NewParsed(file string, metas []RunMeta, runs [][]TestResult, notes []string, seconds []Seconds) *Parsed {
	return &Parsed{file: file, metas: metas, runs: runs, notes: notes, timed: seconds}
}

// File is the report file's name, as the run metas' File.
func (p *Parsed) File() string { return p.file }

// Runs are the file's runs, in order: what is known of each and its
// results.
func (p *Parsed) Runs() ([]RunMeta, [][]TestResult) { return p.metas, p.runs }

// Notes are the report reader's caveats, without the file's name.
func (p *Parsed) Notes() []string { return p.notes }

// Seconds are the run times the report gave, per test, sorted by name.
func (p *Parsed) Seconds() []Seconds {
	out := slices.Clone(p.timed)
	for t, d := range p.durs {
		out = append(out, Seconds{t, d.seconds, d.n})
	}
	sorts.Func(out, func(a, b Seconds) int { return strings.Compare(a.Test, b.Test) })
	return out
}

// addTimed adds the run times NewParsed was given.
func (h *History) addTimed(p *Parsed) {
	for _, d := range p.timed {
		if i, ok := h.byName[d.Test]; ok {
			t := h.tests[i]
			t.seconds += d.Sum
			t.timed += d.N
		}
	}
}
