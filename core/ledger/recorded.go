package ledger

import (
	"cmp"
	"github.com/flakegate/flakegate/core/internal/sorts"
)

// Retry is what a ledger keeps of one test in one run beyond its trials:
// its retry history, which Flakes reads.
type Retry struct {
	Executions int64 // every execution, >= the cell's trials
	Fails      int64 // failed executions, in [trials - passed, Executions]
	Recovered  bool  // a failed execution was followed by a passing one
}

// Retries returns the retry history of every cell of arm, in the order
// of Cells (by run, then by test).
func (l *Ledger) Retries(arm string) []Retry {
	a := l.arms[arm]
	if a == nil {
		return []Retry{}
	}
	type keyed struct {
		run, test int32
		r         Retry
	}
	out := make([]keyed, 0, a.cells.len())
	a.cells.all(func(i int, c *cell) {
		n := a.counts(i, c)
		out = append(out, keyed{c.run, c.test, Retry{Executions: n.execs, Fails: n.fails, Recovered: c.flags&cellRecovered != 0}})
	})
	sorts.Func(out, func(x, y keyed) int {
		if x.run != y.run {
			return cmp.Compare(x.run, y.run)
		}
		return cmp.Compare(x.test, y.test)
	})
	rs := make([]Retry, len(out))
	for i, k := range out {
		rs[i] = k.r
	}
	return rs
}

// AddRecorded adds passed trials out of trials of test in run of arm with
// their retry history r, as a history store recorded them (Cells and
// Retries of the ledger that read the reports): the ledger then gives the
// same Cells, Flakes and FlakeBudgets as one that read the reports. It
// panics unless 0 <= passed <= trials <= r.Executions and
// trials - passed <= r.Fails <= r.Executions; the store checks its input
// first.
func (l *Ledger) AddRecorded(arm, run, test string, passed, trials int64, r Retry) {
	if passed < 0 || passed > trials || trials > r.Executions || r.Fails < trials-passed || r.Fails > r.Executions {
		panic("ledger: AddRecorded needs 0 <= passed <= trials <= executions and trials - passed <= fails <= executions")
	}
	a, i := l.cell(arm, run, test)
	if i < 0 {
		return
	}
	c := a.cells.at(i)
	a.add(i, c, counters{extraPassed: passed, extraTrials: trials, execs: r.Executions, fails: r.Fails})
	if r.Fails > 0 {
		c.flags |= cellSawFail
	}
	if r.Recovered {
		c.flags |= cellRecovered
	}
}
