package ledger

import (
	"fmt"

	"github.com/flakegate/flakegate/core"
)

// cellCap bounds the cells a ledger keeps.
type cellCap struct {
	max     int  // 0: no cap
	used    int  // cells and side-failure counters kept
	dropped bool // a trial or failure was not kept
}

func (c *cellCap) full() bool { return c.max > 0 && c.used >= c.max }

// spill notes a trial that did not fit.
func (c *cellCap) spill() { c.dropped = true }

// SetCellLimit caps what the ledger keeps at n cells, n > 0: each (arm,
// run, test) with a trial is one, and so is each (arm, test) with a setup,
// teardown or error count. Memory then stays within about a hundred bytes per
// cell besides the names of runs and tests, whatever the reports hold. Trials of cells past the cap are not
// kept, and Overflow reports them; the ledger must then not be used. 0
// removes the cap.
func (l *Ledger) SetCellLimit(n int) { l.cap.max = n }

// Overflow returns a core.TooLarge *Error when trials were left out for
// want of room under SetCellLimit, else nil.
func (l *Ledger) Overflow() error {
	if !l.cap.dropped {
		return nil
	}
	return &core.Error{Kind: core.TooLarge, Msg: fmt.Sprintf(
		"the reports hold more than %d (run, test) pairs, the most this ledger keeps", l.cap.max)}
}
