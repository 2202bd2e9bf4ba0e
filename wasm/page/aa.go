package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/jsonscan"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
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
	fileView
	sides     [2]side
	res       *aa.Result
	resCand   *aa.Side // the candidate statistics res compares, nil for none
	err       error
	showRuns  bool            // the per-run table is open (rendered lazily for many runs)
	open      map[string]bool // further-figure disclosures that are open
	share     string          // encoded state, "" when none or too long
	tooBig    bool
	shareLen  int
	candErr   error // why the candidate read cannot be compared (it shares no scenario, say); nil when it can
	derived   aaDerived
	painted   bool     // the first mount has been painted; see full
	headline  bool     // res leaves out the in-depth analyses for now; see compute
	calc      int      // counts compute calls, so that a late deepen result is dropped
	deepening int      // the calc whose in-depth analyses are under way
	pasteFn   app.Func // the document's paste listener; see watchPaste
	// mctx is the component's own context, from OnMount: work started
	// from an event finishes through it, since the event's element (a
	// Clear button, say) may be gone by then, and go-app drops what is
	// dispatched to a context whose element is no longer mounted.
	mctx    app.Context
	mounted bool // mctx is set
	// in is the check's options a link or a statistics file gave (its
	// simulation is not run on the page); nil for today's defaults.
	in *param.AAInput
	// opts is the Options section: the check's options as typed.
	opts optionsForm[param.AAInput]
}

// input is the check's options as the link or file gave them, else
// today's defaults.
func (c *AA) input() param.AAInput {
	if c.in == nil {
		return share.AAInputOf(aa.DefaultOptions)
	}
	return *c.in
}

// options are the check's options the page computes with: those of the
// link or file the statistics came from, without the simulation, or
// today's defaults.
func (c *AA) options() aa.Options {
	if c.in == nil {
		return aa.DefaultOptions
	}
	o := c.in.Options
	o.Simulate = nil
	return o
}

// own is the component's context once mounted, else ctx.
func (c *AA) own(ctx app.Context) app.Context {
	if c.mounted {
		return c.mctx
	}
	return ctx
}

// OnMount lets the first mount paint, then adds what full holds back.
func (c *AA) OnMount(ctx app.Context) {
	c.pageBase.OnMount(ctx)
	c.mctx, c.mounted = ctx, true
	c.watchPaste(ctx)
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
	res       *aa.Result
	keys      []string                   // further-figure names, sorted
	raw       map[string]json.RawMessage // their JSON
	runPlot   string                     // RunPlotWide
	runPlotSm string                     // RunPlotNarrow, for phones
	markdown  string
}

func (c *AA) derive(r *aa.Result) *aaDerived {
	d := &c.derived
	if d.res == r {
		return d
	}
	cand := c.resCand
	*d = aaDerived{res: r, runPlot: RunPlot(r, cand, RunPlotWide), runPlotSm: RunPlot(r, cand, RunPlotNarrow),
		markdown: words.AAMarkdown(r, words.Link{})}
	known := map[string]bool{}
	for _, k := range aaShown {
		known[k] = true
	}
	var b bytes.Buffer
	core.WriteJSON(&b, r)
	var m map[string]jsonscan.Raw
	if jsonscan.Decode(b.Bytes(), "result", &m) != nil {
		return d
	}
	d.raw = map[string]json.RawMessage{}
	for k, v := range m {
		if !known[k] {
			d.keys = append(d.keys, k)
		}
		d.raw[k] = json.RawMessage(v)
	}
	sortStrings(d.keys)
	return d
}

func (c *AA) OnNav(ctx app.Context) {
	perfMark("nav")
	defer perfMark("nav-done")
	c.nav(ctx, "A/A noise check · flakegate", "aa", c.loadLink, c.sides[0].stats != nil, c.writeURL)
	c.deepen(ctx)
}

// loadLink shows the statistics of a link's "aa=" data (fileView.openLink).
func (c *AA) loadLink(data string) {
	s, err := share.DecodeAA(data)
	if err != nil {
		c.linkErr = err
		c.sides = [2]side{{gen: c.sides[0].gen + 1}, {gen: c.sides[1].gen + 1}}
		c.compute()
		return
	}
	c.load(s, "share link")
	c.share = data
}

// load sets both sides from shared statistics and computes.
func (c *AA) load(s AAShare, name string) {
	c.in = nil
	if in, err := s.Input(); err == nil {
		c.in = &in
	}
	c.showOptions()
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
	c.res, c.resCand, c.err, c.headline, c.candErr = nil, nil, nil, false, nil
	base, cand := c.sides[0].stats, c.sides[1].stats
	if c.opts.err != nil {
		return // no figure while an option is refused (shown at its field)
	}
	// No figure while the baseline cannot be read. A candidate that cannot
	// be read leaves the baseline's analysis standing, without a verdict:
	// the page says above the figures that they are the baseline's alone.
	if base == nil || c.sides[0].err != nil {
		return
	}
	if c.sides[1].err != nil || c.sides[1].busy {
		cand = nil
	}
	c.check(base, cand)
	if c.err != nil && cand != nil && c.errSide() == 1 {
		// A candidate the baseline cannot be compared with (one that
		// shares no scenario, say) is as a candidate that cannot be read:
		// the baseline's analysis stands, and the error is at the
		// candidate's input, under its file's name.
		c.candErr = candidateError(c.err, c.sides[1].name)
		c.check(base, nil)
	}
}

// check computes the result of base and cand (nil for none).
func (c *AA) check(base, cand *aa.Side) {
	c.resCand = cand
	opt := c.options()
	// In the browser the in-depth analyses (a permutation test, long for
	// a large suite) are left to deepen, off the UI goroutine, when they
	// are sure to succeed; an input they reject shows its error at once.
	c.headline = false
	if app.IsClient && aa.CheckDepth(base, cand, opt.Depth) == nil {
		c.headline = true
		opt.Depth = aa.DepthOptions{}
	}
	c.res, c.err = aa.Check(base, cand, opt)
	if c.err != nil {
		c.headline = false
	}
}

// candidateError is err, an error the core pins on the candidate ("the
// candidate shares no scenario with the baseline"), said of the file it
// came from: "cand.csv: the candidate shares no scenario…" rather than
// "candidate: the candidate…".
func candidateError(err error, name string) error {
	var ce *core.Error
	if !errors.As(err, &ce) {
		return err
	}
	e := *ce
	e.Field = ""
	if e.File == "" {
		e.File = name
	}
	return &e
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
	ctx = c.own(ctx)
	calc, base, cand, opt := c.calc, c.sides[0].stats, c.resCand, c.options()
	ctx.Async(func() {
		opt.Pause = pauser()
		res, err := aa.Check(base, cand, opt)
		ctx.Dispatch(func(ctx app.Context) {
			if c.calc == calc {
				c.res, c.err, c.headline = res, err, false
			}
		})
	})
}

// shareState is what a link holds: the statistics the figures on the page
// come from. None while the baseline cannot be read; the baseline's alone
// while the candidate cannot be (a link cannot carry the unread runs).
func (c *AA) shareState() (AAShare, bool) {
	if c.sides[0].stats == nil || c.sides[0].err != nil {
		return AAShare{}, false
	}
	s := AAShare{Baseline: c.sides[0].stats, Options: share.AAOptionsText(c.input())}
	if c.sides[1].err == nil && c.candErr == nil && !c.sides[1].busy {
		s.Candidate = c.sides[1].stats
	}
	return s, true
}

func (c *AA) writeURL(ctx app.Context) {
	c.share, c.tooBig, c.shareLen, c.noLink = "", false, 0, ""
	s, ok := c.shareState()
	frag := ""
	if ok {
		enc, err := share.EncodeAA(s)
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

// ParseSide reads CSV (or a shared-statistics JSON, or a report that
// holds runs) for side i, off the UI goroutine, showing progress; r is read
// in chunks.
func (c *AA) ParseSide(ctx app.Context, i int, name string, r io.Reader, size int64) {
	c.parse(ctx, i, name, size, func(progress func(done, total int64)) (*aa.Side, *AAShare, error) {
		if pr, ok := r.(interface{ setProgress(func(int64, int64)) }); ok {
			pr.setProgress(progress)
		}
		stats, share, err := readSide(r, name)
		return stats, share, core.WithFile(err, name)
	})
}

// readSide reads an A/A CSV (rows, or scenario,run,passed,trials counts), a
// test report or eval log that holds runs (a samples file, a seed ledger),
// or the JSON the page offers when a link is too long (recognised by its
// leading '{' and no report format).
func readSide(r io.Reader, name string) (*aa.Side, *AAShare, error) {
	br := newPeekReader(r)
	first := br.peek()
	br.fill(64 << 10) // what report.DetectFormat looks at
	if report.DetectFormat(br.buf) != "" {
		l := ledger.New()
		if err := report.Read(br, report.Options{Run: name}, l); err != nil {
			return nil, nil, err
		}
		side, err := aa.FromLedger(l, ledger.ArmBaseline)
		return side, nil, err
	}
	if first == '{' {
		raw, err := io.ReadAll(io.LimitReader(br, share.MaxJSON+1))
		if err != nil {
			return nil, nil, err
		}
		s, err := share.ParseAAJSON(raw)
		if err != nil {
			return nil, nil, err
		}
		return nil, &s, nil
	}
	// A tab- or semicolon-separated text, or one without a header, is
	// read as the comma-separated CSV with a header it stands for.
	sh := sniffCSV(br.buf)
	in := br
	if !sh.plain() {
		in = newPeekReader(newShapeReader(br, sh))
		in.fill(4096)
	}
	read := aa.ReadCSV
	if aa.CSVKind(in.buf) == "counts" {
		read = aa.ReadCounts
	}
	stats, err := read(in)
	return stats, nil, sh.fixLine(err)
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
