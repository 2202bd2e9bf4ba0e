package aa

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa/sim"
)

// sideFromBytes decodes a fuzz input into a side: a byte for the runs, a
// byte for the scenarios, then one bit per (scenario, run) cell, the cells
// of each run in turn; a cell is missing when the next bit says so. The
// tallies add up, as ReadCSV would make them.
func sideFromBytes(data []byte) *Side {
	if len(data) < 2 {
		return nil
	}
	runs, scen := 1+int(data[0]%12), 1+int(data[1]%15)
	bits := data[2:]
	bit := 0
	next := func() bool {
		if len(bits) == 0 {
			return false
		}
		b := bits[(bit/8)%len(bits)]>>(bit%8)&1 == 1
		bit++
		return b
	}
	s := &Side{Scenarios: make([]Tally, scen)}
	for i := range s.Scenarios {
		s.Scenarios[i].ID = fmt.Sprintf("s%d", i)
	}
	for r := range runs {
		t := Tally{ID: fmt.Sprintf("r%d", r)}
		for i := range s.Scenarios {
			if data[0] >= 128 && next() && next() { // some cells missing
				continue
			}
			t.Total++
			s.Scenarios[i].Total++
			if next() {
				t.Passed++
				s.Scenarios[i].Passed++
			}
		}
		if t.Total > 0 {
			s.Runs = append(s.Runs, t)
			s.Rows += t.Total
		}
	}
	// Drop scenarios no run saw.
	kept := s.Scenarios[:0]
	for _, t := range s.Scenarios {
		if t.Total > 0 {
			kept = append(kept, t)
		}
	}
	s.Scenarios = kept
	return s
}

// checkDepth asserts what must hold of any result: numbers finite and in
// range, counts consistent, the list orders kept, and JSON that encodes.
func checkDepth(t *testing.T, d *Depth, base *Side) {
	t.Helper()
	unit := func(what string, x float64) {
		if !(x >= 0 && x <= 1) {
			t.Fatalf("%s = %v, not in [0,1]", what, x)
		}
	}
	if vr := d.VarianceRatio; vr != nil {
		if !(vr.MeasuredOverFormula >= 0) || math.IsInf(vr.MeasuredOverFormula, 0) || !(vr.RangeLower < 1 && vr.RangeUpper > 1) {
			t.Fatalf("variance ratio %+v", vr)
		}
	}
	if tt := d.TrendTest; tt != nil {
		if !(tt.PValue > 0 && tt.PValue <= 1) || tt.Permutations < 1 {
			t.Fatalf("trend %+v", tt)
		}
		unit("first half", tt.FirstHalfMean)
		unit("second half", tt.SecondHalfMean)
	}
	f := d.FixedDrop
	if f.Fired != f.FiredEarlierBaseline+f.FiredLaterBaseline || f.Fired > f.Pairs || f.Pairs != int64(len(base.Runs)*(len(base.Runs)-1)) {
		t.Fatalf("fixed drop %+v", f)
	}
	unit("fixed-drop rate", f.Rate)
	unit("independent rate", f.IndependentRate)
	for i, pk := range d.PassK {
		unit("pass^k", pk.Rate)
		if pk.K != i+1 || (i > 0 && pk.Rate > d.PassK[i-1].Rate+1e-12) {
			t.Fatalf("pass^k %v", d.PassK)
		}
	}
	for i, fl := range d.Flaky {
		if fl.Passed <= 0 || fl.Passed >= fl.Runs || (i > 0 && cmpNoise(d.Flaky[i-1].Passed, d.Flaky[i-1].Runs, fl.Passed, fl.Runs) < 0) {
			t.Fatalf("flaky %v", d.Flaky)
		}
	}
	if p := d.PairedT; p != nil {
		unit("paired p", p.PValue)
		if !(p.Diff >= -1 && p.Diff <= 1) || !(p.SE >= 0) {
			t.Fatalf("paired %+v", p)
		}
	}
	var b bytes.Buffer
	if err := core.WriteJSON(&b, d); err != nil {
		t.Fatalf("JSON: %v", err)
	}
}

// FuzzDepth: any side decoded from bytes either is refused with an *Error or
// gives a result that keeps every invariant; nothing panics.
func FuzzDepth(f *testing.F) {
	f.Add([]byte{5, 6, 0xa5, 0x3c, 0xff, 0x00, 0x81})
	f.Add([]byte{19, 14, 0xfe, 0xfd, 0xfb, 0xf7, 0xef})
	f.Add([]byte{140, 3, 0x55, 0xaa})
	f.Add([]byte{0, 0})
	f.Add([]byte{7, 0, 1})
	f.Add([]byte{3, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		base := sideFromBytes(data)
		var cand *Side
		if len(data) > 4 {
			cand = sideFromBytes(data[len(data)/2:])
		}
		opt := DefaultDepthOptions
		opt.Permutations = 50
		d, err := InDepth(base, cand, opt)
		if cerr := CheckDepth(base, cand, opt); fmt.Sprint(cerr) != fmt.Sprint(err) {
			t.Fatalf("CheckDepth says %v, Depth %v", cerr, err)
		}
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) || e.Msg == "" {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		checkDepth(t, d, base)
	})
}

// FuzzDepthTallies feeds raw tallies, consistent or not: Depth must refuse
// the inconsistent ones with an *Error and never panic.
func FuzzDepthTallies(f *testing.F) {
	f.Add([]byte{3, 2, 1, 3, 0, 3, 2, 3, 1, 3})
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255})
	f.Add([]byte{1, 1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Side{}
		for i := 0; i+8 <= len(data) && i < 64; i += 8 {
			p := int64(int16(binary.LittleEndian.Uint16(data[i:])))
			tot := int64(int16(binary.LittleEndian.Uint16(data[i+2:])))
			if i%16 == 0 {
				s.Scenarios = append(s.Scenarios, Tally{ID: fmt.Sprint(i % 24), Passed: p, Total: tot})
			} else {
				s.Runs = append(s.Runs, Tally{ID: fmt.Sprint(i % 40), Passed: p, Total: tot})
			}
			s.Rows += tot
		}
		d, err := InDepth(s, nil, DefaultDepthOptions)
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		checkDepth(t, d, s)
	})
}

// FuzzSimulate: small simulations of decoded sides with decoded options keep
// their rates in [0,1] and encode as JSON, or are refused with an *Error.
func FuzzSimulate(f *testing.F) {
	f.Add([]byte{5, 6, 0xa5, 0x3c, 0xff, 0x00, 0x81}, uint8(3), uint8(20), uint8(2))
	f.Add([]byte{11, 14, 0xfe, 0xfd, 0xfb, 0xf7, 0xef}, uint8(1), uint8(50), uint8(0))
	f.Add([]byte{2, 2, 0x0f}, uint8(0), uint8(0), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, k, dropPct, broken uint8) {
		base := sideFromBytes(data)
		opt := sim.DefaultOptions
		opt.Sets = 30
		opt.RunsPerSide = int(k % 70)
		opt.Drop = float64(dropPct) / 100
		opt.Broken = int(broken)
		res, err := Simulate(base, opt)
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		for _, g := range res.Gates {
			if len(g.Detection) != len(res.Shapes) {
				t.Fatalf("gate %s has %d detection rates for %d shapes", g.Gate, len(g.Detection), len(res.Shapes))
			}
			for _, r := range append([]*float64{g.FalseAlarm}, g.Detection...) {
				if r != nil && !(*r >= 0 && *r <= 1) {
					t.Fatalf("gate %s: rate %v", g.Gate, *r)
				}
			}
		}
		var b bytes.Buffer
		if err := core.WriteJSON(&b, res); err != nil {
			t.Fatalf("JSON: %v", err)
		}
	})
}
