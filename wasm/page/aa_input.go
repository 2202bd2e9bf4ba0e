package page

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pasteDirect is the longest paste, in bytes of UTF-8, that goes into
// the text area. A longer one is read straight from the clipboard event,
// as a file is: a text area holding megabytes makes the browser lay it out
// for seconds, and every later keystroke slow.
const pasteDirect = 64 << 10

// watchPaste reads a long paste into an A/A text area straight from the
// clipboard event, instead of letting the browser put it in the text area.
// The listener is the page's own JavaScript callback on the document, not
// a go-app event handler: go-app runs those later, from its update loop,
// when the event's default action (the text going into the text area) can
// no longer be cancelled.
func (c *AA) watchPaste(ctx app.Context) {
	if !app.IsClient || c.pasteFn != nil {
		return
	}
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		if len(args) == 0 {
			return nil
		}
		e := args[0]
		i := -1
		switch e.Get("target").Get("id").String() {
		case "text-baseline":
			i = 0
		case "text-candidate":
			i = 1
		}
		cd := e.Get("clipboardData")
		if i < 0 || !cd.Truthy() {
			return nil
		}
		// The text is a JavaScript string, which has no properties to
		// ask from Go: its length is the Blob's size, in UTF-8 bytes.
		text := cd.Call("getData", "text/plain")
		blob := app.Window().Get("Blob").New([]any{text}, map[string]any{"type": "text/plain"})
		size := int64(blob.Get("size").Int())
		if size <= pasteDirect {
			return nil // the text area takes it, and OnInput reads it
		}
		e.Call("preventDefault")
		e.Get("target").Set("value", "")
		ctx.Dispatch(func(ctx app.Context) {
			c.ParseSide(ctx, i, "pasted text", newFileReader(blob, nil), size)
		})
		return nil
	})
	c.pasteFn = fn
	app.Window().Get("document").Call("addEventListener", "paste", fn, true)
}

// OnDismount removes the paste listener.
func (c *AA) OnDismount() {
	if c.pasteFn != nil {
		app.Window().Get("document").Call("removeEventListener", "paste", c.pasteFn, true)
		c.pasteFn.Release()
		c.pasteFn = nil
	}
}

// ClearSide empties side i: its text, its file and its figures.
func (c *AA) ClearSide(ctx app.Context, i int) {
	if app.IsClient {
		if el := app.Window().GetElementByID("text-" + sideKeys[i]); el.Truthy() {
			el.Set("value", "")
		}
	}
	c.PasteSide(ctx, i, "")
}

// onExample loads the example suite and its candidate.
func (c *AA) onExample(ctx app.Context, e app.Event) {
	if app.IsClient {
		for _, k := range sideKeys {
			if el := app.Window().GetElementByID("text-" + k); el.Truthy() {
				el.Set("value", "")
			}
		}
	}
	c.LoadExample(ctx)
}

// LoadExample shows the example, as a link to it would.
func (c *AA) LoadExample(ctx app.Context) {
	c.linkErr = nil
	c.load(exampleAA(), "example")
	c.writeURL(ctx)
	c.deepen(ctx)
}

// ReadFiles reads dropped or picked files for side i: one file as
// ParseSide does (a CSV, a report, or the page's statistics JSON); several
// as test reports or eval logs, each file one run named after it, as
// `flakegate aa` reads the same files.
func (c *AA) ReadFiles(ctx app.Context, i int, files []dropped) {
	if len(files) == 1 {
		f := files[0]
		c.ParseSide(ctx, i, f.name, newFileReader(f.blob, nil), int64(f.blob.Get("size").Int()))
		return
	}
	var total int64
	names := make([]string, len(files))
	readers := make([]*fileReader, len(files))
	for k, f := range files {
		names[k] = f.name
		readers[k] = newFileReader(f.blob, nil)
		total += readers[k].size
	}
	name := words.Nouns(len(files), "file") + " (" + shortList(names) + ")"
	var done int64
	c.parse(ctx, i, name, total, func(progress func(done, total int64)) (*aa.Side, *AAShare, error) {
		for k := range readers {
			base := done
			readers[k].onRead = func(d, _ int64) { progress(base+d, total) }
			done += readers[k].size
		}
		rs := make([]io.Reader, len(readers))
		for k, r := range readers {
			rs[k] = r
		}
		side, err := readRunFiles(names, rs)
		return side, nil, err
	})
}

// readRunFiles reads test reports or eval logs, each one run of the side
// named after its file (a second file of the same name gets "#2"), into
// the side's statistics.
func readRunFiles(names []string, files []io.Reader) (*aa.Side, error) {
	l := ledger.New()
	taken := map[string]int{}
	for k, r := range files {
		br := newPeekReader(r)
		br.fill(64 << 10)
		if report.DetectFormat(br.buf) == "" {
			return nil, core.WithFile(errors.New("several files are read as one run each, so each must be a test report or an eval log; an A/A CSV holds every run and goes alone"), names[k])
		}
		run := names[k]
		if n := taken[run]; n > 0 {
			run += "#" + strconv.Itoa(n+1)
		}
		taken[names[k]]++
		if err := report.Read(br, report.Options{Run: run, Arm: ledger.ArmBaseline}, l); err != nil {
			return nil, core.WithFile(err, names[k])
		}
	}
	return aa.FromLedger(l, ledger.ArmBaseline)
}

// shortList names up to three items, then how many more.
func shortList(items []string) string {
	if len(items) <= 3 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:3], ", ") + " and " + words.Count(int64(len(items)-3)) + " more"
}

// parse runs read off the UI goroutine for side i, showing its progress,
// and installs what it gives unless newer input came meanwhile.
func (c *AA) parse(ctx app.Context, i int, name string, size int64, read func(progress func(done, total int64)) (*aa.Side, *AAShare, error)) {
	c.linkErr = nil
	c.sides[i].gen++
	gen := c.sides[i].gen
	c.sides[i] = side{name: name, busy: true, total: size, gen: gen}
	ctx = c.own(ctx)
	start := time.Now()
	progress := func(done, total int64) {
		ctx.Dispatch(func(ctx app.Context) {
			if c.sides[i].gen == gen {
				c.sides[i].done, c.sides[i].total = done, total
			}
		})
	}
	ctx.Async(func() {
		stats, share, err := read(progress)
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
			c.SetSide(ctx, i, stats, err)
		})
	})
}
