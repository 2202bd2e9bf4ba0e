// Portions of this file are ported from the Go standard library's portable
// math/exp.go, math/log.go, math/log1p.go and math/expm1.go:
//
// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in Go's LICENSE file.
//
// Those files in turn come from FreeBSD's /usr/src/lib/msun/src/e_exp.c and
// e_log.c (and s_log1p.c, s_expm1.c), Copyright (C) 1993 by Sun Microsystems, Inc.: "Developed at
// SunPro, a Sun Microsystems, Inc. business. Permission to use, copy, modify,
// and distribute this software is freely granted, provided that this notice
// is preserved."

package stat

import (
	"math"
)

// Deterministic special functions.
//
// Every number core computes must have the same bits on every platform:
// amd64 (with or without FMA), arm64 (AWS Lambda) and js/wasm (browsers and
// Cloudflare Workers). The standard library's math.Exp and math.Log use
// assembly on amd64, arm64 and s390x that can differ from the portable Go in
// the last bit, and everything built on them (math.Erfc, math.Lgamma,
// math.Pow, gonum's distributions) inherits the difference. The compiler may
// also fuse x*y+z into one fused multiply-add on arm64, which rounds once
// instead of twice. So the functions here are written in plain Go using
// only operations IEEE 754 rounds exactly (+ - * / sqrt, Frexp, Ldexp,
// Floor), and every product whose result is then added or subtracted is
// wrapped in an explicit float64(...) conversion, which the Go spec says
// rounds and so forbids the fusion.
//
// Exp, Log, Log1p and Expm1 are the portable math/exp.go and math/log.go with those
// conversions added: on amd64 without FMA contraction and on wasm they give
// the same value as Go's non-assembly path.

// Exp returns e**x, as Go's portable math.Exp. Special cases: Exp(+Inf) =
// +Inf, Exp(NaN) = NaN, large negative x underflow to 0.
func Exp(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		log2e = 1.44269504088896338700e+00

		overflow  = 7.09782712893383973096e+02
		underflow = -7.45133219101941108420e+02
		nearZero  = 1.0 / (1 << 28) // 2**-28
	)
	switch {
	case math.IsNaN(x):
		return x
	case x > overflow:
		return math.Inf(1)
	case x < underflow:
		return 0
	case -nearZero < x && x < nearZero:
		return 1 + x
	}
	// Reduce: x = k·ln2 + r, r computed as hi - lo for extra precision.
	var k int
	switch {
	case x < 0:
		k = int(float64(log2e*x) - 0.5)
	case x > 0:
		k = int(float64(log2e*x) + 0.5)
	}
	hi := x - float64(float64(k)*ln2Hi)
	lo := float64(float64(k) * ln2Lo)
	return expmulti(hi, lo, k)
}

// expmulti returns e**r × 2**k where r = hi - lo and |r| ≤ ln(2)/2.
func expmulti(hi, lo float64, k int) float64 {
	const (
		p1 = 1.66666666666666657415e-01  /* 0x3FC55555; 0x55555555 */
		p2 = -2.77777777770155933842e-03 /* 0xBF66C16C; 0x16BEBD93 */
		p3 = 6.61375632143793436117e-05  /* 0x3F11566A; 0xAF25DE2C */
		p4 = -1.65339022054652515390e-06 /* 0xBEBBBD41; 0xC5D26BF1 */
		p5 = 4.13813679705723846039e-08  /* 0x3E663769; 0x72BEA4D0 */
	)
	r := hi - lo
	t := float64(r * r)
	c := r - float64(t*(p1+float64(t*(p2+float64(t*(p3+float64(t*(p4+float64(t*p5)))))))))
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return math.Ldexp(y, k)
}

// Log returns the natural logarithm of x, as Go's portable math.Log.
// Special cases: Log(+Inf) = +Inf, Log(0) = -Inf, Log(x < 0) = NaN,
// Log(NaN) = NaN.
func Log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 /* 3fe62e42 fee00000 */
		ln2Lo = 1.90821492927058770002e-10 /* 3dea39ef 35793c76 */
		l1    = 6.666666666666735130e-01   /* 3FE55555 55555593 */
		l2    = 3.999999999940941908e-01   /* 3FD99999 9997FA04 */
		l3    = 2.857142874366239149e-01   /* 3FD24924 94229359 */
		l4    = 2.222219843214978396e-01   /* 3FCC71C5 1D8E78AF */
		l5    = 1.818357216161805012e-01   /* 3FC74664 96CB03DE */
		l6    = 1.531383769920937332e-01   /* 3FC39A09 D078C69F */
		l7    = 1.479819860511658591e-01   /* 3FC2F112 DF3E5244 */
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)

	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	R := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + float64(k*ln2Lo))) - f)
}

// Log1p returns log(1+x), accurate near 0, as Go's portable math.Log1p.
// Special cases: Log1p(-1) = -Inf, Log1p(x < -1) = NaN, Log1p(+Inf) =
// +Inf, Log1p(NaN) = NaN. (math.Log1p is pure Go on amd64 and arm64, but
// arm64 may fuse its products; this copy rounds them.)
func Log1p(x float64) float64 {
	const (
		sqrt2M1     = 4.142135623730950488017e-01  // Sqrt(2)-1 = 0x3fda827999fcef34
		sqrt2HalfM1 = -2.928932188134524755992e-01 // Sqrt(2)/2-1 = 0xbfd2bec333018866
		small       = 1.0 / (1 << 29)              // 2**-29 = 0x3e20000000000000
		tiny        = 1.0 / (1 << 54)              // 2**-54
		two53       = 1 << 53                      // 2**53
		ln2Hi       = 6.93147180369123816490e-01   // 3fe62e42fee00000
		ln2Lo       = 1.90821492927058770002e-10   // 3dea39ef35793c76
		lp1         = 6.666666666666735130e-01     // 3FE5555555555593
		lp2         = 3.999999999940941908e-01     // 3FD999999997FA04
		lp3         = 2.857142874366239149e-01     // 3FD2492494229359
		lp4         = 2.222219843214978396e-01     // 3FCC71C51D8E78AF
		lp5         = 1.818357216161805012e-01     // 3FC7466496CB03DE
		lp6         = 1.531383769920937332e-01     // 3FC39A09D078C69F
		lp7         = 1.479819860511658591e-01     // 3FC2F112DF3E5244
	)
	switch {
	case x < -1 || math.IsNaN(x):
		return math.NaN()
	case x == -1:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return math.Inf(1)
	}
	absx := math.Abs(x)
	var f float64
	var iu uint64
	k := 1
	if absx < sqrt2M1 {
		if absx < small {
			if absx < tiny {
				return x
			}
			return x - float64(float64(x*x)*0.5)
		}
		if x > sqrt2HalfM1 {
			k = 0
			f = x
			iu = 1
		}
	}
	var c float64
	if k != 0 {
		var u float64
		if absx < two53 {
			u = 1.0 + x
			iu = math.Float64bits(u)
			k = int((iu >> 52) - 1023)
			if k > 0 {
				c = 1.0 - (u - x)
			} else {
				c = x - (u - 1.0)
			}
			c /= u
		} else {
			u = x
			iu = math.Float64bits(u)
			k = int((iu >> 52) - 1023)
			c = 0
		}
		iu &= 0x000fffffffffffff
		if iu < 0x0006a09e667f3bcd { // mantissa of Sqrt(2)
			u = math.Float64frombits(iu | 0x3ff0000000000000) // normalize u
		} else {
			k++
			u = math.Float64frombits(iu | 0x3fe0000000000000) // normalize u/2
			iu = (0x0010000000000000 - iu) >> 2
		}
		f = u - 1.0 // Sqrt(2)/2 < u < Sqrt(2)
	}
	hfsq := float64(float64(0.5*f) * f)
	kf := float64(k)
	if iu == 0 { // |f| < 2**-20
		if f == 0 {
			if k == 0 {
				return 0
			}
			c += float64(kf * ln2Lo)
			return float64(kf*ln2Hi) + c
		}
		R := float64(hfsq * (1.0 - float64(0.66666666666666666*f)))
		if k == 0 {
			return f - R
		}
		return float64(kf*ln2Hi) - ((R - (float64(kf*ln2Lo) + c)) - f)
	}
	s := f / (2.0 + f)
	z := float64(s * s)
	R := float64(z * horner(z, lp1, lp2, lp3, lp4, lp5, lp6, lp7))
	if k == 0 {
		return f - (hfsq - float64(s*(hfsq+R)))
	}
	return float64(kf*ln2Hi) - ((hfsq - (float64(s*(hfsq+R)) + (float64(kf*ln2Lo) + c))) - f)
}

// Expm1 returns e**x - 1, accurate near 0, as Go's portable math.Expm1.
// Special cases: Expm1(+Inf) = +Inf, Expm1(-Inf) = -1, Expm1(NaN) = NaN;
// very large x overflow to +Inf. (math.Expm1 is pure Go on amd64 and arm64,
// but arm64 fuses its products and gives other last bits; this copy rounds
// them.)
func Expm1(x float64) float64 {
	const (
		othreshold = 7.09782712893383973096e+02 // 0x40862E42FEFA39EF
		ln2X56     = 3.88162421113569373274e+01 // 0x4043687a9f1af2b1
		ln2HalfX3  = 1.03972077083991796413e+00 // 0x3ff0a2b23f3bab73
		ln2Half    = 3.46573590279972654709e-01 // 0x3fd62e42fefa39ef
		ln2Hi      = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
		ln2Lo      = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
		invLn2     = 1.44269504088896338700e+00 // 0x3ff71547652b82fe
		tiny       = 1.0 / (1 << 54)            // 2**-54 = 0x3c90000000000000
		// scaled coefficients related to expm1
		q1 = -3.33333333333331316428e-02 // 0xBFA11111111110F4
		q2 = 1.58730158725481460165e-03  // 0x3F5A01A019FE5585
		q3 = -7.93650757867487942473e-05 // 0xBF14CE199EAADBB7
		q4 = 4.00821782732936239552e-06  // 0x3ED0CFCA86E65239
		q5 = -2.01099218183624371326e-07 // 0xBE8AFDB76E09C32D
	)
	switch {
	case math.IsInf(x, 1) || math.IsNaN(x):
		return x
	case math.IsInf(x, -1):
		return -1
	}
	absx := x
	sign := false
	if x < 0 {
		absx = -absx
		sign = true
	}
	if absx >= ln2X56 {
		if sign {
			return -1
		}
		if absx >= othreshold {
			return math.Inf(1)
		}
	}
	var c float64
	var k int
	if absx > ln2Half {
		var hi, lo float64
		if absx < ln2HalfX3 {
			if !sign {
				hi = x - ln2Hi
				lo = ln2Lo
				k = 1
			} else {
				hi = x + ln2Hi
				lo = -ln2Lo
				k = -1
			}
		} else {
			if !sign {
				k = int(float64(invLn2*x) + 0.5)
			} else {
				k = int(float64(invLn2*x) - 0.5)
			}
			t := float64(k)
			hi = x - float64(t*ln2Hi) // t * ln2Hi is exact here
			lo = float64(t * ln2Lo)
		}
		x = hi - lo
		c = (hi - x) - lo
	} else if absx < tiny {
		return x
	} else {
		k = 0
	}
	hfx := float64(0.5 * x)
	hxs := float64(x * hfx)
	r1 := horner(hxs, 1, q1, q2, q3, q4, q5)
	t := 3 - float64(r1*hfx)
	e := float64(hxs * ((r1 - t) / (6.0 - float64(x*t))))
	if k == 0 {
		return x - (float64(x*e) - hxs) // c is 0
	}
	e = float64(x*(e-c)) - c
	e -= hxs
	switch {
	case k == -1:
		return float64(0.5*(x-e)) - 0.5
	case k == 1:
		if x < -0.25 {
			return -2 * (e - (x + 0.5))
		}
		return 1 + float64(2*(x-e))
	case k <= -2 || k > 56: // exp(x)-1 suffices
		y := 1 - (e - x)
		y = math.Float64frombits(math.Float64bits(y) + uint64(k)<<52) // add k to y's exponent
		return y - 1
	}
	if k < 20 {
		t := math.Float64frombits(0x3ff0000000000000 - (0x20000000000000 >> uint(k))) // t=1-2**-k
		y := t - (e - x)
		y = math.Float64frombits(math.Float64bits(y) + uint64(k)<<52) // add k to y's exponent
		return y
	}
	t = math.Float64frombits(uint64(0x3ff-k) << 52) // 2**-k
	y := x - (e + t)
	y++
	y = math.Float64frombits(math.Float64bits(y) + uint64(k)<<52) // add k to y's exponent
	return y
}
