package wasm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// side is one CSV of the A/A view while it is read and once it is.
type side struct {
	name    string // file name, or "pasted text"
	stats   *aa.Side
	err     error
	busy    bool
	done    int64 // bytes read so far
	total   int64
	gen     int // bumped per new input; stale parses are dropped
	elapsed time.Duration
}

var sideKeys = [2]string{"baseline", "candidate"}

// AA is the A/A noise check at "/aa".
type AA struct {
	pageBase
	sides     [2]side
	res       *aa.Result
	err       error
	showRuns  bool            // the per-run table is open (rendered lazily for many runs)
	open      map[string]bool // further-figure disclosures that are open
	share     string          // encoded state, "" when none or too long
	tooBig    bool
	shareLen  int
	linkErr   error
	opened    bool   // the URL fragment has been read
	frag      string // the fragment last read or written
	derived   aaDerived
	painted   bool // the first mount has been painted; see full
	headline  bool // res leaves out the in-depth analyses for now; see compute
	calc      int  // counts compute calls, so that a late deepen result is dropped
	deepening int  // the calc whose in-depth analyses are under way
}

// OnMount lets the first mount paint, then adds what full holds back.
func (c *AA) OnMount(ctx app.Context) {
	c.pageBase.OnMount(ctx)
	afterPaint(ctx, func(ctx app.Context) {
		c.painted = true
		c.deepen(ctx)
	})
}

// full reports whether to render the run plot, the further figures and the
// Markdown, and to compute the in-depth analyses. In the browser's first
// mount they wait until it has been painted, so a share link's
// headline figures paint without waiting for them (the further figures are
// a JSON round trip of the whole result, the analyses a permutation test
// and code V8 has yet to compile); natively (tests, pre-rendering)
// everything renders at once.
func (c *AA) full() bool { return c.painted || !app.IsClient }

// aaDerived is what the page derives from a result for display only: the
// further figures (a JSON round trip through reflection) and the run plot.
// Built once per result, not on every render (progress bars and disclosures
// re-render the page while the result stays the same).
type aaDerived struct {
	res      *aa.Result
	keys     []string                   // further-figure names, sorted
	raw      map[string]json.RawMessage // their JSON
	runPlot  string
	markdown string
}

func (c *AA) derive(r *aa.Result) *aaDerived {
	d := &c.derived
	if d.res == r {
		return d
	}
	*d = aaDerived{res: r, runPlot: RunPlot(r), markdown: words.AAMarkdown(r, words.Link{})}
	known := map[string]bool{"scenarios": true, "runs": true, "rows": true, "mixed": true, "v": true, "noise": true,
		"thresholds": true, "runs_needed": true, "trend": true, "run_rates": true, "candidate": true, "warnings": true}
	var b bytes.Buffer
	core.WriteJSON(&b, r)
	var m map[string]json.RawMessage
	if json.Unmarshal(b.Bytes(), &m) != nil {
		return d
	}
	for k := range m {
		if !known[k] {
			d.keys = append(d.keys, k)
		}
	}
	sortStrings(d.keys)
	d.raw = m
	return d
}

func (c *AA) OnNav(ctx app.Context) {
	perfMark("nav")
	defer perfMark("nav-done")
	ctx.Page().SetTitle("A/A noise check · flakegate")
	if frag := fragmentOf(ctx.Page().URL()); !c.opened || frag != c.frag {
		if !c.openFragment(frag) && c.sides[0].stats != nil {
			// A plain /aa (the menu's link) keeps what is on the page,
			// so the address bar must say so again.
			c.writeURL(ctx)
		}
	}
	c.deepen(ctx)
}

// openFragment loads the statistics of an "aa=" fragment and reports
// whether it held some; a fragment without them leaves the view as it is.
// A link whose statistics cannot be read clears the view, so that no
// figure of earlier input stands beside its error.
func (c *AA) openFragment(v string) bool {
	c.opened, c.frag, c.linkErr = true, v, nil
	q := applyFragment([]field{{Key: "aa"}}, v)
	if q["aa"] == "" {
		return false
	}
	s, err := DecodeAAShare(q["aa"])
	if err != nil {
		c.linkErr = err
		c.sides = [2]side{{gen: c.sides[0].gen + 1}, {gen: c.sides[1].gen + 1}}
		c.compute()
		return true
	}
	c.load(s, "share link")
	c.share = q["aa"]
	return true
}

// load sets both sides from shared statistics and computes.
func (c *AA) load(s AAShare, name string) {
	c.sides[0] = side{name: name, stats: s.Baseline, gen: c.sides[0].gen + 1}
	c.sides[1] = side{gen: c.sides[1].gen + 1}
	if s.Candidate != nil {
		c.sides[1] = side{name: name, stats: s.Candidate, gen: c.sides[1].gen}
	}
	c.compute()
}

// SetSide installs parsed statistics (or an error) for side i, recomputes
// and rewrites the URL.
func (c *AA) SetSide(ctx app.Context, i int, stats *aa.Side, err error) {
	c.sides[i].stats, c.sides[i].err, c.sides[i].busy = stats, err, false
	c.compute()
	c.writeURL(ctx)
	c.deepen(ctx)
}

func (c *AA) compute() {
	c.calc++
	c.res, c.err, c.headline = nil, nil, false
	base, cand := c.sides[0].stats, c.sides[1].stats
	// No figure while either side cannot be read: baseline-only figures
	// beside a candidate's error would pass for a comparison.
	if base == nil || c.sides[0].err != nil || c.sides[1].err != nil {
		return
	}
	opt := aa.DefaultOptions
	// In the browser the in-depth analyses (a permutation test, long for
	// a large suite) are left to deepen, off the UI goroutine, when they
	// are sure to succeed; an input they reject shows its error at once.
	if app.IsClient && aa.CheckDepth(base, cand, opt.Depth) == nil {
		c.headline = true
		opt.Depth = aa.DepthOptions{}
	}
	c.res, c.err = aa.Check(base, cand, opt)
	if c.err != nil {
		c.headline = false
	}
}

// deepen computes the whole result of a headline one off the UI goroutine,
// pausing every few milliseconds so that the page keeps painting and taking
// input, and installs it unless the inputs changed meanwhile. It waits for
// the first paint (OnMount calls it then), so a share link's headline
// figures show without waiting for the analyses or the code V8 has yet to
// compile for them.
func (c *AA) deepen(ctx app.Context) {
	if !c.headline || !c.painted || c.deepening == c.calc {
		return
	}
	c.deepening = c.calc
	calc, base, cand := c.calc, c.sides[0].stats, c.sides[1].stats
	ctx.Async(func() {
		opt := aa.DefaultOptions
		opt.Pause = pauser()
		res, err := aa.Check(base, cand, opt)
		ctx.Dispatch(func(ctx app.Context) {
			if c.calc == calc {
				c.res, c.err, c.headline = res, err, false
			}
		})
	})
}

// shareState is what a link holds: the statistics of both sides, none
// while a side cannot be read (a link cannot carry the unread runs).
func (c *AA) shareState() (AAShare, bool) {
	if c.sides[0].stats == nil || c.sides[0].err != nil || c.sides[1].err != nil {
		return AAShare{}, false
	}
	return AAShare{Baseline: c.sides[0].stats, Candidate: c.sides[1].stats}, true
}

func (c *AA) writeURL(ctx app.Context) {
	c.share, c.tooBig, c.shareLen, c.noLink = "", false, 0, ""
	s, ok := c.shareState()
	frag := ""
	if ok {
		enc, err := EncodeAAShare(s)
		if err == nil {
			c.shareLen = len(enc) + len("aa=")
			if c.shareLen > MaxShareFragment {
				c.tooBig = true
				c.noLink = "No link copied: these statistics are too long for one. Download them as JSON instead."
			} else {
				c.share, frag = enc, "aa="+enc
			}
		}
	}
	c.frag = frag
	keepInURL(ctx, frag)
}

// Result is the current A/A result (nil until a baseline is read).
func (c *AA) Result() *aa.Result { return c.res }

// ParseSide reads CSV (or a shared-statistics JSON) for side i, off the UI
// goroutine, showing progress; r is read in chunks.
func (c *AA) ParseSide(ctx app.Context, i int, name string, r io.Reader, size int64) {
	c.linkErr = nil
	c.sides[i].gen++
	gen := c.sides[i].gen
	c.sides[i] = side{name: name, busy: true, total: size, gen: gen}
	start := time.Now()
	progress := func(done, total int64) {
		ctx.Dispatch(func(ctx app.Context) {
			if c.sides[i].gen == gen {
				c.sides[i].done, c.sides[i].total = done, total
			}
		})
	}
	if pr, ok := r.(interface{ setProgress(func(int64, int64)) }); ok {
		pr.setProgress(progress)
	}
	ctx.Async(func() {
		stats, share, err := readSide(r)
		elapsed := time.Since(start)
		ctx.Dispatch(func(ctx app.Context) {
			if c.sides[i].gen != gen {
				return
			}
			if share != nil {
				c.load(*share, name)
				c.writeURL(ctx)
				c.deepen(ctx)
				return
			}
			c.sides[i].elapsed = elapsed
			c.SetSide(ctx, i, stats, core.WithFile(err, name))
		})
	})
}

// readSide reads an A/A CSV (rows, or scenario,run,passed,trials counts), a
// test report or eval log that holds runs (a samples file, a seed ledger),
// or the JSON the page offers when a link is too long (recognised by its
// leading '{' and no report format).
func readSide(r io.Reader) (*aa.Side, *AAShare, error) {
	br := newPeekReader(r)
	first := br.peek()
	br.fill(64 << 10) // what report.DetectFormat looks at
	if report.DetectFormat(br.buf) != "" {
		l := ledger.New()
		if err := report.Read(br, report.Options{Run: "dropped file"}, l); err != nil {
			return nil, nil, err
		}
		side, err := aa.FromLedger(l, ledger.ArmBaseline)
		return side, nil, err
	}
	if first == '{' {
		raw, err := io.ReadAll(io.LimitReader(br, maxShareJSON+1))
		if err != nil {
			return nil, nil, err
		}
		s, err := ParseAAShareJSON(raw)
		if err != nil {
			return nil, nil, err
		}
		return nil, &s, nil
	}
	if aa.CSVKind(br.buf) == "counts" {
		stats, err := aa.ReadCounts(br)
		return stats, nil, err
	}
	stats, err := aa.ReadCSV(br)
	return stats, nil, err
}

// peekReader lets readSide look at the first non-blank byte.
type peekReader struct {
	r   io.Reader
	buf []byte
}

func newPeekReader(r io.Reader) *peekReader { return &peekReader{r: r} }

func (p *peekReader) peek() byte {
	b := make([]byte, 512)
	for len(p.buf) < 4096 {
		n, err := p.r.Read(b)
		p.buf = append(p.buf, b[:n]...)
		if t := bytes.TrimLeft(p.buf, " \t\r\n\ufeff"); len(t) > 0 {
			return t[0]
		}
		if err != nil {
			break
		}
	}
	return 0
}

// fill buffers up to n bytes of the start, or all of a shorter input.
func (p *peekReader) fill(n int) {
	b := make([]byte, 4096)
	for len(p.buf) < n {
		k, err := p.r.Read(b[:min(len(b), n-len(p.buf))])
		p.buf = append(p.buf, b[:k]...)
		if err != nil {
			return
		}
	}
}

func (p *peekReader) Read(b []byte) (int, error) {
	if len(p.buf) > 0 {
		n := copy(b, p.buf)
		p.buf = p.buf[n:]
		return n, nil
	}
	return p.r.Read(b)
}

func (r *textReader) setProgress(f func(int64, int64)) { r.onRead = f }
func (r *fileReader) setProgress(f func(int64, int64)) { r.onRead = f }

func (c *AA) Render() app.UI {
	perfMark("render")
	if !c.opened {
		c.openFragment(openingFragment())
	}
	return c.shell("/aa", "A/A noise check",
		"How noisy is an eval suite when nothing changed? Paste or drop the baseline runs (scenario,run,passed), and optionally a candidate's, to see the noise, the drop a comparison must exceed, and whether the candidate regressed.",
		app.Div().Class("inputs").Body(c.renderSide(0), c.renderSide(1)),
		app.If(c.linkErr != nil, func() app.UI {
			return app.P().Class("error").Role("alert").DataSet("error", "link").Text("This link's data could not be read: " + errString(c.linkErr))
		}),
		app.If(c.err != nil && c.errSide() < 0, func() app.UI {
			return app.P().Class("error").Role("alert").DataSet("error", "aa").Text(errString(c.err))
		}),
		app.If(c.res != nil, func() app.UI { return c.renderResult() }),
	)
}

// errSide is the side (0 or 1) the A/A error is about, -1 for none or
// both: the core names the side in the error's field.
func (c *AA) errSide() int {
	var ce *core.Error
	if errors.As(c.err, &ce) {
		for i, k := range sideKeys {
			if ce.Field == k {
				return i
			}
		}
	}
	return -1
}

func (c *AA) renderSide(i int) app.UI {
	s := c.sides[i]
	key := sideKeys[i]
	sideErr := s.err
	if sideErr == nil && !s.busy && c.errSide() == i {
		sideErr = c.err
	}
	label := "Baseline runs (CSV)"
	if i == 1 {
		label = "Candidate runs (CSV, optional)"
	}
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
		rows := words.Count(s.stats.Rows) + " rows"
		if s.stats.Rows == 1 {
			rows = "1 row"
		}
		status = app.P().Class("loaded").ID("loaded-"+key).DataSet("ms", strconv.FormatInt(s.elapsed.Milliseconds(), 10)).
			Text(fmt.Sprintf("%s: %s, %s, %s", s.name, rows, core.Nouns(len(s.stats.Scenarios), "scenario"), core.Nouns(len(s.stats.Runs), "run")))
	}
	text := app.Textarea().ID("text-"+key).Rows(6).Attr("spellcheck", "false").Attr("placeholder", "scenario,run,passed\nlogin,r1,1\n…")
	if sideErr != nil {
		text = text.Aria("invalid", "true").Aria("describedby", "err-"+key)
	}
	return app.FieldSet().Class("side").Body(
		app.Legend().Text(label),
		app.Label().For("text-"+key).Text("Paste the "+key+"'s CSV (columns scenario,run,passed)"),
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
		dropZone(key, "or the "+key+"'s CSV file", ".csv,.txt,.json,text/csv", func(ctx app.Context, name string, blob app.Value) {
			c.ParseSide(ctx, i, name, newFileReader(blob, nil), int64(blob.Get("size").Int()))
		}),
		status,
	)
}

// PasteSide parses pasted text for side i; an empty text clears the side.
func (c *AA) PasteSide(ctx app.Context, i int, text string) {
	if strings.TrimSpace(text) == "" {
		c.linkErr = nil
		c.sides[i] = side{gen: c.sides[i].gen + 1}
		c.compute()
		c.writeURL(ctx)
		c.deepen(ctx)
		return
	}
	c.ParseSide(ctx, i, "pasted text", newTextReader(text, nil), int64(len(text)))
}

func (c *AA) renderResult() app.UI {
	r := c.res
	return app.Section().Class("result").ID("result").Aria("label", "Result").Body(
		app.P().Class("summary").Body(
			fieldInt("scenarios", int64(r.Scenarios)), app.Text(" scenarios, "),
			fieldInt("runs", int64(r.Runs)), app.Text(" runs, "),
			fieldInt("rows", r.Rows), app.Text(" rows; "),
			fieldInt("mixed", int64(r.Mixed)), app.Text(" scenarios with both passes and failures; mean q(1−q) v = "),
			fieldNum("v", r.V, strconv.FormatFloat(r.V, 'f', 4, 64)), app.Text("."),
		),
		app.P().DataSet("scope", "noise").Body(
			app.Text("Noise of a one-run comparison: formula "), fieldNum("formula", r.Noise.Formula, words.Points(r.Noise.Formula)),
			app.Text(", measured "), fieldOptNum("measured", r.Noise.Measured, words.Points),
			app.Text(", using s = "), fieldNum("s", r.Noise.S, words.Points(r.Noise.S)), app.Text("."),
		),
		app.Div().Class("twocol").Body(
			app.Div().Class("table-wrap").Body(app.Table().Body(
				app.Caption().Text("Flag only drops larger than"),
				app.THead().Body(app.Tr().Body(th("Runs per side"), th("Drop"))),
				app.TBody().Body(app.Range(r.Thresholds).Slice(func(i int) app.UI {
					t := r.Thresholds[i]
					return app.Tr().DataSet("scope", "thresholds."+strconv.Itoa(i)).Body(
						app.Td().Body(fieldInt("runs_per_side", int64(t.RunsPerSide))),
						app.Td().Body(fieldNum("drop", t.Drop, words.Points(t.Drop))),
					)
				})),
			)),
			app.Div().Class("table-wrap").Body(app.Table().Body(
				app.Caption().Text("Runs per side to catch a drop 80% of the time"),
				app.THead().Body(app.Tr().Body(th("Drop"), th("Runs per side"))),
				app.TBody().Body(app.Range(r.RunsNeeded).Slice(func(i int) app.UI {
					n := r.RunsNeeded[i]
					return app.Tr().DataSet("scope", "runs_needed."+strconv.Itoa(i)).Body(
						app.Td().Body(fieldNum("drop", n.Drop, words.Points(n.Drop))),
						app.Td().Body(fieldInt("runs_per_side", n.RunsPerSide)),
					)
				})),
			)),
		),
		app.If(r.Trend != nil, func() app.UI {
			t := r.Trend
			return app.P().DataSet("scope", "trend").Body(
				app.Text("Runs in order: the one-run threshold fired on "), fieldInt("fired_earlier_baseline", int64(t.FiredEarlierBaseline)),
				app.Text(" of "), fieldInt("pairs", int64(t.Pairs)), app.Text(" pairs with the earlier run as baseline and on "),
				fieldInt("fired_later_baseline", int64(t.FiredLaterBaseline)), app.Text(" the other way. Lopsided counts mean a trend."),
			)
		}).Else(func() app.UI {
			return app.P().Body(fieldNull("trend"), app.Text(" No trend count: it needs 3 or more runs and some noise."))
		}),
		app.If(c.full(), func() app.UI {
			return app.Figure().Body(
				app.Raw(c.derive(r).runPlot),
				app.FigCaption().Text("Pass rate of each run in run order, the least-squares trend line, and the band of the one-run threshold around the mean run."),
			)
		}),
		c.renderCandidate(),
		app.If(c.full() && c.headline, func() app.UI {
			return app.P().Class("hint").Role("status").ID("depth-pending").Text("Working out the in-depth analyses (trend, variance ratio, pass^k, flaky scenarios)…")
		}),
		app.If(c.full(), func() app.UI { return c.extraFields(r) }),
		app.Details().ID("run-table").Open(c.showRuns).OnToggle(func(ctx app.Context, e app.Event) {
			c.showRuns = ctx.JSSrc().Get("open").Bool()
		}).Body(
			app.Summary().Text(fmt.Sprintf("Pass rate of each run (%d)", len(r.RunRates))),
			app.If(c.showRuns || len(r.RunRates) <= lazyRuns, func() app.UI { return c.runTable() }),
		),
		warnings(r.Warnings),
		c.renderShare(),
	)
}

// lazyRuns is the most runs whose table is built before it is opened; a
// larger table is built on demand, so a 1000-run suite renders quickly.
const lazyRuns = 200

func (c *AA) runTable() app.UI {
	r := c.res
	return app.Div().Class("table-wrap").Body(app.Table().Body(
		app.THead().Body(app.Tr().Body(th("Run"), th("Pass rate"))),
		app.TBody().Body(app.Range(r.RunRates).Slice(func(i int) app.UI {
			rr := r.RunRates[i]
			return app.Tr().DataSet("scope", "run_rates."+strconv.Itoa(i)).Body(
				app.Td().Class("id").Body(fieldStr("run", rr.Run)), app.Td().Body(fieldNum("rate", rr.Rate, words.Percent(rr.Rate))),
			)
		})),
	))
}

func (c *AA) renderCandidate() app.UI {
	cand := c.res.Candidate
	if cand == nil {
		return app.P().Body(fieldNull("candidate"), app.Text(" No candidate: add its runs to compare."))
	}
	class := "verdict good"
	if cand.Blocks {
		class = "verdict bad"
	}
	return app.Section().Class("candidate").DataSet("scope", "candidate").Aria("label", "Candidate").Body(
		app.H2().Text("Candidate"),
		app.P().Class(class).Body(
			app.Text("Verdict: "), app.Strong().Body(fieldStr("verdict", cand.Verdict)), app.Text(" ("),
			fieldBool("blocks", cand.Blocks, "blocks", "does not block"), app.Text(")."),
		),
		app.P().Body(
			app.Text("Candidate ("), fieldInt("runs", int64(cand.Runs)), app.Text(" runs) minus baseline over "),
			fieldInt("scenarios", int64(cand.Scenarios)), app.Text(" shared scenarios: mean difference "),
			fieldNum("diff", cand.Diff, words.Points(cand.Diff)), app.Text(" against a threshold of −"),
			fieldNum("threshold", cand.Threshold, words.Points(cand.Threshold)), app.Text("."),
		),
		app.If(len(cand.LargestDrops) > 0, func() app.UI {
			return app.Div().Class("table-wrap").Body(app.Table().Body(
				app.Caption().Text("Largest drops"),
				app.THead().Body(app.Tr().Body(th("Scenario"), th("Candidate − baseline"))),
				app.TBody().Body(app.Range(cand.LargestDrops).Slice(func(i int) app.UI {
					d := cand.LargestDrops[i]
					return app.Tr().DataSet("scope", "largest_drops."+strconv.Itoa(i)).Body(
						app.Td().Class("id").Body(fieldStr("scenario", d.Scenario)),
						app.Td().Body(fieldNum("diff", d.Diff, words.Points(d.Diff))),
					)
				})),
			))
		}),
	)
}

func (c *AA) renderShare() app.UI {
	r := c.res
	return app.Div().Body(
		app.If(c.tooBig, func() app.UI {
			return app.P().Class("notice").ID("too-big").Role("status").Text(fmt.Sprintf(
				"These statistics take %s bytes as a link, over the %s-byte limit, so the address bar does not hold them. Download them as JSON instead; dropping that file here reopens this view.",
				words.Count(int64(c.shareLen)), words.Count(MaxShareFragment)))
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

// download saves data as a file through a Blob URL.
func download(name, mime string, data []byte) {
	if !app.IsClient {
		return
	}
	w := app.Window()
	u8 := w.Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	blob := w.Get("Blob").New([]any{u8}, map[string]any{"type": mime})
	href := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Call("click")
	w.Get("URL").Call("revokeObjectURL", href)
}

// extraFields renders result fields this page has no dedicated layout for
// (figures added to aa.Result later), generically, so that every
// figure of the result is on the page.
func (c *AA) extraFields(r *aa.Result) app.UI {
	d := c.derive(r)
	keys, m := d.keys, d.raw
	if len(keys) == 0 {
		return nil
	}
	return app.Section().Class("extra").Aria("label", "Further figures").Body(
		app.H2().Text("Further figures"),
		app.Range(keys).Slice(func(i int) app.UI {
			k := keys[i]
			if len(m[k]) <= lazyJSON {
				return genericField(k, m[k])
			}
			// A long list (say, one entry per flaky scenario) is built
			// when its disclosure is opened, so the page appears quickly.
			return app.Details().ID("more-"+k).Open(c.open[k]).OnToggle(func(ctx app.Context, e app.Event) {
				if c.open == nil {
					c.open = map[string]bool{}
				}
				c.open[k] = ctx.JSSrc().Get("open").Bool()
			}).Body(
				app.Summary().Text(strings.ReplaceAll(k, "_", " ")),
				app.If(c.open[k], func() app.UI { return genericField(k, m[k]) }),
			)
		}),
	)
}

// lazyJSON is the largest further figure, in bytes of JSON, rendered before
// it is asked for.
const lazyJSON = 4096
