package page

import (
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/param"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// historyOptionKeys are the history's options the page offers: every
// field of param.History.
func historyOptionKeys() []string {
	keys := make([]string, len(param.History.Fields))
	for i, f := range param.History.Fields {
		keys[i] = f.Key
	}
	return keys
}

func newHistoryOptions() optionsForm[history.Options] {
	return newOptionsForm(param.History, historyOptionKeys(), history.Options.Check)
}

// HistoryOptionsFrom reads the history page's Options as typed, each field
// by its key (one without text at its start), as the page does: the
// options, or a param.Errors with each field's fault (history.Options'
// check included).
func HistoryOptionsFrom(text map[string]string) (history.Options, error) {
	o := newHistoryOptions()
	return o.read(text)
}

// ensureOptions starts the options at their defaults.
func (h *History) ensureOptions() {
	if h.opts.schema == nil {
		h.opt = history.DefaultOptions
		h.opts = newHistoryOptions()
		h.opts.show(h.opt)
	}
}

// onExample shows the example's runs under the options.
func (h *History) onExample(ctx app.Context, e app.Event) {
	runs, err := exampleHistory()
	h.gen++
	h.linkErr, h.busy, h.name, h.replay, h.storeAddr = nil, false, "example", exampleReplay, ""
	h.compute(runs, err)
	h.writeURL(ctx)
}

// compute shows the result of runs (read with err) under the options.
func (h *History) compute(runs *history.History, err error) {
	h.ensureOptions()
	h.runs, h.err = runs, err
	var res *history.Result
	if err == nil && h.opts.err == nil {
		res, h.err = runs.Result(h.opt)
	}
	h.show(res)
}

// SetOption sets one option as typed: the result of the runs on the page
// follows it when every option reads, and so does the link; a refused one
// is shown at its field with no figure beside it.
func (h *History) SetOption(ctx app.Context, key, value string) {
	h.ensureOptions()
	if opt, ok := h.opts.set(key, value); ok {
		h.opt = opt
	}
	if h.runs != nil {
		h.compute(h.runs, nil)
		h.writeURL(ctx)
	}
}

// renderOptions is the history's Options section. A link's result holds
// the answer and not the runs, so its options cannot change it: the
// section says so, and the options typed apply to the reports dropped.
func (h *History) renderOptions() app.UI {
	h.ensureOptions()
	var note app.UI
	if h.runs == nil && h.res != nil {
		note = app.P().Class("hint").ID("options-link-note").Text("This link holds the answer, not the reports: drop the reports to compute them with other options.")
	}
	return h.opts.render("history-options", h.err, note, h.SetOption)
}
