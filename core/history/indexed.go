package history

import "github.com/flakegate/flakegate/core"

// Table is a name table (a history store's: test names by index, in the
// order its records brought them) as one History sees it: each name is
// looked up in the History once, so that results given by index
// (AddIndexed) are counted without a lookup by name each.
type Table struct {
	h     *History
	names []string
	ids   []int32 // the History's index of names[k]; -1 until it has one
}

// Table returns an empty name table of h.
func (h *History) Table() *Table { return &Table{h: h} }

// Extend adds names at the table's end.
func (t *Table) Extend(names ...string) {
	t.names = append(t.names, names...)
	for range names {
		t.ids = append(t.ids, -1)
	}
}

// Len is the number of names in the table.
func (t *Table) Len() int { return len(t.names) }

// IndexedResult is a TestResult whose test is named by its index in a
// Table.
type IndexedResult struct {
	Test   uint32 // index in the table
	Passed int64  // in [0, Trials]
	Trials int64  // >= 1
}

// IndexedSeconds is a Seconds whose test is named by its index in a Table.
type IndexedSeconds struct {
	Test uint32  // index in the table
	N    int64   // timed attempts, >= 1
	Sum  float64 // seconds, as summed in the report's order
}

// AddIndexed adds a file read elsewhere whose results and run times name
// their tests by index in t: the same as AddParsed of
// NewParsed(file, metas, runs, notes, seconds) with the names put back,
// and the same figures. A result's test past the table is an invalid-input
// error.
func (t *Table) AddIndexed(file string, metas []RunMeta, runs [][]IndexedResult, notes []string, seconds []IndexedSeconds) error {
	h := t.h
	for _, n := range notes {
		h.warn(file + ": " + n)
	}
	for k, meta := range metas {
		rec, err := h.beginRun(meta, len(runs[k]))
		if err != nil {
			return err
		}
		r := int32(len(h.runs))
		for _, tr := range runs[k] {
			if int(tr.Test) >= len(t.names) {
				return &core.Error{Kind: core.Invalid, File: meta.File, Msg: "a result names no test of the name table"}
			}
			name := t.names[tr.Test]
			if err := checkResult(meta, name, tr.Passed, tr.Trials); err != nil {
				return err
			}
			i := t.ids[tr.Test]
			if i < 0 {
				var ok bool
				if i, ok = h.byName[name]; !ok {
					if i, err = h.newTest(meta, name, r); err != nil {
						return err
					}
				}
				t.ids[tr.Test] = i
			}
			h.count(&rec, r, i, tr.Passed, tr.Trials)
		}
		h.runs = append(h.runs, rec)
	}
	for _, d := range seconds {
		if int(d.Test) >= len(t.names) {
			continue
		}
		i := t.ids[d.Test]
		if i < 0 {
			// A test timed but not counted yet is left out, as AddParsed
			// leaves it; it may be counted later, so it is not remembered.
			var ok bool
			if i, ok = h.byName[t.names[d.Test]]; !ok {
				continue
			}
			t.ids[d.Test] = i
		}
		tc := h.tests[i]
		tc.seconds += d.Sum
		tc.timed += d.N
	}
	return nil
}
