package ledger

import (
	"hash/maphash"
	"math"
)

// How an arm stores its cells: compactly, because a report of many tests
// holds one cell per (run, test) and the readers' memory bound (twice the
// input plus 32 MB) leaves about a hundred bytes for each cell of a go test
// -json stream that names a new test on every 50-byte line. A cell is a
// 28-byte value in a list of fixed blocks (no pointer per cell, no copy as
// the list grows); its counters are 32-bit, and the rare cell that outgrows
// them keeps 64-bit counters in a side map. The cell of a (run, test) is
// found through the test's cell of its latest run, as reports arrive run
// after run; only a report that goes back to an earlier run builds an index
// of every cell.

// blockLen is the number of values in each block of a blockList.
const blockLen = 4096

// blockList is a list that grows by fixed blocks: what it holds is never
// copied nor moved, so a pointer to an element stays valid.
type blockList[T any] struct {
	blocks [][]T
	n      int
}

func (b *blockList[T]) len() int { return b.n }

// at returns element i, 0 <= i < len.
func (b *blockList[T]) at(i int) *T { return &b.blocks[i/blockLen][i%blockLen] }

// add appends v and returns its index.
func (b *blockList[T]) add(v T) int {
	if b.n%blockLen == 0 {
		b.blocks = append(b.blocks, make([]T, 0, blockLen))
	}
	last := &b.blocks[len(b.blocks)-1]
	*last = append(*last, v)
	b.n++
	return b.n - 1
}

// all calls f with each element in order.
func (b *blockList[T]) all(f func(i int, v *T)) {
	for bi, blk := range b.blocks {
		for j := range blk {
			f(bi*blockLen+j, &blk[j])
		}
	}
}

// Bits of cell.flags.
const (
	cellSet       = 1 << iota // Add was called
	cellPassed                // the last outcome given to Add
	cellSawFail               // a failed execution
	cellRecovered             // a failed execution was followed by a passing one
	cellWide                  // the counters are in ledgerArm.wide
)

// cell is one test in one run of one arm.
type cell struct {
	run, test int32 // indexes in the arm's runs and tests
	// The counters, each in [0, MaxInt32], unless cellWide is set.
	extraPassed, extraTrials, execs, fails int32
	flags                                  uint8
}

// counters are a cell's counts of trials and executions.
type counters struct {
	extraPassed int64 // passes among AddTrial trials
	extraTrials int64 // AddTrial trials
	execs       int64 // every execution, Add and AddTrial alike
	fails       int64 // failed executions
}

// counts returns the counters of cell i, c.
func (a *ledgerArm) counts(i int, c *cell) counters {
	if c.flags&cellWide != 0 {
		return *a.wide[int32(i)]
	}
	return counters{int64(c.extraPassed), int64(c.extraTrials), int64(c.execs), int64(c.fails)}
}

// add adds d to the counters of cell i, c; each part of d is >= 0.
func (a *ledgerArm) add(i int, c *cell, d counters) {
	if c.flags&cellWide == 0 {
		fits := func(v int32, d int64) bool { return d <= math.MaxInt32-int64(v) }
		if fits(c.extraPassed, d.extraPassed) && fits(c.extraTrials, d.extraTrials) && fits(c.execs, d.execs) && fits(c.fails, d.fails) {
			c.extraPassed += int32(d.extraPassed)
			c.extraTrials += int32(d.extraTrials)
			c.execs += int32(d.execs)
			c.fails += int32(d.fails)
			return
		}
		if a.wide == nil {
			a.wide = map[int32]*counters{}
		}
		w := a.counts(i, c)
		a.wide[int32(i)] = &w
		c.flags |= cellWide
		c.extraPassed, c.extraTrials, c.execs, c.fails = 0, 0, 0, 0
	}
	w := a.wide[int32(i)]
	w.extraPassed += d.extraPassed
	w.extraTrials += d.extraTrials
	w.execs += d.execs
	w.fails += d.fails
}

// trials returns the trials of cell i, c: the outcome that stands and the
// AddTrial trials.
func (a *ledgerArm) trials(i int, c *cell) (passed, trials int64) {
	n := a.counts(i, c)
	passed, trials = n.extraPassed, n.extraTrials
	if c.flags&cellSet != 0 {
		trials++
		if c.flags&cellPassed != 0 {
			passed++
		}
	}
	return passed, trials
}

// find returns the index of the cell of (run ri, test ti), or -1.
func (a *ledgerArm) find(ri, ti int32) int {
	if int(ti) >= len(a.latest) {
		return -1
	}
	li := int(a.latest[ti])
	switch r := a.cells.at(li).run; {
	case r == ri:
		return li
	case r < ri:
		return -1 // a run after the test's latest
	}
	if a.index == nil {
		a.index = make(map[uint64]int32, a.cells.len())
		a.cells.all(func(i int, c *cell) { a.index[cellKey(c.run, c.test)] = int32(i) })
	}
	if i, ok := a.index[cellKey(ri, ti)]; ok {
		return int(i)
	}
	return -1
}

// newCell adds the cell of (run ri, test ti), which find did not find, and
// returns its index.
func (a *ledgerArm) newCell(ri, ti int32) int {
	i := a.cells.add(cell{run: ri, test: ti})
	if int(ti) == len(a.latest) {
		a.latest = append(a.latest, int32(i))
	} else if a.cells.at(int(a.latest[ti])).run < ri {
		a.latest[ti] = int32(i)
	}
	if a.index != nil {
		a.index[cellKey(ri, ti)] = int32(i)
	}
	return i
}

func cellKey(run, test int32) uint64 { return uint64(uint32(run))<<32 | uint64(uint32(test)) }

// nameIndex finds a test's index from its name without a second copy of
// the names: an open-addressing hash table of indexes in the arm's tests
// (4 bytes a slot, at most three quarters full), probed linearly.
type nameIndex struct {
	seed  maphash.Seed
	slots []int32 // index + 1; 0 is empty; len is 0 or a power of 2
	n     int     // names indexed
}

// lookup returns the index of name in names, if indexed.
func (x *nameIndex) lookup(names *blockList[string], name string) (int32, bool) {
	if x.n == 0 {
		return 0, false
	}
	mask := uint64(len(x.slots) - 1)
	for h := maphash.String(x.seed, name) & mask; ; h = (h + 1) & mask {
		v := x.slots[h]
		if v == 0 {
			return 0, false
		}
		if *names.at(int(v - 1)) == name {
			return v - 1, true
		}
	}
}

// insert indexes names[i], which lookup did not find.
func (x *nameIndex) insert(names *blockList[string], i int32) {
	if (x.n+1)*4 > len(x.slots)*3 {
		if x.n == 0 {
			x.seed = maphash.MakeSeed()
		}
		old := x.slots
		x.slots = make([]int32, max(64, 2*len(old)))
		for _, v := range old {
			if v != 0 {
				x.place(*names.at(int(v - 1)), v)
			}
		}
	}
	x.place(*names.at(int(i)), i+1)
	x.n++
}

// place puts slot value v of name in the first free slot of its probe.
func (x *nameIndex) place(name string, v int32) {
	mask := uint64(len(x.slots) - 1)
	h := maphash.String(x.seed, name) & mask
	for x.slots[h] != 0 {
		h = (h + 1) & mask
	}
	x.slots[h] = v
}
