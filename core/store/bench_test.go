package store_test

import (
	"bytes"
	"testing"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/core/store"
)

// benchStore is a store of runs planted runs of tests tests, each test
// timed in every run (its own time, varied per run, in centiseconds).
func benchStore(b *testing.B, runs, tests int) []byte {
	b.Helper()
	cfg := histsim.Config{Seed: 50, Runs: runs, Stable: tests - 5, Flaky: []float64{0.005, 0.01, 0.02, 0.05, 0.2}, Outages: 1, OutageShare: [2]float64{0.05, 0.3}}
	s := store.NewState()
	var file []byte
	k := uint32(0)
	_, err := histsim.Generate(cfg, func(m history.RunMeta, rs []history.TestResult) error {
		var secs []history.Seconds
		for i, r := range rs {
			k = k*1103515245 + 12345
			secs = append(secs, history.Seconds{Test: r.Test, Sum: float64(i%50+int(k>>16)%3) / 100, N: r.Trials})
		}
		p := history.NewParsed(m.Name, []history.RunMeta{m}, [][]history.TestResult{rs}, nil, secs)
		rec, _ := s.Add(store.Entry{Report: p})
		file = append(file, rec...)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return file
}

// BenchmarkHistoryFromStore reads a store into a History, as flakegate
// history does; per result.
func BenchmarkHistoryFromStore(b *testing.B) {
	file := benchStore(b, 100, 5000)
	b.SetBytes(int64(len(file)))
	b.ResetTimer()
	for range b.N {
		h := history.New()
		err := store.Each(bytes.NewReader(file), "s", func(e store.Entry) error { return h.AddParsed(e.Report) })
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/5e5, "ns/result")
}
