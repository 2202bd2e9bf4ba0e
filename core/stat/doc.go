// Package stat is the mathematics under flakegate's figures, written to
// give the same bits on every platform: amd64, arm64 (AWS Lambda) and
// js/wasm (browsers, Cloudflare Workers).
//
//   - Portable special functions: Exp, Log, Log1p, Expm1, Erfc, Erfinv,
//     Erfcinv, Lgamma, Lbeta, the regularized incomplete gamma and beta
//     functions (GammaInc, BetaInc), Student's t (StudentCDF, StudentTail,
//     StudentQuantile) and the chi-square quantile (ChiSquareQuantile,
//     VarianceRatioRange). Go's math.Exp and math.Log use assembly whose
//     last bit differs between architectures, and arm64 fuses x*y+z; these
//     use only operations IEEE 754 rounds exactly and round every product
//     that is then added with float64(...).
//   - Exactly rounded sums (Sum, Fsum, Fmean), as Python's math.fsum and
//     statistics.fmean, so that a sum does not depend on its order; the
//     exact sample standard deviation (ExactStdev), as statistics.stdev;
//     SampleVariance, LineFit and Detrend on those sums.
//   - Z, the two-sided normal critical value, and Wilson, the score
//     interval of a binomial proportion.
//   - Anytime-valid inference, whose error rates hold however often the
//     answer is looked at: BetaMixture, Robbins' beta-binomial mixture
//     martingale of a Bernoulli rate, with its confidence sequence
//     (Interval, MeetsInterval) and its one-sided e-process (LogEBelow);
//     TwoArm, the sequential test of two pass rates from paired runs
//     (a safe test for 2×2 tables, and betting e-processes for futility).
//     docs/STATISTICS.md gives the formulas and their sources.
//   - The permutation test of a least-squares slope (SlopeTest), exact or
//     from a seeded PCG; the Poisson binomial distribution; SnapCeil.
//
// Out-of-domain arguments give IEEE answers (NaN, ±Inf), never errors and
// never a truncated approximation (an iteration that does not converge
// returns NaN): callers check user input before it gets here. The golden
// file testdata/special/bits.golden holds the exact bits of the special
// functions; the tests check it natively, under WebAssembly (make wasmtest)
// and for arm64 under qemu (make arm64test). The package imports nothing of
// flakegate's.
package stat
