package page

import (
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// worstSentence names the flaky test that fails most often: "The worst,
// T, fails 4.1% of its runs (95% interval 2.0% to 7.9%)."
func worstSentence(r *history.Result) string {
	f := r.Flakes[0]
	return "The worst, " + f.Test + ", fails " + words.Percent(f.Rate) + " of its runs (" + words.Fraction(f.Failures, f.Runs) +
		"; " + words.Level(r.Confidence) + " interval " + words.Percent(f.Lower) + " to " + words.Percent(f.Upper) + ")."
}

// renderPicture is the picture of the runs, with what it leaves out and
// how to read it; a note when the runs cannot be replayed (reports
// dropped, a link's answer), and nothing before a result.
func (h *History) renderPicture() app.UI {
	switch {
	case h.plotErr != nil:
		return app.P().Class("error").ID("timeline-error").Text("No picture: " + errString(h.plotErr))
	case h.tl == nil:
		return app.P().Class("hint").ID("timeline-none").Text("The picture of each run's failures is drawn from a history store or the example; the reports dropped give the tables below.")
	case len(h.tl.Rows) == 0:
		return app.P().Class("hint").ID("timeline-none").Text("No picture: no test is flaky or broken in these runs.")
	}
	return app.Figure().ID("timeline").Body(
		app.Raw(h.plot),
		app.Raw(h.plotSm),
		app.FigCaption().Class("hint").Body(
			app.Text(timelineLegend(h.tl)),
			app.If(h.tl.LeftOut() != "", func() app.UI { return app.P().ID("timeline-left-out").Text(h.tl.LeftOut()) }),
		),
	)
}
