package wasm

import (
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/words"
)

// Plots are inline SVG strings built here, styled by classes in the site's
// stylesheet (no style attributes, so the CSP needs no 'unsafe-inline').
// Coordinates are written with two decimals so the markup is the same bytes
// on every platform.

// The margins leave room for tick labels at the phone stylesheet's 17-unit
// font (the plot is scaled to about half its width there): "100.0%" on the
// left, half of "100%" past the last tick on the right.
const (
	plotW, plotH           = 640.0, 300.0
	padL, padR, padT, padB = 76.0, 24.0, 14.0, 40.0
	legendRow              = 20.0 // legend line height, above the 17-unit font
)

type svg struct {
	b   strings.Builder
	buf []byte // scratch for writeNum
}

// writeNum writes v as num does, without a string per number.
func (s *svg) writeNum(v float64) {
	s.buf = strconv.AppendFloat(s.buf[:0], v, 'f', 2, 64)
	s.b.Write(s.buf)
}

func newSVG(label string, h float64) *svg {
	s := &svg{}
	l := html.EscapeString(label)
	s.b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="plot" viewBox="0 0 ` + num(plotW) + " " + num(h) + `" role="img" aria-label="` + l + `">`)
	s.b.WriteString("<title>" + l + "</title>")
	return s
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// The plots are rebuilt on every keystroke, so elements are written as
// strings rather than through fmt.

// open starts an element with its class; attr adds a numeric attribute;
// a "/>" closes it.
func (s *svg) open(tag, class string) { s.b.WriteString("<" + tag + ` class="` + class + `"`) }

func (s *svg) attr(name string, v float64) {
	s.b.WriteString(" " + name + `="`)
	s.writeNum(v)
	s.b.WriteString(`"`)
}

func (s *svg) line(class string, x1, y1, x2, y2 float64) {
	s.open("line", class)
	s.attr("x1", x1)
	s.attr("y1", y1)
	s.attr("x2", x2)
	s.attr("y2", y2)
	s.b.WriteString("/>")
}

func (s *svg) rect(class string, x, y, w, h float64) {
	s.open("rect", class)
	s.attr("x", x)
	s.attr("y", y)
	s.attr("width", max(w, 0))
	s.attr("height", max(h, 0))
	s.b.WriteString("/>")
}

func (s *svg) circle(class string, x, y, r float64) {
	s.open("circle", class)
	s.attr("cx", x)
	s.attr("cy", y)
	s.attr("r", r)
	s.b.WriteString("/>")
}

func (s *svg) text(class string, x, y float64, anchor, t string) {
	s.b.WriteString(`<text class="` + class + `" x="` + num(x) + `" y="` + num(y) + `" text-anchor="` + anchor + `">` + html.EscapeString(t) + "</text>")
}

func (s *svg) path(class string, pts [][2]float64) {
	if len(pts) == 0 {
		return
	}
	s.b.WriteString(`<path class="` + class + `" d="`)
	for i, p := range pts {
		if i == 0 {
			s.b.WriteString("M")
		} else {
			s.b.WriteString(" L")
		}
		s.writeNum(p[0])
		s.b.WriteString(" ")
		s.writeNum(p[1])
	}
	s.b.WriteString(`"/>`)
}

func (s *svg) String() string { return s.b.String() + "</svg>" }

// yAxis draws horizontal grid lines for fractions 0, 0.25, ... 1.
func (s *svg) yAxis(y func(float64) float64, h float64) {
	for i := 0; i <= 4; i++ {
		f := float64(i) / 4
		s.line("pl-grid", padL, y(f), plotW-padR, y(f))
		s.text("pl-tick", padL-6, y(f)+4, "end", strconv.Itoa(25*i)+"%")
	}
	s.line("pl-axis", padL, padT, padL, h-padB)
	s.line("pl-axis", padL, h-padB, plotW-padR, h-padB)
}

// PowerPlot draws detection power against reruns for each budget row, with
// the target as a horizontal line, the cap as a vertical line and each row's
// k marked on its curve. The reruns axis is logarithmic when the largest k
// exceeds 60.
func PowerPlot(r *gate.BudgetResult) string {
	cols := legendColumns(r)
	s := newSVG("Detection power against reruns", plotH+8+float64((len(r.Rows)+cols-1)/cols)*legendRow+8)
	kmax := float64(max(r.Cap, 10))
	for _, row := range r.Rows {
		if row.Reruns != nil {
			kmax = max(kmax, float64(*row.Reruns))
		}
	}
	kmax = math.Min(kmax*1.15, 1e7)
	logX := kmax > 60
	x := func(k float64) float64 {
		if logX {
			return padL + (plotW-padL-padR)*math.Log10(1+k)/math.Log10(1+kmax)
		}
		return padL + (plotW-padL-padR)*k/kmax
	}
	y := func(f float64) float64 { return plotH - padB - (plotH-padT-padB)*f }
	s.yAxis(y, plotH)
	for _, k := range xTicks(kmax, logX) {
		s.line("pl-grid", x(k), padT, x(k), plotH-padB)
		s.text("pl-tick", x(k), plotH-padB+16, "middle", strconv.FormatFloat(k, 'f', -1, 64))
	}
	s.text("pl-label", (padL+plotW-padR)/2, plotH-4, "middle", "reruns k"+map[bool]string{true: " (log scale)", false: ""}[logX])
	s.line("pl-target", padL, y(r.Target), plotW-padR, y(r.Target))
	// The target's label goes left, above its line, where the curves are
	// still low; the k marks crowd the right end of the line.
	s.text("pl-tick pl-target-label", padL+6, y(r.Target)-5, "start", "target "+words.Level(r.Target))
	if r.Cap > 0 {
		cx := x(float64(r.Cap))
		s.line("pl-cap", cx, padT, cx, plotH-padB)
		// Half-way up, clear of the target's line and label.
		anchor, tx := "start", cx+4
		if cx > plotW-padR-60 {
			anchor, tx = "end", cx-4
		}
		s.text("pl-tick", tx, y(0.55), anchor, "cap "+strconv.FormatInt(r.Cap, 10))
	}
	// Six colours, then the same colours dashed: the legend below the
	// axis tells the curves apart. The k labels are left out past six
	// rows, where they would pile up; the table has every k.
	labelK := len(r.Rows) <= 6
	for i, row := range r.Rows {
		class := seriesClass(i)
		const steps = 160
		pts := make([][2]float64, 0, steps+1)
		for j := 0; j <= steps; j++ {
			var k float64
			if logX {
				k = math.Pow(1+kmax, float64(j)/steps) - 1
			} else {
				k = kmax * float64(j) / steps
			}
			pts = append(pts, [2]float64{x(k), y(gate.Power(row.Rate, k))})
		}
		s.path("pl-curve "+class, pts)
		lx := padL + float64(i%cols)*(plotW-padL-padR)/float64(cols)
		ly := plotH + 8 + float64(i/cols+1)*legendRow
		s.line("pl-curve "+class, lx, ly-5, lx+24, ly-5)
		s.text("pl-tick", lx+30, ly, "start", legendLabel(row))
		if row.Reruns != nil {
			k := float64(*row.Reruns)
			px, py := x(k), y(gate.Power(row.Rate, k))
			s.circle("pl-mark "+class, px, py, 4.5)
			if !labelK {
				continue
			}
			// Alternate labels below and above the target line so that
			// neighbouring k do not overwrite each other; keep them inside.
			// 18 units apart: the labels' font is 17 units on a phone.
			ty := py + 16 + float64(i%3)*18
			anchor, tx := "start", px+6
			if px > plotW-padR-60 {
				anchor, tx = "end", px-6
			}
			s.text("pl-tick "+class, tx, ty, anchor, "k="+strconv.FormatInt(*row.Reruns, 10))
		}
	}
	return s.String()
}

// legendLabel names a budget row's curve.
func legendLabel(row gate.BudgetRow) string {
	if row.Source == "observed_upper" {
		return "p = " + words.Rate(row.Rate) + " (observed, upper)"
	}
	return "p = " + words.Rate(row.Rate)
}

// legendColumns is 2 when every legend label fits half the plot's width
// at the phone font (about 9.5 units a character), else 1.
func legendColumns(r *gate.BudgetResult) int {
	for _, row := range r.Rows {
		if len(legendLabel(row)) > 24 {
			return 1
		}
	}
	return 2
}

// seriesClass is the classes of the i-th curve: one of six colours, plain
// for the first six, then dashed in two patterns.
func seriesClass(i int) string {
	c := "pl-series" + strconv.Itoa(i%6)
	if d := i / 6 % 3; d > 0 {
		c += " pl-dash" + strconv.Itoa(d)
	}
	return c
}

func xTicks(kmax float64, logX bool) []float64 {
	var t []float64
	if logX {
		for k := 1.0; k <= kmax; k *= 10 {
			t = append(t, k)
		}
		return t
	}
	step := math.Max(1, math.Pow(10, math.Floor(math.Log10(kmax/2))))
	if kmax/step > 10 {
		step *= 2
	}
	for k := 0.0; k <= kmax; k += step {
		t = append(t, k)
	}
	return t
}

// IntervalPlot draws both arms' Wilson intervals on one [0,1] axis, with a
// dot at each observed rate.
func IntervalPlot(r *gate.DecideResult) string {
	const h = 150.0
	s := newSVG("Wilson intervals of both arms on a 0 to 1 axis", h)
	x := func(f float64) float64 { return padL + 40 + (plotW-padL-40-padR)*f }
	for i := 0; i <= 10; i++ {
		f := float64(i) / 10
		s.line("pl-grid", x(f), padT, x(f), h-padB)
		s.text("pl-tick", x(f), h-padB+16, "middle", strconv.Itoa(10*i)+"%")
	}
	s.line("pl-axis", x(0), h-padB, x(1), h-padB)
	for i, a := range []struct {
		name string
		arm  gate.Arm
	}{{"baseline", r.Baseline}, {"patched", r.Patched}} {
		yy := padT + 22 + float64(i)*38
		class := "pl-series" + strconv.Itoa(i)
		s.text("pl-tick", padL+34, yy+4, "end", a.name)
		s.rect("pl-interval "+class, x(a.arm.Lower), yy-7, x(a.arm.Upper)-x(a.arm.Lower), 14)
		if a.arm.Rate != nil {
			s.circle("pl-mark "+class, x(*a.arm.Rate), yy, 5)
		}
	}
	s.text("pl-label", (padL+plotW-padR)/2, h-4, "middle", "pass rate, "+words.Level(r.Confidence)+" Wilson interval")
	return s.String()
}

// Trend is the least-squares line through the run pass rates against run
// index 0..n-1: rate ≈ Intercept + Slope·i.
type Trend struct{ Intercept, Slope float64 }

// FitTrend fits rates in run order. With fewer than two runs the slope is 0.
func FitTrend(rates []aa.RunRate) Trend {
	n := float64(len(rates))
	if len(rates) == 0 {
		return Trend{}
	}
	var mx, my float64
	for i, r := range rates {
		mx += float64(i)
		my += r.Rate
	}
	mx, my = mx/n, my/n
	var sxy, sxx float64
	for i, r := range rates {
		dx := float64(i) - mx
		sxy += dx * (r.Rate - my)
		sxx += dx * dx
	}
	if sxx == 0 {
		return Trend{Intercept: my}
	}
	b := sxy / sxx
	return Trend{Intercept: my - b*mx, Slope: b}
}

// RunPlot draws the run pass rates in run order, the fitted trend line, and
// the one-run threshold band: the mean run rate ± 1.645·s, inside which a
// single run's difference from a typical run is noise.
func RunPlot(r *aa.Result) string {
	s := newSVG("Run pass rates in run order with trend line and one-run threshold band", plotH+8+2*legendRow+8)
	rates := r.RunRates
	n := len(rates)
	lo, hi := 1.0, 0.0
	var mean float64
	for _, rr := range rates {
		lo, hi = min(lo, rr.Rate), max(hi, rr.Rate)
		mean += rr.Rate
	}
	if n > 0 {
		mean /= float64(n)
	}
	t := aa.ZAlarm * r.Noise.S
	for _, th := range r.Thresholds {
		if th.RunsPerSide == 1 {
			t = th.Drop
		}
	}
	lo, hi = max(0, min(lo, mean-t)), min(1, max(hi, mean+t))
	if hi-lo < 0.02 {
		lo, hi = max(0, lo-0.01), min(1, hi+0.01)
	}
	pad := (hi - lo) * 0.08
	lo, hi = max(0, lo-pad), min(1, hi+pad)
	y := func(f float64) float64 { return plotH - padB - (plotH-padT-padB)*(f-lo)/(hi-lo) }
	x := func(i float64) float64 {
		if n <= 1 {
			return (padL + plotW - padR) / 2
		}
		return padL + 10 + (plotW-padL-padR-20)*i/float64(n-1)
	}
	for i := 0; i <= 4; i++ {
		f := lo + (hi-lo)*float64(i)/4
		s.line("pl-grid", padL, y(f), plotW-padR, y(f))
		s.text("pl-tick", padL-6, y(f)+4, "end", strconv.FormatFloat(100*f, 'f', 1, 64)+"%")
	}
	s.line("pl-axis", padL, padT, padL, plotH-padB)
	s.line("pl-axis", padL, plotH-padB, plotW-padR, plotH-padB)
	if t > 0 {
		s.rect("pl-band", padL, y(min(hi, mean+t)), plotW-padL-padR, y(max(lo, mean-t))-y(min(hi, mean+t)))
	}
	// The legend goes below the axis, clear of the runs.
	ly := plotH + 8 + legendRow
	s.line("pl-mean", padL, ly-5, padL+24, ly-5)
	s.text("pl-tick", padL+30, ly, "start", "mean run")
	if n >= 2 {
		mid := padL + (plotW-padL-padR)/2
		s.line("pl-trend", mid, ly-5, mid+24, ly-5)
		s.text("pl-tick", mid+30, ly, "start", "trend")
	}
	if t > 0 {
		ly += legendRow
		s.rect("pl-band", padL, ly-12, 24, 12)
		s.text("pl-tick", padL+30, ly, "start", "mean ± one-run threshold ("+words.Points(t)+")")
	}
	s.line("pl-mean", padL, y(mean), plotW-padR, y(mean))
	if n >= 2 {
		tr := FitTrend(rates)
		s.path("pl-trend", [][2]float64{{x(0), y(clamp(tr.Intercept, lo, hi))}, {x(float64(n - 1)), y(clamp(tr.Intercept+tr.Slope*float64(n-1), lo, hi))}})
	}
	pts := make([][2]float64, n)
	for i, rr := range rates {
		pts[i] = [2]float64{x(float64(i)), y(rr.Rate)}
	}
	if n <= 400 {
		s.path("pl-curve pl-series0 pl-thin", pts)
	}
	r0 := 3.5
	if n > 100 {
		r0 = 2
	}
	for _, p := range pts {
		s.circle("pl-mark pl-series0", p[0], p[1], r0)
	}
	s.text("pl-label", (padL+plotW-padR)/2, plotH-4, "middle", "runs in order of first appearance ("+strconv.Itoa(n)+")")
	return s.String()
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }
