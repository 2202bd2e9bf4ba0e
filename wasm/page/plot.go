package page

import (
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/internal/words"
)

// Plots are inline SVG strings built here, styled by classes in the site's
// stylesheet (no style attributes, so the CSP needs no 'unsafe-inline').
// Coordinates are written with two decimals so the markup is the same bytes
// on every platform.

// The margins leave room for tick labels at the phone stylesheet's 17-unit
// font (the plot is scaled to about half its width there): "100.0%" on the
// left, half of "100%" past the last tick on the right.
const (
	plotW, plotH = 640.0, 300.0
	// padB leaves a line between the ticks and the axis's label at the
	// phone's 22-unit font (12.4 px in a plot shown about 360 px wide).
	padL, padR, padT, padB = 76.0, 24.0, 14.0, 50.0
	legendRow              = 26.0 // legend line height, above the phone's 22-unit font
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

func newSVG(label string, h float64) *svg { return newSVGOf(label, "plot", plotW, h) }

// newSVGOf starts an SVG of class with a w by h viewBox.
func newSVGOf(label, class string, w, h float64) *svg {
	s := &svg{}
	l := html.EscapeString(label)
	s.b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="` + class + `" viewBox="0 0 ` + num(w) + " " + num(h) + `" role="img" aria-label="` + l + `">`)
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
			// 24 units apart: on a phone the labels' font is 22 units
			// (12.4 px), and 18 apart let k=149 and k=299 overlap.
			ty := py + 16 + float64(i%3)*24
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
// at the phone font (about 12 units a character), else 1.
func legendColumns(r *gate.BudgetResult) int {
	for _, row := range r.Rows {
		// Half the plot is 270 units, the swatch 30: 20 characters of
		// about 12 units at the phone's 22-unit font.
		if len(legendLabel(row)) > 20 {
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

// Run plot widths, in SVG units. The wide one is scaled to at most 48rem
// of a desktop page (12-unit text at 12 px or more); the narrow one is the
// one a phone shows (site/web/flakegate.css switches below 40rem): about
// 360 CSS px wide there, so its 13-unit text stays above 12 px, where the
// wide plot's text would shrink to 7 px.
const (
	RunPlotWide   = plotW
	RunPlotNarrow = 340.0
)

// candRates is a candidate side's run pass rates in run order.
func candRates(cand *aa.Side) []aa.RunRate {
	if cand == nil {
		return nil
	}
	out := make([]aa.RunRate, 0, len(cand.Runs))
	for _, t := range cand.Runs {
		if t.Total > 0 {
			out = append(out, aa.RunRate{Run: t.ID, Rate: float64(t.Passed) / float64(t.Total)})
		}
	}
	return out
}

// roundStep is a round tick step (1, 2, 2.5 or 5 times a power of ten) that
// cuts span into at most most steps.
func roundStep(span float64, most int) float64 {
	if !(span > 0) {
		return 1
	}
	raw := span / float64(most)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// pctTick writes a tick at fraction f with as few decimals as step (a
// fraction) needs: "85%", "87.5%", "0.25%".
func pctTick(f, step float64) string {
	dec := 0
	for d := step * 100; dec < 4 && math.Abs(d-math.Round(d)) > 1e-6; d *= 10 {
		dec++
	}
	return strconv.FormatFloat(100*f, 'f', dec, 64) + "%"
}

// runTicks is the run numbers (1-based) to label on an axis of n runs:
// 1 and round multiples of a step that gives at most most labels.
func runTicks(n, most int) []int {
	if n <= 0 {
		return nil
	}
	step := int(math.Max(1, roundStep(float64(n), most)))
	if step == 2 && n > 2*most { // 2.5 rounds down to 2 for whole runs
		step = 5
	}
	t := []int{1}
	for k := step; k <= n; k += step {
		if k > 1 {
			t = append(t, k)
		}
	}
	return t
}

// RunPlot draws each run's pass rate in run order, the baseline's runs and
// then, past a divider, the candidate's (cand may be nil): the baseline's
// least-squares trend line and mean, and the band of the one-run threshold
// around that mean, inside which one run's difference from a typical run is
// noise. Both axes are labelled; the pass-rate ticks are round numbers.
// width is RunPlotWide or RunPlotNarrow (a phone's layout).
func RunPlot(r *aa.Result, cand *aa.Side, width float64) string {
	narrow := width < plotW
	pl, pr, pt := 58.0, 14.0, 30.0
	font := 12.0
	if narrow {
		pl, pr, font = 46, 8, 13
	}
	const ph = 280.0 // the axes' box: plot area and the x tick labels
	pb := 44.0       // x ticks and the x axis label
	rates, crates := r.RunRates, candRates(cand)
	n, m := len(rates), len(crates)

	// The legend, one entry per row on a phone, two per row otherwise.
	type entry struct{ kind, label string }
	var legend []entry
	legend = append(legend, entry{"base", "baseline runs (" + words.Count(int64(n)) + ")"})
	if m > 0 {
		legend = append(legend, entry{"cand", "candidate runs (" + words.Count(int64(m)) + ")"})
	}
	legend = append(legend, entry{"mean", "mean of each side"})
	if n >= 2 {
		legend = append(legend, entry{"trend", "baseline trend"})
	}
	t := aa.ZAlarm * r.Noise.S
	for _, th := range r.Thresholds {
		if th.RunsPerSide == 1 {
			t = th.Drop
		}
	}
	if t > 0 {
		legend = append(legend, entry{"band", "mean ± one-run threshold (" + words.Points(t) + ")"})
	}
	cols := 2
	if narrow {
		cols = 1
	}
	row := font + 8
	h := ph + 8 + float64((len(legend)+cols-1)/cols)*row + 6
	class := "plot plot-wide"
	if narrow {
		class = "plot plot-narrow"
	}
	s := newSVGOf("Pass rate of each run in run order: the baseline's runs, then the candidate's, with the baseline's trend line and the one-run threshold band", class, width, h)

	// The pass-rate range: every run and the band, widened to round ticks.
	lo, hi := 1.0, 0.0
	var mean float64
	for _, rr := range rates {
		lo, hi = min(lo, rr.Rate), max(hi, rr.Rate)
		mean += rr.Rate
	}
	for _, rr := range crates {
		lo, hi = min(lo, rr.Rate), max(hi, rr.Rate)
	}
	if n > 0 {
		mean /= float64(n)
		lo, hi = min(lo, mean-t), max(hi, mean+t)
	}
	lo, hi = max(0, lo), min(1, hi)
	if hi < lo {
		lo, hi = 0, 1
	}
	if hi-lo < 0.01 {
		lo, hi = max(0, (lo+hi)/2-0.005), min(1, (lo+hi)/2+0.005)
	}
	step := roundStep(hi-lo, 5)
	lo = max(0, math.Floor(lo/step+1e-9)*step)
	hi = min(1, math.Ceil(hi/step-1e-9)*step)
	if hi <= lo {
		hi = min(1, lo+step)
	}
	bottom := ph - pb
	y := func(f float64) float64 { return bottom - (bottom-pt)*(f-lo)/(hi-lo) }

	// The x axis: baseline runs 1..n, a gap, candidate runs 1..m, each run
	// an equal slot.
	gap := 0.0
	if m > 0 {
		gap = 1.5
	}
	slots := float64(n+m) + gap
	x0, x1 := pl+8, width-pr-8
	slot := func(i float64) float64 {
		if slots <= 1 {
			return (x0 + x1) / 2
		}
		return x0 + (x1-x0)*i/(slots-1)
	}
	xb := func(i int) float64 { return slot(float64(i)) }
	xc := func(i int) float64 { return slot(float64(n) + gap + float64(i)) }

	for k := 0; ; k++ {
		f := lo + float64(k)*step
		if f > hi+step*1e-6 {
			break
		}
		s.line("pl-grid", pl, y(f), width-pr, y(f))
		s.text("pl-tick", pl-5, y(f)+4, "end", pctTick(f, step))
	}
	s.text("pl-label", 2, pt-12, "start", "pass rate of the run")
	s.line("pl-axis", pl, pt, pl, bottom)
	s.line("pl-axis", pl, bottom, width-pr, bottom)
	if t > 0 && n > 0 {
		top, bot := y(min(hi, mean+t)), y(max(lo, mean-t))
		s.rect("pl-band", pl, top, width-pl-pr, bot-top)
	}
	most := 6
	if narrow {
		most = 4
	}
	for _, k := range runTicks(n, most) {
		s.line("pl-axis", xb(k-1), bottom, xb(k-1), bottom+4)
		s.text("pl-tick", xb(k-1), bottom+16, "middle", strconv.Itoa(k))
	}
	if m > 0 {
		div := (xb(n-1) + xc(0)) / 2
		s.line("pl-cap", div, pt, div, bottom)
		cmost := m
		if m > 5 {
			cmost = 3
		}
		for _, k := range runTicks(m, cmost) {
			s.line("pl-axis", xc(k-1), bottom, xc(k-1), bottom+4)
			s.text("pl-tick pl-series1", xc(k-1), bottom+16, "middle", strconv.Itoa(k))
		}
	}
	xl := "run number, in run order"
	if m > 0 {
		xl = "baseline runs, then candidate runs, in run order"
		if narrow {
			xl = "baseline, then candidate runs"
		}
	}
	s.text("pl-label", (pl+width-pr)/2, ph-6, "middle", xl)

	if n > 0 {
		s.line("pl-mean", pl, y(mean), width-pr, y(mean))
	}
	if m > 0 {
		var cm float64
		for _, rr := range crates {
			cm += rr.Rate
		}
		cm /= float64(m)
		s.line("pl-mean pl-series1", xc(0)-6, y(cm), xc(m-1)+6, y(cm))
	}
	if n >= 2 {
		tr := FitTrend(rates)
		s.path("pl-trend", [][2]float64{{xb(0), y(clamp(tr.Intercept, lo, hi))}, {xb(n - 1), y(clamp(tr.Intercept+tr.Slope*float64(n-1), lo, hi))}})
	}
	r0 := 3.5
	if n+m > 100 {
		r0 = 2
	}
	draw := func(rs []aa.RunRate, at func(int) float64, class string) {
		pts := make([][2]float64, len(rs))
		for i, rr := range rs {
			pts[i] = [2]float64{at(i), y(rr.Rate)}
		}
		if len(rs) <= 400 {
			s.path("pl-curve "+class+" pl-thin", pts)
		}
		for _, p := range pts {
			s.circle("pl-mark "+class, p[0], p[1], r0)
		}
	}
	draw(rates, xb, "pl-series0")
	draw(crates, xc, "pl-series1")

	// The legend, below the axes.
	colW := (width - pl - pr) / float64(cols)
	for i, e := range legend {
		lx := pl + float64(i%cols)*colW
		if narrow {
			lx = 4
		}
		ly := ph + 8 + float64(i/cols+1)*row - 4
		switch e.kind {
		case "base":
			s.circle("pl-mark pl-series0", lx+12, ly-5, 4)
		case "cand":
			s.circle("pl-mark pl-series1", lx+12, ly-5, 4)
		case "mean":
			s.line("pl-mean", lx, ly-5, lx+24, ly-5)
		case "trend":
			s.line("pl-trend", lx, ly-5, lx+24, ly-5)
		case "band":
			s.rect("pl-band", lx, ly-12, 24, 12)
		}
		s.text("pl-tick", lx+30, ly, "start", e.label)
	}
	return s.String()
}

func clamp(v, lo, hi float64) float64 { return max(lo, min(hi, v)) }
