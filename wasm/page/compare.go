package page

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// CompareShare is the shareable state of a comparison (share.CompareState);
// a link carries it as "compare=" + base64url(DEFLATE(JSON)).
type CompareShare = share.CompareState

// cmpSide is one side of the comparison while its logs are read and once
// they are.
type cmpSide struct {
	name  string // the files, or "share link"
	stats *aa.Side
	err   error
	busy  bool
	gen   int // bumped per new input; stale reads are dropped
}

var cmpSideKeys = [2]string{"a", "b"}

// cmpSideLabels name the two sides' inputs.
var cmpSideLabels = [2]string{"Side A, the model compared against", "Side B, the model compared"}

// Compare is the page at "/compare": is model B better than model A on the
// same eval questions? Each side's eval logs are dropped on it (several for
// epochs), or come from a link; it shows what flakegate compare prints.
type Compare struct {
	pageBase
	fileView
	sides [2]cmpSide
	// opt are the options the comparison is computed with: a link's or
	// the example's, else those typed (opts), the defaults at first.
	opt  compare.Options
	opts optionsForm[compare.Options] // the Options section, as typed
	res  *compare.Result
	err  error
	md   string            // the result's Markdown, without its link
	keys []string          // the result's JSON members, in order, for All figures
	raw  []json.RawMessage // their JSON
	// board is the leaderboard a link holds (in place of the two sides);
	// nil otherwise.
	board *boardView
}

func (c *Compare) OnNav(ctx app.Context) {
	frag := fragmentOf(ctx.Page().URL())
	if data := applyFragment([]field{{Key: share.BoardKey}}, frag)[share.BoardKey]; data != "" {
		ctx.Page().SetTitle("Leaderboard · flakegate")
		if !c.opened || frag != c.frag {
			c.openLink(frag, share.BoardKey, c.loadBoard)
		}
		return
	}
	c.nav(ctx, "Compare two models · flakegate", "compare", c.loadLink, c.res != nil || c.Board() != nil, c.writeURL)
}

// loadLink shows the comparison of a link's "compare=" data
// (fileView.openLink).
func (c *Compare) loadLink(data string) {
	s, err := share.DecodeCompare(data)
	if err != nil {
		c.linkErr = err
		c.sides = [2]cmpSide{{gen: c.sides[0].gen + 1}, {gen: c.sides[1].gen + 1}}
		c.compute()
		return
	}
	a, b, opt := s.Sides()
	c.show("share link", a, b, opt)
}

// Open shows the comparison of a and b with opt (the example), as a link
// to it would.
func (c *Compare) Open(ctx app.Context, a, b *aa.Side, opt compare.Options) {
	c.linkErr = nil
	c.show("example", a, b, opt)
	c.writeURL(ctx)
}

// show compares a and b, both from name, with opt.
func (c *Compare) show(name string, a, b *aa.Side, opt compare.Options) {
	c.board = nil
	c.setOptions(opt)
	c.sides[0] = cmpSide{name: name, stats: a, gen: c.sides[0].gen + 1}
	c.sides[1] = cmpSide{name: name, stats: b, gen: c.sides[1].gen + 1}
	c.compute()
}

func (c *Compare) compute() {
	c.res, c.err, c.md = nil, nil, ""
	c.keys, c.raw = nil, nil
	a, b := c.sides[0], c.sides[1]
	if c.opts.err != nil || a.stats == nil || b.stats == nil || a.err != nil || b.err != nil || a.busy || b.busy {
		return
	}
	c.res, c.err = compare.Compare(a.stats, b.stats, c.opt)
	c.keys, c.raw = nil, nil
	if c.res != nil {
		c.md = words.CompareMarkdown(c.res, words.Link{})
		var b bytes.Buffer
		core.WriteJSON(&b, c.res)
		c.keys, c.raw = orderedObject(b.Bytes())
	}
}

// writeURL puts the comparison in the address bar, or says why a link
// cannot hold it.
func (c *Compare) writeURL(ctx app.Context) {
	var view func() (share.View, error)
	tooLong := words.CompareTooLong
	switch {
	case c.Board() != nil:
		view, tooLong = c.boardLink, words.BoardTooLong
	case c.res != nil:
		view = func() (share.View, error) { return share.Compare(c.sides[0].stats, c.sides[1].stats, c.opt) }
	}
	c.writeLink(ctx, &c.pageBase, view, tooLong)
}

// Result is the comparison on the page (nil until both sides are read).
func (c *Compare) Result() *compare.Result { return c.res }

// ReadFiles reads dropped or picked eval logs for side i, each file one
// run, off the UI goroutine, as flakegate compare reads them.
func (c *Compare) ReadFiles(ctx app.Context, i int, files []dropped) {
	names := make([]string, len(files))
	rs := make([]io.Reader, len(files))
	for k, f := range files {
		names[k] = f.name
		rs[k] = newFileReader(f.blob, nil)
	}
	c.ReadLogs(ctx, i, names, rs)
}

// ReadLogs reads eval logs for side i, each one run named after it.
func (c *Compare) ReadLogs(ctx app.Context, i int, names []string, logs []io.Reader) {
	// The options typed stay; a link's clusters were its questions'.
	c.ensureOptions()
	c.linkErr, c.opt.Clusters, c.opt.ClusterField, c.board = nil, nil, "", nil
	c.sides[i].gen++
	gen := c.sides[i].gen
	c.sides[i] = cmpSide{name: shortList(names), busy: true, gen: gen}
	c.compute()
	ctx.Async(func() {
		stats, err := readRunFiles(names, logs)
		ctx.Dispatch(func(ctx app.Context) {
			if c.sides[i].gen != gen {
				return
			}
			c.sides[i].stats, c.sides[i].err, c.sides[i].busy = stats, err, false
			c.compute()
			c.writeURL(ctx)
		})
	})
}

// exampleCompare is the example: 710 questions answered once by each
// model, A right on 440 of them; 41 go from wrong to right and 19 from
// right to wrong (B − A = 22/710 = 3.1 points, McNemar p = 0.0062).
func exampleCompare() (a, b *aa.Side) {
	a, b = &aa.Side{}, &aa.Side{}
	for i := range 710 {
		id := fmt.Sprintf("q%03d", i+1)
		pa := int64(0)
		if i < 440 {
			pa = 1
		}
		pb := pa
		if i < 19 || i >= 440 && i < 481 {
			pb = 1 - pa
		}
		a.Scenarios = append(a.Scenarios, aa.Tally{ID: id, Passed: pa, Total: 1})
		b.Scenarios = append(b.Scenarios, aa.Tally{ID: id, Passed: pb, Total: 1})
	}
	return a, b
}

func (c *Compare) Render() app.UI {
	return c.shell("/compare", "Compare two models",
		"Is model B better than model A on the same eval questions? Drop each model's eval logs (inspect_ai, lm-evaluation-harness samples, promptfoo; several files for epochs): the questions are paired by id.",
		tryExample("example-compare", "710 questions answered once by each model: 41 go from wrong to right, 19 from right to wrong.",
			func(ctx app.Context, e app.Event) {
				a, b := exampleCompare()
				c.Open(ctx, a, b, compare.DefaultOptions)
			}),
		app.Div().Class("inputs").Body(c.renderSide(0), c.renderSide(1)),
		app.If(c.board == nil, c.renderOptions),
		c.linkError(),
		app.If(c.err != nil && !c.opts.atOption(c.err), func() app.UI {
			return app.P().Class("error").Role("alert").DataSet("error", "compare").Text(errString(c.err))
		}),
		app.If(c.res != nil, c.renderResult),
		app.If(c.board != nil, c.renderBoard),
	)
}

func (c *Compare) renderSide(i int) app.UI {
	s, key := c.sides[i], cmpSideKeys[i]
	label := cmpSideLabels[i]
	var status app.UI
	switch {
	case s.busy:
		status = app.P().Class("hint").Text("Reading " + s.name + "…")
	case s.err != nil:
		status = app.P().ID("err-"+key).Class("error").Role("alert").DataSet("error", key).Text(errString(s.err))
	case s.stats != nil:
		status = app.P().Class("loaded").ID("loaded-" + key).Text(s.name + ": " + words.Nouns(len(s.stats.Scenarios), "question"))
	}
	return app.FieldSet().Class("side").Body(
		app.Legend().Text(label),
		dropFiles("compare-"+key, "Eval logs of side "+string(rune('A'+i)), "", true, func(ctx app.Context, files []dropped) {
			c.ReadFiles(ctx, i, files)
		}),
		status,
	)
}

func (c *Compare) renderResult() app.UI {
	r := c.res
	story := words.CompareStory(r)
	figures := words.CompareFigures(r)
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		app.Div().ID("answer").Class("answer").Aria("live", "polite").Body(
			app.P().Class("answer-text").ID("answer-text").Text(words.CompareAnswer(r)),
		),
		app.If(len(r.Flips) > 0, func() app.UI {
			return app.Div().Class("table-wrap").DataSet("scope", "flips").Body(app.Table().Body(
				app.Caption().Text(cmpFlippedHead(r)),
				app.THead().Body(app.Tr().Body(th("question"), th("A → B"))),
				app.TBody().Body(app.Range(r.Flips).Slice(func(k int) app.UI {
					f := r.Flips[k]
					return app.Tr().DataSet("scope", strconv.Itoa(k)).Body(app.Td().Class("id").Body(fieldStr("id", f.ID)), app.Td().Text(words.FlipWords(r, f)))
				})),
			))
		}),
		app.Ul().Class("story").ID("story").Body(app.Range(story).Slice(func(k int) app.UI { return app.Li().Text(story[k]) })),
		app.Div().Class("table-wrap").DataSet("scope", "figures").Body(app.Table().Body(
			app.Caption().Text("Figures"),
			app.TBody().Body(app.Range(figures).Slice(func(k int) app.UI {
				return app.Tr().Body(app.Th().Scope("row").Text(figures[k][0]), app.Td().Text(figures[k][1]))
			})),
		)),
		app.If(len(r.Plan.Epochs) > 0, func() app.UI {
			return app.Div().Class("table-wrap").DataSet("scope", "plan").Body(app.Table().Body(
				app.Caption().Text("What more epochs or questions buy"),
				app.THead().Body(app.Tr().Body(th("epochs"), th("detects "+words.Level(r.Plan.Power)+" of the time"),
					th("questions to detect "+strconv.FormatFloat(100*r.Plan.Effect, 'f', 1, 64)+" points"))),
				app.TBody().Body(app.Range(r.Plan.Epochs).Slice(func(k int) app.UI {
					e := r.Plan.Epochs[k]
					return app.Tr().Body(app.Td().Text(words.Count(int64(e.Epochs))), app.Td().Text(words.Points(e.MDE)), app.Td().Text(words.Count(e.QuestionsNeeded)))
				})),
			))
		}),
		app.If(len(r.Warnings) > 0, func() app.UI {
			return app.Ul().Class("caveats").Body(app.Range(r.Warnings).Slice(func(k int) app.UI { return app.Li().Text(r.Warnings[k]) }))
		}),
		c.copyButtons(func(link string) string { return words.CompareMarkdown(r, c.link(link)) }),
		app.Details().Body(app.Summary().Text("Markdown"), app.Pre().ID("markdown").Text(c.md)),
		app.Details().ID("all-figures").Body(app.Summary().Text("All figures (the JSON of flakegate compare -json)"),
			app.Div().DataSet("scope", "compare").Body(app.Range(c.keys).Slice(func(k int) app.UI {
				return genericField(c.keys[k], c.raw[k])
			})),
		),
	)
}

// cmpFlippedHead is the caption of the flipped questions' table.
func cmpFlippedHead(r *compare.Result) string {
	if r.McNemar != nil {
		return words.Count(int64(r.Improved)) + " went from wrong to right, " + words.Count(int64(r.Worsened)) + " from right to wrong"
	}
	return words.Count(int64(r.Improved)) + " scored higher, " + words.Count(int64(r.Worsened)) + " lower"
}
