package page

import (
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The A/A page's in-depth analyses (aa.Depth): the paired t-test, the
// variance ratio, the trend test, a fixed rule's false alarms, pass^k and
// the scenarios that went both ways, each in words with its figures.

// renderPairedT says the paired t-test by scenario in words.
func (c *AA) renderPairedT() app.UI {
	return depthPart(c.res.Depth, func(d *aa.Depth) *aa.PairedT { return d.PairedT }, "paired_t",
		"No paired t-test: it needs scenarios both sides have.", renderPairedT)
}

func renderPairedT(pt *aa.PairedT) app.UI {
	return app.P().DataSet("scope", "paired_t").Body(
		app.Strong().Text("How sure: "),
		app.Text("an unchanged candidate crosses the threshold 5% of the time. Comparing the "), fieldInt("scenarios", int64(pt.Scenarios)),
		app.Text(" "+plural(int64(pt.Scenarios), "scenario")+" one by one (a paired t-test), the mean difference is "), fieldNum("diff", pt.Diff, words.Points(pt.Diff)),
		app.Text(" with a standard error of "), fieldNum("se", pt.SE, words.Points(pt.SE)), app.Text(": t = "), fieldOptNum("t", pt.T, func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }),
		app.Text(" with "), fieldInt("df", int64(pt.DF)), app.Text(" degrees of freedom, one-sided p = "), fieldNum("p_value", pt.PValue, words.PValue(pt.PValue)),
		app.Text(", which at the "), fieldNum("alpha", pt.Alpha, words.Level(pt.Alpha)), app.Text(" level says "),
		fieldStrText("verdict", pt.Verdict, words.AAVerdictWords(pt.Verdict)), app.Text("."),
	)
}

// renderVariance says whether the runs spread as independent runs would.
func (c *AA) renderVariance() app.UI {
	return depthPart(c.res.Depth, func(d *aa.Depth) *aa.VarianceRatio { return d.VarianceRatio }, "variance_ratio",
		"No variance ratio: it needs 3 or more runs and some noise.", renderVariance)
}

func renderVariance(vr *aa.VarianceRatio) app.UI {
	ratio := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	inside := func(b bool) string {
		if b {
			return "inside"
		}
		return "outside"
	}
	return app.P().DataSet("scope", "variance_ratio").Body(
		app.Text("The runs' pass rates vary by "), fieldNum("measured_variance", vr.MeasuredVariance, sciVar(vr.MeasuredVariance)),
		app.Text(" (their variance); independent runs of these scenarios would vary by "), fieldNum("formula_variance", vr.FormulaVariance, sciVar(vr.FormulaVariance)),
		app.Text(" (v/n). The ratio, "), fieldNum("measured_over_formula", vr.MeasuredOverFormula, ratio(vr.MeasuredOverFormula)),
		app.Text(", is "), fieldBool("inside", vr.Inside, "inside", "outside"), app.Text(" the "), fieldNum("level", vr.Level, words.Level(vr.Level)),
		app.Text(" range of "), fieldNum("range_lower", vr.RangeLower, ratio(vr.RangeLower)), app.Text(" to "), fieldNum("range_upper", vr.RangeUpper, ratio(vr.RangeUpper)),
		app.Text(" that chance allows for this many runs"),
		app.If(vr.Detrended != nil, func() app.UI {
			dt := vr.Detrended
			return app.Span().DataSet("scope", "detrended").Body(
				app.Text("; around a straight line in run order the runs vary by "), fieldNum("measured_variance", dt.MeasuredVariance, sciVar(dt.MeasuredVariance)),
				app.Text(", a ratio of "), fieldNum("measured_over_formula", dt.MeasuredOverFormula, ratio(dt.MeasuredOverFormula)),
				app.Text(", "), fieldBool("inside", dt.Inside, inside(true), inside(false)), app.Text(" its range of "),
				fieldNum("range_lower", dt.RangeLower, ratio(dt.RangeLower)), app.Text(" to "), fieldNum("range_upper", dt.RangeUpper, ratio(dt.RangeUpper)),
				app.Text(" (a trend that explains the extra spread brings the ratio back near 1)"),
			)
		}).Else(func() app.UI { return hidden().Body(fieldNull("detrended")) }),
		app.Text("."),
	)
}

// sciVar writes a variance of pass rates (a fraction squared) as points
// squared: 0.00019 is "1.9 pts²".
func sciVar(v float64) string {
	return strconv.FormatFloat(1e4*v, 'g', 3, 64) + " pts²"
}

// renderTrendTest says whether the pass rate drifts in run order.
func (c *AA) renderTrendTest() app.UI {
	return depthPart(c.res.Depth, func(d *aa.Depth) *aa.TrendTest { return d.TrendTest }, "trend_test",
		"No trend test: it needs 3 or more runs.", renderTrendTest)
}

func renderTrendTest(tt *aa.TrendTest) app.UI {
	how := "random run orders"
	if tt.Exact {
		how = "run orders, every one"
	}
	return app.P().DataSet("scope", "trend_test").Body(
		app.Text("A straight line through the runs in order starts at "), fieldNum("intercept", tt.Intercept, words.Percent(tt.Intercept)),
		app.Text(" and moves "), fieldNum("slope_per_run", tt.SlopePerRun, words.Points(tt.SlopePerRun)), app.Text(" per run; the first half of the runs averaged "),
		fieldNum("first_half_mean", tt.FirstHalfMean, words.FixedPercent(tt.FirstHalfMean, 2)), app.Text(" and the second half "),
		fieldNum("second_half_mean", tt.SecondHalfMean, words.FixedPercent(tt.SecondHalfMean, 2)),
		app.Text(". Shuffling the runs' order ("), fieldInt("permutations", tt.Permutations), app.Text(" "+how+", "),
		fieldBool("exact", tt.Exact, "an exact test", "a sampled test"), app.Text(") gives a slope this steep with p = "),
		fieldNum("p_value", tt.PValue, words.PValue(tt.PValue)), app.Text(trendVerdict(tt.PValue)),
	)
}

// depthPart is one of the in-depth analyses: nothing until they are
// computed, a hint saying why it is missing (its field null) when part
// finds none, else render's words for it.
func depthPart[T any](d *aa.Depth, part func(*aa.Depth) *T, name, why string, render func(*T) app.UI) app.UI {
	if d == nil {
		return nil
	}
	v := part(d)
	if v == nil {
		return app.P().Class("hint").Body(fieldNull(name), app.Text(" "+why))
	}
	return render(v)
}

func trendVerdict(p float64) string {
	if p < 0.05 {
		return ": the runs trend, so a threshold set from them fires mostly one way; compare a candidate with recent runs, and find the drift's cause."
	}
	return ": no trend beyond chance."
}

// renderFixedDrop says what a fixed-point rule costs in false alarms.
func (c *AA) renderFixedDrop() app.UI {
	return depthPart(c.res.Depth, func(d *aa.Depth) *aa.FixedDrop { return d.FixedDrop }, "fixed_drop",
		"No count for a fixed rule: it needs 2 or more runs.", renderFixedDrop)
}

func renderFixedDrop(f *aa.FixedDrop) app.UI {
	method := "computed exactly"
	if f.IndependentMethod == aa.MethodNormal {
		method = "by the normal approximation"
	}
	return app.Section().DataSet("scope", "fixed_drop").Aria("label", "A fixed rule").Body(
		app.H2().Text("What a fixed "+roundPts(f.Drop)+"-point rule would cost"),
		app.P().Body(
			app.Text("A rule that blocks any drop of "), fieldNum("drop", f.Drop, words.Points(f.Drop)),
			app.Text(" or more (here "), fieldInt("drop_scenarios", f.DropScenarios), app.Text(" "+plural(f.DropScenarios, "scenario")+") would block "),
			app.Strong().Body(fieldNum("rate", f.Rate, words.Percent(f.Rate))), app.Text(" of comparisons between unchanged runs: it fired on "),
			fieldInt("fired", f.Fired), app.Text(" of "), fieldInt("pairs", f.Pairs), app.Text(" ordered pairs of runs ("),
			fieldInt("fired_earlier_baseline", f.FiredEarlierBaseline), app.Text(" with the earlier run as the baseline, "),
			fieldInt("fired_later_baseline", f.FiredLaterBaseline), app.Text(" with the later). Were the runs independent, it would block "),
			fieldNum("independent_rate", f.IndependentRate, words.Percent(f.IndependentRate)), app.Text(" ("),
			fieldStrText("independent_method", f.IndependentMethod, method), app.Text(")."),
		),
	)
}

// roundPts is a drop in points without trailing zeros: "2", "2.5".
func roundPts(drop float64) string {
	p := strconv.FormatFloat(100*drop, 'f', 2, 64)
	return strings.TrimSuffix(strings.TrimRight(p, "0"), ".")
}

// renderFlaky lists pass^k, the all-pass bound and the scenarios that went
// both ways.
func (c *AA) renderFlaky() app.UI {
	d := c.res.Depth
	if d == nil {
		return nil
	}
	b := d.AllPassBound
	return app.Section().Aria("label", "Scenarios that went both ways").Body(
		app.H2().Text("Scenarios that went both ways"),
		app.If(len(d.PassK) > 0, func() app.UI {
			return figureTable("Chance a scenario passes every one of k attempts (pass^k)", []string{"Attempts k", "Pass every time"}, "pass_k", len(d.PassK),
				func(i int) []app.UI {
					p := d.PassK[i]
					return []app.UI{app.Td().Body(fieldInt("k", int64(p.K))), app.Td().Body(fieldNum("rate", p.Rate, words.Percent(p.Rate)))}
				})
		}),
		app.P().DataSet("scope", "all_pass_bound").Body(
			fieldInt("scenarios", int64(b.Scenarios)), app.Text(" "+plural(int64(b.Scenarios), "scenario")+" passed all "),
			fieldInt("runs", int64(b.Runs)), app.Text(" runs; a clean record that long still allows a failure rate up to "),
			fieldNum("upper", b.Upper, words.Percent(b.Upper)), app.Text(" for each (at "), fieldNum("confidence", b.Confidence, words.Level(b.Confidence)),
			app.Text(" confidence), so a scenario that never failed here may still fail now and then."),
		),
		app.If(len(d.Flaky) > 0, func() app.UI {
			table := func() app.UI {
				return figureTable("Noisiest first", []string{"Scenario", "Passed", "Of runs", "Pass rate", "Noise q(1−q)"}, "flaky", len(d.Flaky),
					func(i int) []app.UI {
						f := d.Flaky[i]
						return []app.UI{app.Td().Class("id").Body(fieldStr("scenario", f.Scenario)),
							app.Td().Body(fieldInt("passed", f.Passed)), app.Td().Body(fieldInt("runs", f.Runs)),
							app.Td().Body(fieldNum("rate", f.Rate, words.Percent(f.Rate))),
							app.Td().Body(fieldNum("noise", f.Noise, strconv.FormatFloat(f.Noise, 'f', 3, 64)))}
					})
			}
			return app.Details().ID("flaky").Open(c.open["flaky"]).OnToggle(c.toggled("flaky")).Body(
				app.Summary().Text("The "+words.Nouns(len(d.Flaky), "scenario")+" that passed in some runs and failed in others"),
				app.If(c.open["flaky"] || len(d.Flaky) <= 40, table),
			)
		}),
	)
}
