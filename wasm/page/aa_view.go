package page

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The A/A page tells the A/A story in its order: the answer first
// (words.AAAnswer and words.AAStory, the sentences the Markdown and the CLI
// print), then under plain headings the candidate's verdict and why, how
// noisy the suite is, the drop it can see with how many runs, whether the
// runs trend, what a fixed-point rule costs, and the scenarios that went
// both ways. Every figure is a data-field; no JSON key is shown as text.

// aaSideLabels name the two sides' inputs.
var aaSideLabels = [2]string{"Baseline: the unchanged suite's runs", "Candidate's runs (optional)"}

// aaShown is the result's top-level JSON fields the page lays out itself;
// any other (a figure added to aa.Result later) is shown generically.
var aaShown = []string{"scenarios", "runs", "rows", "mixed", "v", "noise", "thresholds", "runs_needed", "trend",
	"run_rates", "candidate", "warnings", "variance_ratio", "trend_test", "fixed_drop", "pass_k", "all_pass_bound",
	"flaky", "paired_t"}

func (c *AA) Render() app.UI {
	perfMark("render")
	if !c.opened {
		c.openLink(openingFragment(), "aa", c.loadLink)
	}
	return c.shell("/aa", "A/A noise check",
		"How noisy is an eval suite when nothing changed? Give the runs of the unchanged suite (the baseline) and, if you have them, a candidate's runs: the page says what drop is more than noise, how many runs it takes to see one, whether the runs drift, and whether the candidate regressed.",
		tryExample("example-aa", "20 unchanged runs of a 200-scenario suite whose pass rate drifts down, and 4 runs of a candidate.", c.onExample),
		app.Div().Class("inputs").Body(c.renderSide(0), c.renderSide(1)),
		c.renderOptions(),
		c.linkError(),
		app.If(c.err != nil && c.errSide() < 0 && !c.opts.atOption(c.err), func() app.UI {
			return app.P().Class("error").Role("alert").DataSet("error", "aa").Text(errString(c.err))
		}),
		c.renderAnswer(),
		app.If(c.res != nil, func() app.UI { return c.renderResult() }),
	)
}

// renderAnswer is the polite live region that says the answer: a screen
// reader hears each new result (and a side's error) as it arrives. It is
// on the page from the start, as a live region must be to be heard.
func (c *AA) renderAnswer() app.UI {
	var body []app.UI
	switch {
	case c.res != nil:
		r := c.res
		class := "verdict"
		if r.Candidate != nil && r.Candidate.Blocks {
			class = "verdict bad"
		}
		body = append(body, app.P().Class(class).ID("answer-text").Text(words.AAAnswer(r)))
		if c.sides[1].err != nil || c.candErr != nil {
			body = append(body, app.P().Class("notice").ID("baseline-only").Text(
				"The candidate's runs could not be used (the error is at its input above): these figures are the baseline's alone, with no verdict."))
		}
		story := words.AAStory(r)
		body = append(body, app.Ul().Class("story").ID("story").Body(app.Range(story).Slice(func(i int) app.UI {
			return app.Li().Text(story[i])
		})))
		if len(r.Warnings) > 0 {
			body = append(body, app.H3().ID("caveats").Text("Caveats"))
		}
		body = append(body, warnings(r.Warnings))
	case c.sides[0].busy || c.sides[1].busy:
		body = append(body, app.P().Class("hint").Text("Reading the runs…"))
	case c.sides[0].err != nil:
		body = append(body, app.P().Class("hint").Text("No figures: the baseline's runs could not be read (the error is at its input above)."))
	case c.opts.err != nil && c.sides[0].stats != nil:
		body = append(body, app.P().Class("hint").Text("No figures: an option could not be read (the error is at its field under Options)."))
	}
	return app.Div().ID("answer").Class("answer").Aria("live", "polite").Body(body...)
}

func (c *AA) renderSide(i int) app.UI {
	s := c.sides[i]
	key := sideKeys[i]
	sideErr := s.err
	if sideErr == nil && !s.busy && c.errSide() == i {
		sideErr = c.err
	}
	if sideErr == nil && !s.busy && i == 1 {
		sideErr = c.candErr
	}
	label := aaSideLabels[i]
	var status app.UI
	switch {
	case s.busy:
		pc := 0.0
		if s.total > 0 {
			pc = float64(s.done) / float64(s.total)
		}
		status = app.Div().Class("progress").Body(
			app.Progress().ID("progress-"+key).Max(1).Value(words.Exact(pc)).Aria("label", "reading "+key),
			app.Span().Text(" reading "+s.name+": "+words.Percent(pc)),
		)
	case sideErr != nil:
		status = app.P().ID("err-"+key).Class("error").Role("alert").DataSet("error", key).Text(errString(sideErr))
	case s.stats != nil:
		status = app.P().Class("loaded").ID("loaded-"+key).DataSet("ms", strconv.FormatInt(s.elapsed.Milliseconds(), 10)).
			Text(s.name + ": " + words.Nouns(s.stats.Rows, "row") + ", " + words.Nouns(len(s.stats.Scenarios), "scenario") + ", " + words.Nouns(len(s.stats.Runs), "run"))
	}
	text := app.Textarea().ID("text-"+key).Rows(5).Attr("spellcheck", "false").
		Attr("placeholder", "Paste the "+key+"'s runs: one row per scenario and run, with the columns scenario, run and passed (1 or 0), separated by commas, semicolons or tabs, from a spreadsheet or a CSV file.")
	if sideErr != nil {
		text = text.Aria("invalid", "true").Aria("describedby", "err-"+key)
	}
	return app.FieldSet().Class("side").Body(
		app.Legend().Text(label),
		app.Label().For("text-"+key).Text("Paste the "+key+"'s runs"),
		text.OnInput(func(ctx app.Context, e app.Event) {
			c.sides[i].gen++
			gen := c.sides[i].gen
			ctx.After(150*time.Millisecond, func(ctx app.Context) {
				if c.sides[i].gen != gen {
					return
				}
				text := app.Window().GetElementByID("text-" + key).Get("value").String()
				c.PasteSide(ctx, i, text)
			})
		}),
		dropFiles(key, "or the "+key+"'s files: a CSV, or one test report or eval log per run", ".csv,.tsv,.txt,.json,.jsonl,.xml,.eval,text/csv", true, func(ctx app.Context, files []dropped) {
			c.ReadFiles(ctx, i, files)
		}),
		status,
		app.If(s.stats != nil || s.err != nil || s.busy, func() app.UI {
			return app.Button().ID("clear-" + key).Class("secondary").Text("Clear the " + key).OnClick(func(ctx app.Context, e app.Event) {
				c.ClearSide(ctx, i)
			})
		}),
	)
}

func (c *AA) renderResult() app.UI {
	r := c.res
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		c.renderCandidate(),
		app.H2().Text("How noisy the suite is"),
		app.P().Class("summary").Body(
			fieldInt("scenarios", int64(r.Scenarios)), app.Text(" "+plural(int64(r.Scenarios), "scenario")+" in "),
			fieldInt("runs", int64(r.Runs)), app.Text(" baseline "+plural(int64(r.Runs), "run")+" ("),
			fieldInt("rows", r.Rows), app.Text(" "+plural(r.Rows, "row")+"); "),
			fieldInt("mixed", int64(r.Mixed)), app.Text(" "+plural(int64(r.Mixed), "scenario")+" went both ways (passed in some runs and failed in others). Their mean pass-fail variance q(1−q), the noise each adds, is v = "),
			fieldNum("v", r.V, strconv.FormatFloat(r.V, 'f', 4, 64)), app.Text("."),
		),
		app.P().DataSet("scope", "noise").Body(
			app.Text("Two unchanged runs differ by about s = "), fieldNum("s", r.Noise.S, words.Points(r.Noise.S)),
			app.Text(" (the noise of a one-run comparison): the larger of "), fieldNum("formula", r.Noise.Formula, words.Points(r.Noise.Formula)),
			app.Text(" that the formula √(2v/n) predicts from the scenarios and "), fieldOptNum("measured", r.Noise.Measured, words.Points),
			app.Text(" that the runs' own spread shows (√2 times the standard deviation of their pass rates; it needs 3 or more runs)."),
		),
		c.renderVariance(),
		app.H2().Text("What drop the suite can see"),
		app.Div().Class("twocol").Body(
			figureTable("Flag only drops larger than this (5% false alarms)", []string{"Runs per side", "Drop"}, "thresholds", len(r.Thresholds),
				func(i int) []app.UI {
					t := r.Thresholds[i]
					return []app.UI{app.Td().Body(fieldInt("runs_per_side", int64(t.RunsPerSide))), app.Td().Body(fieldNum("drop", t.Drop, words.Points(t.Drop)))}
				}),
			figureTable("Runs per side to catch a drop 80% of the time", []string{"Drop", "Runs per side"}, "runs_needed", len(r.RunsNeeded),
				func(i int) []app.UI {
					n := r.RunsNeeded[i]
					return []app.UI{app.Td().Body(fieldNum("drop", n.Drop, words.Points(n.Drop))), app.Td().Body(fieldInt("runs_per_side", n.RunsPerSide))}
				}),
		),
		app.H2().Text("Whether the runs trend"),
		app.If(r.Trend != nil, func() app.UI {
			t := r.Trend
			return app.P().DataSet("scope", "trend").Body(
				app.Text("Comparing every pair of runs in the order given, the one-run threshold fired on "), fieldInt("fired_earlier_baseline", int64(t.FiredEarlierBaseline)),
				app.Text(" of "), fieldInt("pairs", int64(t.Pairs)), app.Text(" pairs with the earlier run as the baseline and on "),
				fieldInt("fired_later_baseline", int64(t.FiredLaterBaseline)), app.Text(" the other way. Unchanged runs fire about as often both ways; lopsided counts mean the pass rate trends, and then any threshold fires mostly one way."),
			)
		}).Else(func() app.UI {
			return app.P().Body(fieldNull("trend"), app.Text(" No count of pairs: it needs 3 or more runs and some noise."))
		}),
		c.renderTrendTest(),
		app.If(c.full(), func() app.UI {
			d := c.derive(r)
			return app.Figure().Body(
				app.Raw(d.runPlot),
				app.Raw(d.runPlotSm),
				app.FigCaption().Text("Each run's pass rate in the order the runs came: the baseline's, then the candidate's. The band is the baseline's mean plus or minus the one-run threshold: one run outside it differs from a typical run by more than noise."),
			)
		}),
		c.renderFixedDrop(),
		app.If(c.full() && c.headline, func() app.UI {
			return app.P().Class("hint").Role("status").ID("depth-pending").Text("Working out the in-depth analyses (trend test, variance ratio, fixed-rule false alarms, pass^k, flaky scenarios)…")
		}),
		c.renderFlaky(),
		app.If(c.full(), func() app.UI { return c.extraFields(r) }),
		app.Details().ID("run-table").Open(c.showRuns).OnToggle(func(ctx app.Context, e app.Event) {
			c.showRuns = ctx.JSSrc().Get("open").Bool()
		}).Body(
			app.Summary().Text("Pass rate of each baseline run ("+words.Count(int64(len(r.RunRates)))+")"),
			app.If(c.showRuns || len(r.RunRates) <= lazyRuns, func() app.UI { return c.runTable() }),
		),
		c.renderShare(),
	)
}

// lazyRuns is the most runs whose table is built before it is opened; a
// larger table is built on demand, so a 1000-run suite renders quickly.
const lazyRuns = 200

func (c *AA) runTable() app.UI {
	r := c.res
	return figureTable("", []string{"Run", "Pass rate"}, "run_rates", len(r.RunRates), func(i int) []app.UI {
		rr := r.RunRates[i]
		return []app.UI{app.Td().Class("id").Body(fieldStr("run", rr.Run)), app.Td().Body(fieldNum("rate", rr.Rate, words.Percent(rr.Rate)))}
	})
}

// figureTable is a table of figures under heads, a row per item i < n,
// each scoped scope.i for the figure readers, its cells cells(i); caption
// "" for none.
func figureTable(caption string, heads []string, scope string, n int, cells func(i int) []app.UI) app.UI {
	rows := make([]app.UI, n)
	for i := range rows {
		rows[i] = app.Tr().DataSet("scope", scope+"."+strconv.Itoa(i)).Body(cells(i)...)
	}
	return app.Div().Class("table-wrap").Body(app.Table().Body(
		app.If(caption != "", func() app.UI { return app.Caption().Text(caption) }),
		app.THead().Body(app.Tr().Body(app.Range(heads).Slice(func(j int) app.UI { return th(heads[j]) }))),
		app.TBody().Body(rows...),
	))
}

func (c *AA) renderCandidate() app.UI {
	r := c.res
	cand := r.Candidate
	if cand == nil {
		var pt app.UI
		if r.Depth != nil {
			pt = hidden().Body(fieldNull("paired_t"))
		}
		return app.P().Class("hint").Body(hidden().Body(fieldNull("candidate"), pt),
			app.Text("No candidate yet: add its runs to see whether it regressed."))
	}
	class := "verdict"
	if cand.Blocks {
		class = "verdict bad"
	}
	eq, hasEq := 0.0, false
	for _, t := range r.Thresholds {
		if t.RunsPerSide == cand.Runs {
			eq, hasEq = t.Drop, true
		}
	}
	return app.Section().Class("candidate").Aria("label", "Candidate").Body(
		app.H2().Text("The candidate"),
		app.P().Class(class).DataSet("scope", "candidate").Body(
			app.Text("Verdict: "), app.Strong().Body(fieldStrText("verdict", cand.Verdict, words.AAVerdictWords(cand.Verdict))), app.Text(" ("),
			fieldBool("blocks", cand.Blocks, "it blocks the change", "it does not block the change"), app.Text(")."),
		),
		app.P().ID("why").DataSet("scope", "candidate").Body(
			app.Strong().Text("Why: "),
			app.Text("averaged over the "), fieldInt("scenarios", int64(cand.Scenarios)), app.Text(" "+plural(int64(cand.Scenarios), "scenario")+" both sides have, the candidate's "),
			fieldInt("runs", int64(cand.Runs)), app.Text(" "+plural(int64(cand.Runs), "run")+" differ from the baseline's by "),
			fieldNum("diff", cand.Diff, words.Points(cand.Diff)), app.Text(". "),
			app.Text(words.Nouns(r.Runs, "baseline run")+" against "+words.Nouns(cand.Runs, "candidate run")+" set the threshold: a drop larger than "),
			fieldNum("threshold", cand.Threshold, words.Points(cand.Threshold)),
			app.Text(" is more than noise"),
			app.If(hasEq && cand.Runs != r.Runs, func() app.UI {
				return app.Text(" (the table's " + words.Points(eq) + " is for " + words.Nouns(cand.Runs, "run") + " on both sides; more baseline runs lower it)")
			}),
			app.Text(". "+dropAgainst(cand)),
		),
		c.renderPairedT(),
		app.If(len(cand.LargestDrops) > 0, func() app.UI {
			return app.Div().DataSet("scope", "candidate").Body(figureTable("Scenarios that moved most: read these before you decide",
				[]string{"Scenario", "Candidate − baseline"}, "largest_drops", len(cand.LargestDrops), func(i int) []app.UI {
					d := cand.LargestDrops[i]
					return []app.UI{app.Td().Class("id").Body(fieldStr("scenario", d.Scenario)), app.Td().Body(fieldNum("diff", d.Diff, words.Points(d.Diff)))}
				}))
		}),
	)
}

// dropAgainst compares a candidate's difference with its threshold in
// words.
func dropAgainst(c *aa.Candidate) string {
	d := math.Abs(c.Diff)
	switch {
	case c.Blocks:
		return "The drop, " + words.Points(d) + ", is larger: a regression."
	case c.Diff >= 0:
		return "The candidate did not drop."
	}
	return "The drop, " + words.Points(d) + ", is not larger: no regression shown."
}

func (c *AA) renderShare() app.UI {
	r := c.res
	return app.Div().Body(
		app.H2().Text("Share"),
		app.If(c.tooBig, func() app.UI {
			return app.P().Class("notice").ID("too-big").Role("status").Text(
				"These statistics take " + words.Count(int64(c.shareLen)) + " bytes as a link, over the " + words.Count(MaxShareFragment) +
					"-byte limit, so the address bar does not hold them. Download them as JSON instead; dropping that file here reopens this view.")
		}),
		app.If(c.tooBig || c.sides[0].stats != nil, func() app.UI {
			return app.Button().ID("download-json").Text("Download statistics (JSON)").OnClick(func(ctx app.Context, e app.Event) {
				if s, ok := c.shareState(); ok {
					download("flakegate-aa.json", "application/json", ShareJSON(s))
				}
			})
		}),
		c.copyButtons(func(link string) string {
			if c.tooBig {
				return words.AAMarkdown(r, words.Link{Note: words.AATooLong(c.shareLen)})
			}
			return words.AAMarkdown(r, words.Link{URL: link})
		}),
		app.If(c.full(), func() app.UI {
			return app.Details().Body(app.Summary().Text("Markdown"), app.Pre().ID("markdown").Text(c.derive(r).markdown))
		}),
	)
}

// extraFields renders result fields this page has no layout of its own for
// (figures added to aa.Result later, a simulation) generically; a null one
// (no simulation was asked for) is kept for the figure readers and not
// shown.
func (c *AA) extraFields(r *aa.Result) app.UI {
	d := c.derive(r)
	keys, m := d.keys, d.raw
	if len(keys) == 0 {
		return nil
	}
	var shown []string
	var nulls []app.UI
	for _, k := range keys {
		if strings.TrimSpace(string(m[k])) == "null" {
			nulls = append(nulls, hidden().Body(fieldNull(k)))
			continue
		}
		shown = append(shown, k)
	}
	return app.Div().Body(
		app.Div().Body(nulls...),
		app.If(len(shown) > 0, func() app.UI {
			return app.Section().Class("extra").Aria("label", "Further figures").Body(
				app.H2().Text("Further figures"),
				app.Range(shown).Slice(func(i int) app.UI {
					k := shown[i]
					if len(m[k]) <= lazyJSON {
						return genericField(k, m[k])
					}
					return app.Details().ID("more-"+k).Open(c.open[k]).OnToggle(c.toggled(k)).Body(
						app.Summary().Text(strings.ReplaceAll(k, "_", " ")),
						app.If(c.open[k], func() app.UI { return genericField(k, m[k]) }),
					)
				}),
			)
		}),
	)
}

// toggled keeps whether the disclosure key is open, as the person left it.
func (c *AA) toggled(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if c.open == nil {
			c.open = map[string]bool{}
		}
		c.open[key] = ctx.JSSrc().Get("open").Bool()
	}
}

// lazyJSON is the largest further figure, in bytes of JSON, rendered before
// it is asked for.
const lazyJSON = 4096
