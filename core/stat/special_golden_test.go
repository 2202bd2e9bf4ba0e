package stat

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var specialUpdate = flag.Bool("update-special", false, "rewrite core/stat/testdata/special/bits.golden from the current code")

// specialCases lists the inputs whose exact output bits the golden file pins.
// The file is generated natively (go test ./core/stat -update-special) and
// the same test asserts it under GOOS=js GOARCH=wasm and on linux/arm64,
// which is the determinism proof: every line must match to the bit
// everywhere. Its lines keep the names the functions had when it was
// written (pexp is Exp, perfc is Erfc, ratioRange is VarianceRatioRange).
func specialCases() []string {
	var lines []string
	add := func(name string, args []float64, v float64) {
		a := make([]string, len(args))
		for i, x := range args {
			a[i] = fmt.Sprint(x)
		}
		lines = append(lines, fmt.Sprintf("%s(%s) = %016x %v", name, strings.Join(a, ", "), math.Float64bits(v), v))
	}
	for _, x := range []float64{-745.1, -700.5, -20.25, -1, -0.5, -1e-9, 0.1, 0.5, 0.6931471805599453, 1, 2.5, 10, 88.7, 500.3, 709.7} {
		add("pexp", []float64{x}, Exp(x))
	}
	for _, x := range []float64{5e-324, 1e-300, 1e-9, 0.1, 0.5, 0.7071067811865476, 0.9999999, 1.0000001, 2, math.E, 10, 1e9, 1.7e308} {
		add("plog", []float64{x}, Log(x))
	}
	for _, x := range []float64{-0.9999999, -0.5, -1e-10, 1e-20, 1e-6, 0.25, 0.4142, 1, 3, 1e10, 1e300} {
		add("plog1p", []float64{x}, Log1p(x))
	}
	for _, x := range []float64{-5.5, -1, -0.1, 1e-20, 0.2, 0.5, 0.84375, 1, 1.2, 1.5, 2.8, 3, 5, 10, 20, 27} {
		add("perfc", []float64{x}, Erfc(x))
	}
	for _, x := range []float64{1e-300, 1e-20, 1e-11, 1e-5, 0.01, 0.05, 0.1, 0.5, 1, 1.3, 1.9, 1.99999} {
		add("perfcinv", []float64{x}, Erfcinv(x))
	}
	for _, c := range []float64{0.5, 0.8, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.999999} {
		add("Z", []float64{c}, Z(c))
	}
	// Below 0.5, Z takes erfinv of the confidence itself.
	for _, c := range []float64{1e-300, 1e-10, 1e-4, 0.01, 0.3, 0.4999999999999999} {
		add("Z", []float64{c}, Z(c))
	}
	for _, x := range []float64{-3, -0.5, 0, 0.5, 1.959963984540054, 3.5, 7, 12} {
		add("normalSurvival", []float64{x}, NormalSurvival(x))
	}
	for _, x := range []float64{0.5, 1, 1.5, 3.7, 9.5, 15, 15.5, 33.3, 100, 1e4, 1e8} {
		add("lgamma", []float64{x}, Lgamma(x))
	}
	for _, ax := range [][2]float64{{0.5, 0.1}, {0.5, 3}, {1, 1}, {3.5, 2}, {9.5, 12}, {50, 45}, {100, 215}, {400, 300}, {2500, 2600}} {
		p, q := GammaInc(ax[0], ax[1])
		add("gammaIncP", ax[:], p)
		add("gammaIncQ", ax[:], q)
	}
	for _, k := range []float64{1, 2, 3, 7, 18, 19, 50, 99, 1000} {
		for _, p := range []float64{0.001, 0.025, 0.5, 0.975, 0.999} {
			add("chiSquareQuantile", []float64{k, p}, ChiSquareQuantile(k, p))
		}
	}
	for _, nu := range []float64{1, 2, 5, 19, 30, 199, 1000, 1e5} {
		for _, t := range []float64{-40, -6, -2.1, -0.3, 0, 0.7, 1.96, 4} {
			add("studentCDF", []float64{t, nu}, StudentCDF(t, nu))
		}
		for _, p := range []float64{1e-9, 0.01, 0.05, 0.3, 0.95, 0.975} {
			add("studentQuantile", []float64{p, nu}, StudentQuantile(p, nu))
		}
	}
	for _, x := range []float64{-40, -1, -0.4, -1e-10, 1e-20, 0.2, 0.5, 1, 2, 30, 700} {
		add("pexpm1", []float64{x}, Expm1(x))
	}
	for _, df := range []int{2, 3, 9, 19, 99} {
		lo, hi := VarianceRatioRange(df, 0.95)
		add("ratioRange.lo", []float64{float64(df), 0.95}, lo)
		add("ratioRange.hi", []float64{float64(df), 0.95}, hi)
	}
	// Dense sweeps, one SHA-256 of all output bits per function: 100001
	// inputs each. The inputs are built with rounded products so that they
	// are the same on every platform too.
	sweep := func(name string, lo, step float64, f func(float64) float64) {
		h := sha256.New()
		var b [8]byte
		for i := range 100001 {
			x := lo + float64(float64(i)*step)
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(f(x)))
			h.Write(b[:])
		}
		lines = append(lines, fmt.Sprintf("sweep %s over [%v, %v) step %v: sha256 %x", name, lo, lo+float64(100001*step), step, h.Sum(nil)))
	}
	sweep("pexp", -745, 0.0145, Exp)
	sweep("plog", 1e-3, 0.0173, Log)
	sweep("plog1p", -0.999, 3.3e-5, Log1p)
	sweep("pexpm1", -40, 0.00731, Expm1)
	sweep("perfc", -6, 0.00033, Erfc)
	sweep("perfcinv", 1e-9, 1.99e-5, Erfcinv)
	sweep("Z", 1e-6, 9.99e-6, Z)
	sweep("normalSurvival", -8, 0.00037, NormalSurvival)
	sweep("lgamma", 0.01, 0.0157, Lgamma)
	sweep("gammaIncP(7.5, x)", 0.01, 0.00031, func(x float64) float64 { p, _ := GammaInc(7.5, x); return p })
	sweep("chiSquareQuantile(19, p)", 1e-6, 9.99e-6, func(p float64) float64 { return ChiSquareQuantile(19, p) })
	sweep("studentCDF(t, 29)", -20, 0.0004, func(t float64) float64 { return StudentCDF(t, 29) })
	sweep("studentQuantile(p, 29)", 1e-6, 9.99e-6, func(p float64) float64 { return StudentQuantile(p, 29) })
	return lines
}

func TestSpecialBitsGolden(t *testing.T) {
	path := filepath.Join("testdata", "special", "bits.golden")
	got := []byte(strings.Join(specialCases(), "\n") + "\n")
	if *specialUpdate {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (generate it natively with go test ./core/stat -update-special)", err)
	}
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	if len(gl) != len(wl) {
		t.Errorf("%s has %d lines, the code gives %d", path, len(wl), len(gl))
	}
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Errorf("%s line %d:\n got  %s\n want %s", path, i+1, gl[i], wl[i])
		}
	}
}
