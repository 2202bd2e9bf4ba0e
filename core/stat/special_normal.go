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

// Coefficients of erf.go (s_erf.c).
const (
	erx = 8.45062911510467529297e-01 // 0x3FEB0AC160000000
	// |x| < 0.84375
	erfPP0 = 1.28379167095512558561e-01  // 0x3FC06EBA8214DB68
	erfPP1 = -3.25042107247001499370e-01 // 0xBFD4CD7D691CB913
	erfPP2 = -2.84817495755985104766e-02 // 0xBF9D2A51DBD7194F
	erfPP3 = -5.77027029648944159157e-03 // 0xBF77A291236668E4
	erfPP4 = -2.37630166566501626084e-05 // 0xBEF8EAD6120016AC
	erfQQ1 = 3.97917223959155352819e-01  // 0x3FD97779CDDADC09
	erfQQ2 = 6.50222499887672944485e-02  // 0x3FB0A54C5536CEBA
	erfQQ3 = 5.08130628187576562776e-03  // 0x3F74D022C4D36B0F
	erfQQ4 = 1.32494738004321644526e-04  // 0x3F215DC9221C1A10
	erfQQ5 = -3.96022827877536812320e-06 // 0xBED09C4342A26120
	// 0.84375 <= |x| < 1.25
	erfPA0 = -2.36211856075265944077e-03 // 0xBF6359B8BEF77538
	erfPA1 = 4.14856118683748331666e-01  // 0x3FDA8D00AD92B34D
	erfPA2 = -3.72207876035701323847e-01 // 0xBFD7D240FBB8C3F1
	erfPA3 = 3.18346619901161753674e-01  // 0x3FD45FCA805120E4
	erfPA4 = -1.10894694282396677476e-01 // 0xBFBC63983D3E28EC
	erfPA5 = 3.54783043256182359371e-02  // 0x3FA22A36599795EB
	erfPA6 = -2.16637559486879084300e-03 // 0xBF61BF380A96073F
	erfQA1 = 1.06420880400844228286e-01  // 0x3FBB3E6618EEE323
	erfQA2 = 5.40397917702171048937e-01  // 0x3FE14AF092EB6F33
	erfQA3 = 7.18286544141962662868e-02  // 0x3FB2635CD99FE9A7
	erfQA4 = 1.26171219808761642112e-01  // 0x3FC02660E763351F
	erfQA5 = 1.36370839120290507362e-02  // 0x3F8BEDC26B51DD1C
	erfQA6 = 1.19844998467991074170e-02  // 0x3F888B545735151D
	// 1.25 <= |x| < 1/0.35
	erfRA0 = -9.86494403484714822705e-03 // 0xBF843412600D6435
	erfRA1 = -6.93858572707181764372e-01 // 0xBFE63416E4BA7360
	erfRA2 = -1.05586262253232909814e+01 // 0xC0251E0441B0E726
	erfRA3 = -6.23753324503260060396e+01 // 0xC04F300AE4CBA38D
	erfRA4 = -1.62396669462573470355e+02 // 0xC0644CB184282266
	erfRA5 = -1.84605092906711035994e+02 // 0xC067135CEBCCABB2
	erfRA6 = -8.12874355063065934246e+01 // 0xC054526557E4D2F2
	erfRA7 = -9.81432934416914548592e+00 // 0xC023A0EFC69AC25C
	erfSA1 = 1.96512716674392571292e+01  // 0x4033A6B9BD707687
	erfSA2 = 1.37657754143519042600e+02  // 0x4061350C526AE721
	erfSA3 = 4.34565877475229228821e+02  // 0x407B290DD58A1A71
	erfSA4 = 6.45387271733267880336e+02  // 0x40842B1921EC2868
	erfSA5 = 4.29008140027567833386e+02  // 0x407AD02157700314
	erfSA6 = 1.08635005541779435134e+02  // 0x405B28A3EE48AE2C
	erfSA7 = 6.57024977031928170135e+00  // 0x401A47EF8E484A93
	erfSA8 = -6.04244152148580987438e-02 // 0xBFAEEFF2EE749A62
	// 1/0.35 <= |x| < 28
	erfRB0 = -9.86494292470009928597e-03 // 0xBF84341239E86F4A
	erfRB1 = -7.99283237680523006574e-01 // 0xBFE993BA70C285DE
	erfRB2 = -1.77579549177547519889e+01 // 0xC031C209555F995A
	erfRB3 = -1.60636384855821916062e+02 // 0xC064145D43C5ED98
	erfRB4 = -6.37566443368389627722e+02 // 0xC083EC881375F228
	erfRB5 = -1.02509513161107724954e+03 // 0xC09004616A2E5992
	erfRB6 = -4.83519191608651397019e+02 // 0xC07E384E9BDC383F
	erfSB1 = 3.03380607434824582924e+01  // 0x403E568B261D5190
	erfSB2 = 3.25792512996573918826e+02  // 0x40745CAE221B9F0A
	erfSB3 = 1.53672958608443695994e+03  // 0x409802EB189D5118
	erfSB4 = 3.19985821950859553908e+03  // 0x40A8FFB7688C246A
	erfSB5 = 2.55305040643316442583e+03  // 0x40A3F219CEDF3BE6
	erfSB6 = 4.74528541206955367215e+02  // 0x407DA874E79FE763
	erfSB7 = -2.24409524465858183362e+01 // 0xC03670E242712D62
)

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
			r := horner(z, erfPP0, erfPP1, erfPP2, erfPP3, erfPP4)
			s := horner(z, 1, erfQQ1, erfQQ2, erfQQ3, erfQQ4, erfQQ5)
			y := r / s
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
		P := horner(s, erfPA0, erfPA1, erfPA2, erfPA3, erfPA4, erfPA5, erfPA6)
		Q := horner(s, 1, erfQA1, erfQA2, erfQA3, erfQA4, erfQA5, erfQA6)
		if sign {
			return 1 + erx + P/Q
		}
		return 1 - erx - P/Q
	}
	if x < 28 {
		s := 1 / float64(x*x)
		var R, S float64
		if x < 1/0.35 {
			R = horner(s, erfRA0, erfRA1, erfRA2, erfRA3, erfRA4, erfRA5, erfRA6, erfRA7)
			S = horner(s, 1, erfSA1, erfSA2, erfSA3, erfSA4, erfSA5, erfSA6, erfSA7, erfSA8)
		} else {
			if sign && x > 6 {
				return 2 // x < -6
			}
			R = horner(s, erfRB0, erfRB1, erfRB2, erfRB3, erfRB4, erfRB5, erfRB6)
			S = horner(s, 1, erfSB1, erfSB2, erfSB3, erfSB4, erfSB5, erfSB6, erfSB7)
		}
		z := math.Float64frombits(math.Float64bits(x) & 0xffffffff00000000) // x to 20 bits
		r := Exp(-float64(z*z)-0.5625) * Exp(float64((z-x)*(z+x))+R/S)
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
	r := horner(z, erfPP0, erfPP1, erfPP2, erfPP3, erfPP4)
	s := horner(z, 1, erfQQ1, erfQQ2, erfQQ3, erfQQ4, erfQQ5)
	return x + float64(x*(r/s))
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
