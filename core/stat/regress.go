package stat

// LineFit fits y = mean + slope·(x - x̄) by least squares with x = 0 … n-1,
// the index of y (a run's place in run order), the sums exactly rounded.
// Needs len(y) >= 2.
func LineFit(y []float64) (mean, slope float64) {
	r := len(y)
	xbar := float64(r-1) / 2
	mean = Fmean(y)
	var sxy, sxx Sum
	for i, yi := range y {
		dx := float64(i) - xbar
		sxy.Add(float64(dx * (yi - mean)))
		sxx.Add(float64(dx * dx))
	}
	return mean, sxy.Sum() / sxx.Sum()
}

// Detrend returns the residuals of y around its least-squares line over
// its index (see LineFit).
func Detrend(y []float64) []float64 {
	mean, slope := LineFit(y)
	xbar := float64(len(y)-1) / 2
	out := make([]float64, len(y))
	for i, yi := range y {
		fit := mean + float64(slope*(float64(i)-xbar))
		out[i] = yi - fit
	}
	return out
}
