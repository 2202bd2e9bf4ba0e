package page

import (
	"html"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/stat"
	"github.com/flakegate/flakegate/internal/words"
)

// The history's picture: the flaky tests' failures over the runs, a row
// per test and a column per run in the result's order, with the incidents
// marked, and below it each flaky test's failure rate in a moving window
// of its runs with its Wilson interval. It is drawn from the runs
// themselves (replayed: a store's bytes read again, or the example planted
// again), because a Result holds each test's counts, not its runs.

// Bounds of the picture: what is drawn whatever the history's size.
const (
	maxPicFlakes = 12  // flaky tests drawn as rows, most often failing first
	maxPicBroken = 4   // broken tests drawn as rows below them, by name
	maxPicCols   = 240 // runs drawn as columns: the latest ones
)

// runReplay gives add every run of a history again, in the order the runs
// were added to it.
type runReplay func(add func(meta history.RunMeta, results []history.TestResult) error) error

// Timeline is what the picture draws, worked out from a result and its
// runs.
type Timeline struct {
	Runs    int      // runs in the history
	First   int      // 1-based number of the first run drawn
	Cols    []PicRun // the runs drawn, in the result's order
	Rows    []PicRow // the flaky tests drawn, then the broken ones
	Flaky   int      // flaky tests in the result (Rows holds at most maxPicFlakes)
	Broken  int      // broken and failing tests in the result
	Window  int      // runs in a rate's moving window, >= 1
	Level   float64  // the intervals' confidence, in (0,1)
	KeptInc bool     // the incidents' failures count in the rates
}

// PicRun is one run drawn.
type PicRun struct {
	Index  int    // 1-based number in the result's order
	Name   string // the run's name
	Commit string
	Branch string
	Job    string
	Time   string // RFC 3339 in UTC, "" when not known
	Outage bool   // the result calls it an outage
	// Group is the tests of a group failing together in it (an
	// incident), nil when none did.
	Group []string
}

// PicRow is one test drawn.
type PicRow struct {
	Test   string
	Broken bool // broken or failing rather than flaky
	// Cells is per drawn run: 0 it did not run, cellPass, cellFail, or
	// cellGroup (a failure in a run of its group's incident).
	Cells []byte
	// Rate, Lower and Upper are per drawn run: the failure rate of its
	// last Window counted runs and its Wilson interval, in [0,1]; NaN
	// where it has fewer than Window counted runs so far.
	Rate, Lower, Upper []float64
	Failures, Ran      int64 // its counted failures and runs in the result
}

// The cells of a row.
const (
	cellNone  byte = iota // did not run
	cellPass              // passed
	cellFail              // failed
	cellGroup             // failed with its group (an incident)
)

// rateWindow is the moving window of a history of n runs: a tenth of
// them, at least 10 and at most 50.
func rateWindow(n int) int { return max(10, min(50, n/10)) }

// buildTimeline works out the picture of res from its runs, replayed in
// the order they were added. The replay must give the runs res was
// computed from: a different count is an error.
func buildTimeline(res *history.Result, replay runReplay) (*Timeline, error) {
	tl := &Timeline{Runs: res.Runs, Flaky: len(res.Flakes), Broken: len(res.Broken), Window: rateWindow(res.Runs),
		Level: res.Confidence, KeptInc: res.KeptIncidents}
	var rowOf = map[string]int{}
	for i, f := range res.Flakes[:min(len(res.Flakes), maxPicFlakes)] {
		rowOf[f.Test] = i
		tl.Rows = append(tl.Rows, PicRow{Test: f.Test, Failures: f.Failures, Ran: f.Runs})
	}
	for _, b := range res.Broken[:min(len(res.Broken), maxPicBroken)] {
		rowOf[b.Test] = len(tl.Rows)
		tl.Rows = append(tl.Rows, PicRow{Test: b.Test, Broken: true, Failures: b.Failures, Ran: b.Runs})
	}
	// Replay: each run's meta, and each drawn test's outcome in it (bit 1
	// failed, bit 2 passed, as history counts a run's attempts).
	var metas []history.RunMeta
	outs := make([][]byte, len(tl.Rows))
	err := replay(func(meta history.RunMeta, results []history.TestResult) error {
		r := len(metas)
		if r >= res.Runs {
			return &core.Error{Kind: core.Invalid, Msg: "the runs read for the picture are more than the result's " + words.Count(int64(res.Runs))}
		}
		metas = append(metas, meta)
		for _, tr := range results {
			i, ok := rowOf[tr.Test]
			if !ok {
				continue
			}
			if outs[i] == nil {
				outs[i] = make([]byte, res.Runs)
			}
			if tr.Passed < tr.Trials {
				outs[i][r] |= 1
			}
			if tr.Passed > 0 {
				outs[i][r] |= 2
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(metas) != res.Runs {
		return nil, &core.Error{Kind: core.Invalid, Msg: "the runs read for the picture (" + words.Count(int64(len(metas))) + ") are not the result's " + words.Count(int64(res.Runs))}
	}
	// The result's order: by time when it says so (a stable sort, as
	// history sorts), else as added.
	order := make([]int, len(metas))
	for i := range order {
		order[i] = i
	}
	if res.Order == "time" {
		slices.SortStableFunc(order, func(a, b int) int { return metas[a].Time.Compare(metas[b].Time) })
	}
	outage := make([]bool, res.Runs+1) // by 1-based index
	group := map[string]map[int]bool{} // test -> its group's runs
	groupOf := map[int][]string{}      // run -> the tests of groups failing in it
	for _, inc := range res.Incidents {
		for _, rr := range inc.Runs {
			if rr.Index < 1 || rr.Index > res.Runs {
				continue
			}
			if inc.Kind == history.IncidentOutage {
				outage[rr.Index] = true
				continue
			}
			groupOf[rr.Index] = append(groupOf[rr.Index], inc.Tests...)
			for _, t := range inc.Tests {
				if group[t] == nil {
					group[t] = map[int]bool{}
				}
				group[t][rr.Index] = true
			}
		}
	}
	tl.First = max(1, res.Runs-maxPicCols+1)
	for idx := tl.First; idx <= res.Runs; idx++ {
		m := metas[order[idx-1]]
		c := PicRun{Index: idx, Name: m.Name, Commit: m.Commit, Branch: m.Branch, Job: m.Job, Outage: outage[idx], Group: groupOf[idx]}
		if !m.Time.IsZero() {
			c.Time = m.Time.UTC().Format(time.RFC3339)
		}
		tl.Cols = append(tl.Cols, c)
	}
	z := stat.Z(res.Confidence)
	for i := range tl.Rows {
		row := &tl.Rows[i]
		n := len(tl.Cols)
		row.Cells = make([]byte, n)
		row.Rate, row.Lower, row.Upper = make([]float64, n), make([]float64, n), make([]float64, n)
		// The window: the last Window counted runs (it ran, outside the
		// incidents unless they are kept), as a ring of failed flags.
		ring := make([]bool, tl.Window)
		counted, failed := 0, 0
		for idx := 1; idx <= res.Runs; idx++ {
			oc := byte(0)
			if outs[i] != nil {
				oc = outs[i][order[idx-1]]
			}
			inGroup := group[row.Test][idx]
			if oc != 0 && (tl.KeptInc || !outage[idx] && !inGroup) {
				f := oc&1 != 0
				if counted >= tl.Window && ring[counted%tl.Window] {
					failed--
				}
				ring[counted%tl.Window] = f
				if f {
					failed++
				}
				counted++
			}
			if idx < tl.First {
				continue
			}
			k := idx - tl.First
			switch {
			case oc == 0:
				row.Cells[k] = cellNone
			case oc&1 == 0:
				row.Cells[k] = cellPass
			case inGroup:
				row.Cells[k] = cellGroup
			default:
				row.Cells[k] = cellFail
			}
			row.Rate[k], row.Lower[k], row.Upper[k] = nan, nan, nan
			if counted >= tl.Window && !row.Broken {
				w := float64(tl.Window)
				row.Rate[k] = float64(failed) / w
				row.Lower[k], row.Upper[k] = stat.Wilson(float64(failed), w, z)
			}
		}
	}
	return tl, nil
}

var nan = math.NaN()

// LeftOut says what the picture leaves out, or "" when it draws all.
func (tl *Timeline) LeftOut() string {
	var parts []string
	if tl.First > 1 {
		parts = append(parts, "the first "+words.Nouns(tl.First-1, "run")+" (the latest "+words.Count(int64(len(tl.Cols)))+" are drawn)")
	}
	flakes, broken := 0, 0
	for _, r := range tl.Rows {
		if r.Broken {
			broken++
		} else {
			flakes++
		}
	}
	if tl.Flaky > flakes {
		parts = append(parts, words.Nouns(tl.Flaky-flakes, "flaky test")+" failing less often than those drawn")
	}
	if tl.Broken > broken {
		parts = append(parts, words.Nouns(tl.Broken-broken, "broken test"))
	}
	if len(parts) == 0 {
		return ""
	}
	s := "The picture leaves out " + parts[0]
	for i, p := range parts[1:] {
		if i == len(parts)-2 {
			s += " and " + p
		} else {
			s += ", " + p
		}
	}
	return s + "; the tables below list every test."
}

// Layout of the picture, in viewBox units: drawn twice, as the runs plot
// is, 640 wide (shown on wide screens) and RunPlotNarrow wide (a phone
// shows it at about its size, with 13 px text).
const (
	picRowH   = 26.0 // a heat-map row
	picStripH = 18.0 // the incident strip above the rows
	picRateH  = 46.0 // a rate line's panel
	picGap    = 10.0
)

// TimelinePlot draws tl: the incident strip (outage runs, the runs of
// groups failing together), a row per test with a cell per failure
// (a broken test's in its own colour, a group's in another), each run's
// column titled with its number, commit, time and job for hover, and
// below, per flaky test, its rate in a moving window of its runs with
// the Wilson interval as a band.
//
// width is RunPlotWide or RunPlotNarrow.
func TimelinePlot(tl *Timeline, width float64) string {
	nameW, nameN, class, right := 176.0, 13, "plot timeline plot-wide", padR
	if width < RunPlotWide {
		nameW, nameN, class, right = 104.0, 11, "plot timeline plot-narrow", 8
	}
	flakes := 0
	for _, r := range tl.Rows {
		if !r.Broken {
			flakes++
		}
	}
	top := padT + 22.0
	heatH := picStripH + picGap + float64(len(tl.Rows))*picRowH
	rateTop := top + heatH + 30
	h := rateTop + float64(flakes)*(picRateH+picGap) + 40
	s := newSVGOf("Failures of the flaky tests in each run, in time order, with the incidents marked, and each flaky test's failure rate over its runs", class, width, h)
	x0, x1 := nameW, width-right
	n := len(tl.Cols)
	cw := (x1 - x0) / float64(max(n, 1))
	x := func(k int) float64 { return x0 + cw*float64(k) }
	// The runs axis: the first and last drawn run's numbers.
	if n > 0 {
		s.text("pl-tick", x0, top-8, "start", "run #"+words.Count(int64(tl.Cols[0].Index)))
		s.text("pl-tick", x1, top-8, "end", "#"+words.Count(int64(tl.Cols[n-1].Index)))
	}
	rowsTop := top + picStripH + picGap
	rowsBottom := rowsTop + float64(len(tl.Rows))*picRowH
	s.text("pl-tick", x0-8, top+picStripH-4, "end", "incidents")
	// Each run's column: a hover target titled with the run.
	for k, c := range tl.Cols {
		class := "hm-col"
		if c.Outage {
			class = "hm-col hm-outage"
		}
		s.titled("rect", class, x(k), top, cw, rowsBottom-top, runTitle(c))
	}
	// The incident strip: an outage run's mark, a group's runs' marks.
	for k, c := range tl.Cols {
		switch {
		case c.Outage:
			s.titled("rect", "hm-mark hm-outage-mark", x(k), top, cw, picStripH, "Run #"+words.Count(int64(c.Index))+": an outage, too many tests failed at once · "+runWhat(c))
		case c.Group != nil:
			s.titled("rect", "hm-mark hm-group", x(k), top, cw, picStripH, "Run #"+words.Count(int64(c.Index))+": tests that fail only together failed ("+strings.Join(c.Group, ", ")+") · "+runWhat(c))
		}
	}
	for i, r := range tl.Rows {
		y := rowsTop + float64(i)*picRowH
		label := shortTest(r.Test, nameN)
		if r.Broken {
			label += " ✕"
		}
		s.text("pl-tick", x0-8, y+picRowH/2+5, "end", label)
		s.line("pl-grid", x0, y+picRowH, x1, y+picRowH)
		for k, c := range r.Cells {
			if c == cellNone || c == cellPass {
				continue
			}
			class, what := "hm-fail", "failed"
			switch {
			case c == cellGroup:
				class, what = "hm-fail hm-group", "failed with its group (an incident)"
			case r.Broken:
				class, what = "hm-fail hm-broken", "failed (broken, not flaky)"
			case tl.Cols[k].Outage:
				what = "failed in an outage"
			}
			s.titled("rect", class, x(k)+cw*0.1, y+3, cw*0.8, picRowH-6, r.Test+" "+what+" in run #"+words.Count(int64(tl.Cols[k].Index))+" · "+runWhat(tl.Cols[k]))
		}
	}
	s.line("pl-axis", x0, rowsBottom, x1, rowsBottom)

	// The rates: per flaky test, its moving-window rate and interval on
	// its own scale (0 to a round top above its interval's highest).
	if flakes > 0 {
		s.text("pl-label", 4, rateTop-10, "start", "failure rate in its last "+words.Count(int64(tl.Window))+" runs, "+words.Level(tl.Level)+" interval")
	}
	for i, r := range tl.Rows {
		if r.Broken {
			continue
		}
		y0 := rateTop + float64(i)*(picRateH+picGap)
		hi := 0.0
		for _, u := range r.Upper {
			if !math.IsNaN(u) {
				hi = max(hi, u)
			}
		}
		scale := rateScale(hi)
		y := func(f float64) float64 { return y0 + picRateH - picRateH*f/scale }
		s.text("pl-tick", x0-8, y0+picRateH/2+5, "end", shortTest(r.Test, nameN))
		s.text("pl-tick", x1, y0+12, "end", words.Percent(scale))
		s.line("pl-grid", x0, y0, x1, y0)
		s.line("pl-axis", x0, y0+picRateH, x1, y0+picRateH)
		var line, band [][2]float64
		var lower [][2]float64
		flush := func() {
			if len(line) > 0 {
				slices.Reverse(lower)
				s.path("pl-band", append(band, lower...))
				s.path("pl-curve "+seriesClass(0), line)
			}
			line, band, lower = nil, nil, nil
		}
		for k := range r.Rate {
			if math.IsNaN(r.Rate[k]) {
				flush()
				continue
			}
			cx := x(k) + cw/2
			line = append(line, [2]float64{cx, y(r.Rate[k])})
			band = append(band, [2]float64{cx, y(r.Upper[k])})
			lower = append(lower, [2]float64{cx, y(r.Lower[k])})
		}
		flush()
	}
	return s.String()
}

// rateScale is the top of a rate panel: the least of 5%, 10%, 25%, 50%
// and 100% at or above hi.
func rateScale(hi float64) float64 {
	for _, t := range []float64{0.05, 0.1, 0.25, 0.5} {
		if hi <= t {
			return t
		}
	}
	return 1
}

// runTitle is a run's hover text: its number, and runWhat.
func runTitle(c PicRun) string {
	s := "Run #" + words.Count(int64(c.Index))
	if c.Outage {
		s += " (an outage)"
	}
	return s + " · " + runWhat(c)
}

// runWhat is a run's name, commit, time and job, those known.
func runWhat(c PicRun) string {
	s := c.Name
	if c.Commit != "" {
		s += " · commit " + c.Commit[:min(len(c.Commit), 12)]
	}
	if c.Branch != "" {
		s += " on " + c.Branch
	}
	if c.Time != "" {
		s += " · " + c.Time
	}
	if c.Job != "" {
		s += " · job " + c.Job
	}
	return s
}

// shortTest is a test's name cut to n runes from its end (the distinct
// part of a long name), with an ellipsis; the tables give it in full.
func shortTest(name string, n int) string {
	if utf8.RuneCountInString(name) <= n {
		return name
	}
	r := []rune(name)
	return "…" + string(r[len(r)-n+1:])
}

// titled writes an element of class with a <title> child, the text a
// browser shows on hover.
func (s *svg) titled(tag, class string, x, y, w, h float64, title string) {
	s.open(tag, class)
	s.attr("x", x)
	s.attr("y", y)
	s.attr("width", max(w, 0))
	s.attr("height", max(h, 0))
	s.b.WriteString("><title>" + html.EscapeString(title) + "</title></" + tag + ">")
}

// timelineLegend says what the picture's marks are, each kind where the
// picture has it.
func timelineLegend(tl *Timeline) string {
	s := "Each row is a test, each column a run (#" + strconv.Itoa(tl.First) + " to #" + strconv.Itoa(tl.Runs) + " in time order), each mark a run in which it failed; hover over a mark or a column for the run's commit, time and job."
	outage, group, broken := false, false, false
	for _, c := range tl.Cols {
		outage, group = outage || c.Outage, group || c.Group != nil
	}
	for _, r := range tl.Rows {
		broken = broken || r.Broken
	}
	if outage {
		s += " Shaded columns are outages: runs in which more tests failed than chance allows."
	}
	if group {
		s += " Marks on the incidents line in the second colour are runs in which a group failed: tests that fail only together, one shared cause rather than each its own flake."
	}
	if broken {
		s += " Rows marked ✕ are broken tests: their failures are one unbroken stretch, not flakes."
	}
	kept := "outside the incidents"
	if tl.KeptInc {
		kept = "incidents counted"
	}
	return s + " Below, each flaky test's failure rate in its last " + strconv.Itoa(tl.Window) + " runs (" + kept + "), with its Wilson interval as a band: the range of rates those runs are consistent with; where the band is wide, they say little."
}
