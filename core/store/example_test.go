package store_test

import (
	"bytes"
	"fmt"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/store"
)

// Two runs appended to a new store, the first twice: a store counts a run
// once, and gives back what was recorded.
func Example() {
	run := func(name string, bPassed int64) *history.Parsed {
		return history.NewParsed(name, []history.RunMeta{{Name: name, File: name, Commit: "abc"}},
			[][]history.TestResult{{{Test: "a", Passed: 1, Trials: 1}, {Test: "b", Passed: bPassed, Trials: 1}}},
			nil, []history.Seconds{{Test: "a", Sum: 0.25, N: 1}})
	}
	s := store.NewState()
	var file []byte
	for _, p := range []*history.Parsed{run("r1.xml", 1), run("r1.xml", 1), run("r2.xml", 0)} {
		if b, ok := s.Add(store.Entry{Report: p}); ok {
			file = append(file, b...)
		} else {
			fmt.Println(p.File(), "already recorded")
		}
	}
	store.Each(bytes.NewReader(file), "runs.fgs", func(e store.Entry) error {
		_, runs := e.Report.Runs()
		fmt.Println(e.Report.File(), runs[0], e.Report.Seconds())
		return nil
	})
	// Output:
	// r1.xml already recorded
	// r1.xml [{a 1 1} {b 1 1}] [{a 0.25 1}]
	// r2.xml [{a 1 1} {b 0 1}] [{a 0.25 1}]
}
