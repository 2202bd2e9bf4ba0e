// Portions of this file are ported from the Go standard library's portable
// math/erf.go and math/erfinv.go:
//
// Copyright 2010 The Go Authors (erf.go), 2017 (erfinv.go). All rights
// reserved. Use of this source code is governed by a BSD-style license that
// can be found in Go's LICENSE file.
//
// erf.go comes from FreeBSD's /usr/src/lib/msun/src/s_erf.c, Copyright (C)
// 1993 by Sun Microsystems, Inc.: "Developed at SunPro, a Sun Microsystems,
// Inc. business. Permission to use, copy, modify, and distribute this
// software is freely granted, provided that this notice is preserved."
// erfinv.go follows Wichura's algorithm AS 241 (Applied Statistics 37, 1988).

package stat

import (
	"math"
)

// horner returns c[0] + x·(c[1] + x·(c[2] + …)), each product rounded before
// the sum (no fused multiply-add), in the same order as the nested form.
func horner(x float64, c ...float64) float64 {
	r := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		r = c[i] + float64(x*r)
	}
	return r
}

// Coefficients of erf.go (s_erf.c). erx is erf(1) to 28 bits
// (0x3FEB0AC160000000).
const erx = 8.45062911510467529297e-01

// erfRationals are erf.go's rational approximations P/Q, the numerator's
// coefficients ([i][0]: pp, pa, ra, rb) and the denominator's ([i][1]: qq,
// qa, sa, sb, with its constant 1), lowest order first; each decimal is the
// float64 of the hex in s_erf.c. By range: |x| < 0.84375, in x²;
// 0.84375 <= |x| < 1.25, in |x|-1; 1.25 <= |x| < 1/0.35 and 1/0.35 <= |x| <
// 28, in 1/x².
var erfRationals = [4][2][]float64{
	{{1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05},
		{1, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06}},
	{{-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01, 3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03},
		{1, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02}},
	{{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01, -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01, -9.81432934416914548592e+00},
		{1, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02}},
	{{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01, -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02},
		{1, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01}},
}

// erfRatio is erfRationals[i]'s P(x)/Q(x).
func erfRatio(i int, x float64) float64 {
	pq := &erfRationals[i]
	return horner(x, pq[0]...) / horner(x, pq[1]...)
}

// Erfc returns the complementary error function 1 - erf(x), as Go's
// portable math.Erfc. Erfc(+Inf) = 0, Erfc(-Inf) = 2, Erfc(NaN) = NaN.
func Erfc(x float64) float64 {
	const tiny = 1.0 / (1 << 56) // 2**-56
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	case math.IsInf(x, -1):
		return 2
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	if x < 0.84375 {
		var temp float64
		if x < tiny {
			temp = x
		} else {
			z := float64(x * x)
			y := erfRatio(0, z)
			if x < 0.25 {
				temp = x + float64(x*y)
			} else {
				temp = 0.5 + (float64(x*y) + (x - 0.5))
			}
		}
		if sign {
			return 1 + temp
		}
		return 1 - temp
	}
	if x < 1.25 {
		s := x - 1
		pq := erfRatio(1, s)
		if sign {
			return 1 + erx + pq
		}
		return 1 - erx - pq
	}
	if x < 28 {
		s := 1 / float64(x*x)
		var rs float64 // R/S
		if x < 1/0.35 {
			rs = erfRatio(2, s)
		} else {
			if sign && x > 6 {
				return 2 // x < -6
			}
			rs = erfRatio(3, s)
		}
		z := math.Float64frombits(math.Float64bits(x) & 0xffffffff00000000) // x to 20 bits
		r := Exp(-float64(z*z)-0.5625) * Exp(float64((z-x)*(z+x))+rs)
		if sign {
			return 2 - r/x
		}
		return r / x
	}
	if sign {
		return 2
	}
	return 0
}

// erfSmall returns erf(x) for 0 <= x < 0.84375, as Go's portable math.Erf
// computes it there: x + x·P(x²)/Q(x²) with Erfc's coefficients, which
// keeps x's relative precision (1 - Erfc(x) would not).
func erfSmall(x float64) float64 {
	const (
		efx  = 1.28379167095512586316e-01 // 0x3FC06EBA8214DB69
		tiny = 1.0 / (1 << 28)            // 2**-28
	)
	if x < tiny {
		return x + float64(efx*x)
	}
	z := float64(x * x)
	return x + float64(x*erfRatio(0, z))
}

// Coefficients of erfinv.go (AS 241): each rational approximation's
// numerator ([i][0]) and denominator ([i][1]), lowest order first, for |x| <= 0.85 in
// r = 0.180625 - x²/4; then in r = √(ln 2 - log(1-|x|)), less 1.6 for
// r <= 5 (|x| <= 1-2*exp(-25)) and less 5 above.
var erfinvPolys = [3][2][8]float64{
	{{1.1975323115670912564578e0, 4.7072688112383978012285e1, 6.9706266534389598238465e2, 4.8548868893843886794648e3, 1.6235862515167575384252e4, 2.3782041382114385731252e4, 1.1819493347062294404278e4, 8.8709406962545514830200e2},
		{1.0000000000000000000e0, 4.2313330701600911252e1, 6.8718700749205790830e2, 5.3941960214247511077e3, 2.1213794301586595867e4, 3.9307895800092710610e4, 2.8729085735721942674e4, 5.2264952788528545610e3}},
	{{1.42343711074968357734e0, 4.63033784615654529590e0, 5.76949722146069140550e0, 3.64784832476320460504e0, 1.27045825245236838258e0, 2.41780725177450611770e-1, 2.27238449892691845833e-2, 7.74545014278341407640e-4},
		{1.4142135623730950488016887e0, 2.9036514445419946173133295e0, 2.3707661626024532365971225e0, 9.7547832001787427186894837e-1, 2.0945065210512749128288442e-1, 2.1494160384252876777097297e-2, 7.7441459065157709165577218e-4, 1.4859850019840355905497876e-9}},
	{{6.65790464350110377720e0, 5.46378491116411436990e0, 1.78482653991729133580e0, 2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3, 2.71155556874348757815e-5, 2.01033439929228813265e-7},
		{1.414213562373095048801689e0, 8.482908416595164588112026e-1, 1.936480946950659106176712e-1, 2.103693768272068968719679e-2, 1.112800997078859844711555e-3, 2.611088405080593625138020e-5, 2.010321207683943062279931e-7, 2.891024605872965461538222e-15}},
}

// Erfinv returns the inverse error function of x, as Go's math.Erfinv:
// ±Inf at ±1, NaN outside [-1,1] and for NaN.
func Erfinv(x float64) float64 {
	if math.IsNaN(x) || x <= -1 || x >= 1 {
		if x == -1 || x == 1 {
			return math.Inf(int(x))
		}
		return math.NaN()
	}
	sign := false
	if x < 0 {
		x = -x
		sign = true
	}
	var ans float64
	if x <= 0.85 {
		r := 0.180625 - float64(float64(0.25*x)*x)
		p := &erfinvPolys[0]
		ans = float64(x*horner(r, p[0][:]...)) / horner(r, p[1][:]...)
	} else {
		r := math.Sqrt(math.Ln2 - Log(1.0-x))
		p := &erfinvPolys[1]
		if r <= 5.0 {
			r -= 1.6
		} else {
			r -= 5.0
			p = &erfinvPolys[2]
		}
		ans = horner(r, p[0][:]...) / horner(r, p[1][:]...)
	}
	if sign {
		return -ans
	}
	return ans
}

// Erfcinv returns the inverse of Erfc, as Go's math.Erfcinv: +Inf at 0,
// -Inf at 2, NaN outside [0,2].
func Erfcinv(x float64) float64 { return Erfinv(1 - x) }

// NormalSurvival returns P(Z > x) for a standard normal Z, erfc(x/√2)/2.
func NormalSurvival(x float64) float64 { return 0.5 * Erfc(x/math.Sqrt2) }

// NormalDensity returns the standard normal density exp(-x²/2)/√(2π).
func NormalDensity(x float64) float64 {
	return Exp(-float64(x*x)/2) / math.Sqrt(2*math.Pi)
}
