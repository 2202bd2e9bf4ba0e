package page

import (
	"fmt"
	"strconv"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// History is the page at "/history": which tests are flaky in many CI
// runs' reports, and which runs were outages? The reports (or zip archives
// of them, as CI artifacts download) are dropped on it, or the figures
// come from a link; it shows what flakegate history -markdown prints.
type History struct {
	pageBase
	fileView
	res  *history.Result
	err  error
	name string // the files read, or "share link"
	busy bool
	gen  int    // bumped per new input; stale reads are dropped
	md   string // the result's Markdown, without its link
	// runs are the runs read (the reports dropped, or the example's),
	// which the options typed are applied to; nil for a link's result,
	// which holds the answer and not the runs.
	runs *history.History
	opt  history.Options              // the options the next result is computed with
	opts optionsForm[history.Options] // the Options section, as typed
	// replay gives the runs again for the picture (a store's, or the
	// example's); nil when the runs came otherwise (reports, a link's
	// answer), which the page shows without one.
	replay runReplay
	// storeAddr is the address of the store a link opened, which the
	// page's own link keeps; "" otherwise.
	storeAddr string
	tl        *Timeline // the picture's content; nil without one
	plot      string    // the picture's SVG, wide
	plotSm    string    // the picture's SVG, for phones
	plotErr   error     // why the picture could not be drawn
}

func (h *History) OnNav(ctx app.Context) {
	if frag := fragmentOf(ctx.Page().URL()); storeAddrOf(frag) != "" {
		ctx.Page().SetTitle("Flaky tests in CI history · flakegate")
		if addr := storeAddrOf(frag); !h.opened || addr != h.storeAddr {
			h.opened, h.frag = true, frag
			h.loadStoreLink(ctx, addr)
		}
		return
	}
	h.nav(ctx, "Flaky tests in CI history · flakegate", "history", h.loadLink, h.res != nil, h.writeURL)
}

// loadLink shows the result of a link's "history=" data (fileView.openLink).
func (h *History) loadLink(data string) {
	h.gen++
	h.busy, h.err, h.runs, h.replay, h.storeAddr = false, nil, nil, nil, ""
	res, err := share.DecodeHistory(data)
	if err != nil {
		h.linkErr = err
		h.show(nil)
		return
	}
	h.name = "share link"
	h.show(res)
}

// show puts r on the page (nil clears it), with its picture when the
// runs can be replayed.
func (h *History) show(r *history.Result) {
	h.res, h.md, h.tl, h.plot, h.plotSm, h.plotErr = r, "", nil, "", "", nil
	if r == nil {
		return
	}
	h.md = words.HistoryMarkdown(r, words.Link{})
	if h.replay != nil {
		if h.tl, h.plotErr = buildTimeline(r, h.replay); h.plotErr == nil {
			h.plot, h.plotSm = TimelinePlot(h.tl, RunPlotWide), TimelinePlot(h.tl, RunPlotNarrow)
		}
	}
}

// writeURL puts the result in the address bar, or says why a link cannot
// hold it.
func (h *History) writeURL(ctx app.Context) {
	if h.storeAddr != "" {
		// A store's link opens on the same runs: it is the page's link.
		h.noLink, h.tooLong, h.frag = "", "", storeLink(h.storeAddr)
		keepInURL(ctx, h.frag)
		return
	}
	var view func() (share.View, error)
	if h.res != nil {
		view = func() (share.View, error) { return share.History(h.res) }
	}
	h.writeLink(ctx, &h.pageBase, view, words.HistoryTooLong)
}

// Result is the history on the page (nil until reports are read).
func (h *History) Result() *history.Result { return h.res }

// ReadFiles reads dropped or picked reports and zip archives off the UI
// goroutine, as flakegate history reads them, with /v1/history's limits.
func (h *History) ReadFiles(ctx app.Context, files []dropped) {
	in := make([]historyFile, len(files))
	names := make([]string, len(files))
	for k, f := range files {
		blob := f.blob
		names[k] = f.name
		in[k] = historyFile{name: f.name, read: func(max int64) ([]byte, error) {
			if int64(blob.Get("size").Int()) > max {
				return nil, fmt.Errorf("%s: the reports dropped at once are over %d MiB: run the CLI (flakegate history), which has no such limit", f.name, history.MaxReadUnzippedBytes>>20)
			}
			return readAll(blob)
		}}
	}
	h.gen++
	gen := h.gen
	h.linkErr, h.err, h.busy, h.name, h.runs, h.replay, h.storeAddr = nil, nil, true, shortList(names), nil, nil, ""
	h.show(nil)
	ctx.Async(func() {
		hist, replay, err := readHistoryFiles(in, "")
		ctx.Dispatch(func(ctx app.Context) {
			if h.gen != gen {
				return
			}
			h.busy, h.replay = false, replay
			h.compute(hist, err)
			h.writeURL(ctx)
		})
	})
}

// exampleConfig is the example: a planted month (histsim, seed 1) of 200
// runs of 60 stable tests and three flaky ones failing 2%, 5% and 15% of
// the time, with one outage failing half the suite and a group of three
// tests failing together in three runs.
var exampleConfig = histsim.Config{Seed: 1, Runs: 200, Stable: 60, Flaky: []float64{0.02, 0.05, 0.15}, Outages: 1, OutageShare: [2]float64{0.5, 0.5},
	Groups: 1, GroupSize: 3, GroupRuns: 3}

// exampleReplay plants the example's runs (again), in order.
func exampleReplay(add func(history.RunMeta, []history.TestResult) error) error {
	_, err := histsim.Generate(exampleConfig, add)
	return err
}

// exampleHistory is the example's runs.
func exampleHistory() (*history.History, error) {
	h := history.New()
	if err := exampleReplay(h.AddRun); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *History) Render() app.UI {
	return h.shell("/history", "Flaky tests in CI history",
		"Which tests are flaky, and which failures were outages? Drop many runs' test reports (JUnit XML, go test -json, TRX, CTRF, TAP…), one file per run, the zip archives CI artifacts download as, or a history store that flakegate record keeps (or link one: /history?store=URL): the answer is flakegate history's.",
		tryExample("example-history", "200 planted runs of 63 tests: three flaky, one outage, three tests failing together.", h.onExample),
		app.FieldSet().Class("side").Body(
			app.Legend().Text("The runs' reports"),
			dropFiles("history", "Reports, zip archives or a history store", "", true, h.ReadFiles),
			h.renderStatus(),
		),
		h.renderOptions(),
		h.linkError(),
		app.If(h.res != nil, h.renderResult),
	)
}

func (h *History) renderStatus() app.UI {
	switch {
	case h.busy:
		return app.P().Class("hint").Text("Reading " + h.name + "…")
	case h.err != nil:
		return app.P().ID("err-history").Class("error").Role("alert").DataSet("error", "history").Text(errString(h.err))
	case h.res != nil:
		return app.P().Class("loaded").ID("loaded-history").Text(h.name + ": " + words.Nouns(h.res.Runs, "run"))
	case h.runs != nil: // read, with no result while an option is refused
		return app.P().Class("loaded").ID("loaded-history").Text(h.name + ": " + words.Nouns(h.runs.Runs(), "run"))
	}
	return app.P().Class("hint").Text("Nothing leaves this page: the reports are read here.")
}

// td is a table cell labelled, for the cards a phone shows, by its column.
func td(label, text string) app.HTMLTd { return app.Td().DataSet("label", label).Text(text) }

func (h *History) renderResult() app.UI {
	r := h.res
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		app.Div().ID("answer").Class("answer").Aria("live", "polite").Body(
			app.P().Class("answer-text").ID("answer-text").Text(words.HistoryAnswer(r)),
			app.If(len(r.Flakes) > 0, func() app.UI { return app.P().ID("answer-worst").Text(worstSentence(r)) }),
		),
		h.renderPicture(),
		app.P().ID("naive").Text(fmt.Sprintf("Read %s of %s (%s test results). The naive rule, failed and passed at least once, would flag %s.",
			words.Nouns(r.Runs, "run"), words.Nouns(r.Tests, "test"), words.Count(r.Results), words.Nouns(r.Naive, "test"))),
		app.If(len(r.Flakes) > 0, func() app.UI { return h.renderFlakes(r) }),
		app.If(len(r.Incidents) > 0, func() app.UI { return h.renderIncidents(r) }),
		app.If(len(r.Broken) > 0, func() app.UI {
			return app.Div().Class("table-wrap").DataSet("scope", "broken").Body(app.Table().Class("cards").Body(
				app.Caption().Text("Broken, not flaky"),
				app.THead().Body(app.Tr().Body(th("test"), th("status"), th("failed / ran"), th("longest failing stretch"))),
				app.TBody().Body(app.Range(r.Broken).Slice(func(k int) app.UI {
					b := r.Broken[k]
					return app.Tr().Body(app.Td().Class("id").DataSet("label", "test").Text(b.Test), td("status", b.Status),
						td("failed / ran", words.Fraction(b.Failures, b.Runs)), td("longest failing stretch", words.Nouns(b.LongestStreak, "run")))
				})),
			))
		}),
		app.If(len(r.Warnings) > 0, func() app.UI {
			return app.Ul().Class("caveats").Body(app.Range(r.Warnings).Slice(func(k int) app.UI { return app.Li().Text(r.Warnings[k]) }))
		}),
		h.copyButtons(func(link string) string { return words.HistoryMarkdown(r, h.link(link)) }),
		app.Details().Body(app.Summary().Text("Markdown"), app.Pre().ID("markdown").Text(h.md)),
	)
}

func (h *History) renderFlakes(r *history.Result) app.UI {
	cost := words.HistoryHasCost(r)
	head := []app.UI{th("test"), th("failed / ran"), th("rate [95% interval]"), th("flips on one commit"), th("trend"), th("first – last failure"), th("lane"), th("reruns")}
	if cost {
		head = append(head, th("costs per run"))
	}
	return app.Div().Class("table-wrap").DataSet("scope", "flakes").Body(app.Table().Class("cards").ID("flakes").Body(
		app.Caption().Text("Flaky tests, most often failing first"),
		app.THead().Body(app.Tr().Body(head...)),
		app.TBody().Body(app.Range(r.Flakes).Slice(func(k int) app.UI {
			f := r.Flakes[k]
			reruns := "—"
			if f.Reruns != nil {
				reruns = words.Count(*f.Reruns)
			}
			cells := []app.UI{
				app.Td().Class("id").DataSet("label", "test").Body(fieldStr("test", f.Test)),
				td("failed / ran", words.Fraction(f.Failures, f.Runs)),
				app.Td().Class("rate").DataSet("label", "rate").Body(fieldNum("rate", f.Rate, words.Percent(f.Rate)), app.Text(" "+words.Interval(f.Lower, f.Upper))),
				td("flips on one commit", words.Count(f.SameCommitFlips)),
				td("trend", words.TrendWords(f.Trend)),
				td("first – last failure", "#"+words.Count(int64(f.FirstFailure.Index))+" – #"+words.Count(int64(f.LastFailure.Index))),
				app.Td().Class("lane").DataSet("label", "lane").Body(fieldStrText("lane", f.Lane, words.LaneWords(f.Lane))),
				td("reruns", reruns),
			}
			if cost {
				cells = append(cells, td("costs per run", words.CostCell(f)))
			}
			return app.Tr().DataSet("scope", strconv.Itoa(k)).Body(cells...)
		})),
	), app.P().Class("hint").Text("Rate: the share of its runs in which the test failed, with its 95% Wilson interval; the rerun budget is planned against the upper end. "+
		"Trend: Fisher's exact test of the recent half of its runs against the earlier half. Runs are numbered #1, #2, … "+runOrder(r)+"."+costNote(cost)))
}

// runOrder says how the runs are numbered, as the Markdown does.
func runOrder(r *history.Result) string {
	if r.Order == "time" {
		return "in time order"
	}
	return "in the order given (not every run has a time)"
}

func (h *History) renderIncidents(r *history.Result) app.UI {
	title := "Incidents, kept out of the rates"
	if r.KeptIncidents {
		title = "Incidents, counted in the rates"
	}
	return app.Div().Class("table-wrap").DataSet("scope", "incidents").Body(app.Table().Class("cards").ID("incidents").Body(
		app.Caption().Text(title),
		app.THead().Body(app.Tr().Body(th("incident"), th("runs"), th("what failed"), th("evidence"))),
		app.TBody().Body(app.Range(r.Incidents).Slice(func(k int) app.UI {
			row := words.IncidentRow(r.Incidents[k])
			return app.Tr().Body(td("incident", row[0]), app.Td().Class("id").DataSet("label", "runs").Text(row[1]), td("what failed", row[2]), td("evidence", row[3]))
		})),
	), app.P().Class("hint").Text("An outage is a run in which more tests failed than chance allows; a group is tests that failed in exactly the same runs, at least twice, and never apart: one shared cause, not each its own flake."))
}

// costNote is words.CostNote, after a space, when the table shows costs.
func costNote(cost bool) string {
	if !cost {
		return ""
	}
	return " " + words.CostNote
}
