package page

import (
	"github.com/flakegate/flakegate/core/param"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// aaOptionKeys are the A/A check's options the page offers: every field
// of param.AA but the simulation's (simulate, sets, sim_k, sim_drop,
// broken), which the page does not run (AA.options): a link that asks for
// it keeps asking, for the CLI and the API.
var aaOptionKeys = []string{"k", "drops", "rule", "seed"}

func newAAOptions() optionsForm[param.AAInput] { return newOptionsForm(param.AA, aaOptionKeys, nil) }

// AAOptionsFrom reads the A/A page's Options as typed, each field by its
// key (one without text at its start), as the page does: the options, or
// a param.Errors with each field's fault.
func AAOptionsFrom(text map[string]string) (param.AAInput, error) {
	o := newAAOptions()
	return o.read(text)
}

// showOptions sets the Options section to the options the figures are
// computed with: the link's or the file's, else the defaults.
func (c *AA) showOptions() {
	c.opts = newAAOptions()
	c.opts.show(c.input())
}

// SetOption sets one option as typed: the figures follow it when every
// option reads, the link carries it, and a refused one is shown at its
// field with no figure beside it.
func (c *AA) SetOption(ctx app.Context, key, value string) {
	if c.opts.schema == nil {
		c.showOptions()
	}
	if in, ok := c.opts.set(key, value); ok {
		if c.in != nil {
			// The simulation a link asked for stays asked for.
			in.Simulate, in.Sim = c.in.Simulate, c.in.Sim
		}
		c.in = &in
	}
	c.compute()
	c.writeURL(ctx)
	c.deepen(ctx)
}

// renderOptions is the A/A check's Options section.
func (c *AA) renderOptions() app.UI {
	if c.opts.schema == nil {
		c.showOptions()
	}
	var note app.UI
	if c.in != nil && c.in.Simulate {
		note = app.P().Class("hint").ID("options-sim-note").Text("This link also asks for the gate simulation, which takes seconds of CPU and runs in the CLI (flakegate aa -simulate) and the API, not here; the link keeps asking for it.")
	}
	return c.opts.render("aa-options", c.err, note, c.SetOption)
}
