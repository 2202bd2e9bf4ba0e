package page

import (
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/core/param"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// compareOptionKeys are the comparison's options the page offers: every
// field of param.Compare but cluster, the field of a samples file's rows
// that names each question's group. The page reads no groups from the
// logs dropped on it (flakegate compare -cluster does); a link's groups,
// and their name, are kept as the link has them.
var compareOptionKeys = []string{"level", "power", "effect", "max_listed"}

func newCompareOptions() optionsForm[compare.Options] {
	return newOptionsForm(param.Compare, compareOptionKeys, nil)
}

// CompareOptionsFrom reads the compare page's Options as typed, each field
// by its key (one without text at its start), as the page does: the
// options, or a param.Errors with each field's fault.
func CompareOptionsFrom(text map[string]string) (compare.Options, error) {
	o := newCompareOptions()
	return o.read(text)
}

// setOptions computes with opt (a link's, the example's) from now on and
// shows them in the Options section.
func (c *Compare) setOptions(opt compare.Options) {
	c.opt = opt
	c.opts = newCompareOptions()
	c.opts.show(opt)
}

// ensureOptions starts the options at their defaults, before any link,
// example or option typed set them.
func (c *Compare) ensureOptions() {
	if c.opts.schema == nil {
		c.setOptions(compare.DefaultOptions)
	}
}

// SetOption sets one option as typed: the comparison follows it when every
// option reads, and the link carries it; a refused one is shown at its
// field with no figure beside it.
func (c *Compare) SetOption(ctx app.Context, key, value string) {
	c.ensureOptions()
	if opt, ok := c.opts.set(key, value); ok {
		opt.Clusters, opt.ClusterField = c.opt.Clusters, c.opt.ClusterField
		c.opt = opt
	}
	c.compute()
	c.writeURL(ctx)
}

// renderOptions is the comparison's Options section.
func (c *Compare) renderOptions() app.UI {
	c.ensureOptions()
	return c.opts.render("compare-options", c.err, nil, c.SetOption)
}
