package page

import (
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// pageBase is embedded by every page component: it holds the
// reload-banner state and the status line of the copy buttons.
type pageBase struct {
	app.Compo
	updateReady bool
	status      string
	// noLink, when set, says why the address bar cannot hold the view
	// (too long a link); Copy link shows it instead of copying.
	noLink string
}

// OnAppUpdate is called by go-app when the service worker installed a newer
// build (Handler.Version changed): show the reload banner.
func (p *pageBase) OnAppUpdate(ctx app.Context) {
	p.updateReady = ctx.AppUpdateAvailable()
}

// OnMount catches an update found before this page mounted.
func (p *pageBase) OnMount(ctx app.Context) {
	p.updateReady = ctx.AppUpdateAvailable()
}

var navItems = []struct{ path, label string }{
	{"/", "Rerun budget"},
	{"/decide", "Two-arm verdict"},
	{"/aa", "A/A noise check"},
	{"/quarantine", "Quarantine"},
	{"/compare", "Compare models"},
	{"/history", "CI history"},
}

// shell lays out a page: header with navigation, the update
// banner, the page's content and a footer with the build version.
func (p *pageBase) shell(active, title, intro string, content ...app.UI) app.UI {
	return app.Div().Class("page").Body(
		// A button, not a link to "#main": the fragment holds the view's
		// state, and a link would replace it.
		app.Button().Type("button").Class("skip", "secondary").ID("skip").Text("Skip to the calculator").
			OnClick(func(ctx app.Context, e app.Event) {
				if m := app.Window().GetElementByID("main"); m.Truthy() {
					m.Call("focus")
				}
			}),
		app.Header().Class("top").Body(
			app.A().Class("brand").Href("/").Text("flakegate"),
			app.Nav().Aria("label", "Calculators").Body(
				app.Range(navItems).Slice(func(i int) app.UI {
					it := navItems[i]
					a := app.A().Href(it.path).Text(it.label)
					if it.path == active {
						a = a.Aria("current", "page").Class("current")
					}
					return a
				}),
			),
		),
		app.If(p.updateReady, func() app.UI {
			return app.Div().Class("banner").Role("alert").Body(
				app.Span().Text("A new version of flakegate is ready. "),
				app.Button().ID("reload").Text("Reload").OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
			)
		}),
		p.main(title, intro, content),
		app.Footer().Body(
			app.Text("What you type is computed in this page and sent nowhere; a link sends its inputs to this site when it is opened, unless it is a private link. Build "),
			app.Code().ID("version").Text(buildVersion()),
		),
	)
}

// main is the page's <main>. Pre-rendered (natively) it is marked
// data-prerendered and holds exampleNote: until the calculator has
// computed a link the server did not render, the pre-rendered figures are
// someone else's (the built-in example's), and web/first.js and
// web/flakegate.css hide them behind that note. The client's render, which
// replaces this DOM once the link is computed, has neither.
func (p *pageBase) main(title, intro string, content []app.UI) app.UI {
	m := app.Main().ID("main").TabIndex(-1)
	if !app.IsClient {
		m = m.DataSet("prerendered", "yes")
	}
	return m.Body(
		app.H1().Text(title),
		app.P().Class("intro").Text(intro),
		app.If(!app.IsClient, func() app.UI {
			return app.P().ID("example-note").Class("example-note").Role("status").Text(exampleNote)
		}),
		app.Div().Class("view").Body(content...),
	)
}

// exampleNote stands, while the calculator loads, where a link's figures
// will be, over the pre-rendered example's, which are hidden.
const exampleNote = "Loading the calculator… This link's figures appear here once it has computed them. " +
	"The pre-rendered figures of the built-in example are hidden meanwhile, so that they are not taken for this link's."

func buildVersion() string {
	if v := app.Getenv("GOAPP_VERSION"); v != "" {
		return v
	}
	return "dev"
}

// statusLine is the polite live region the copy buttons report into.
func (p *pageBase) statusLine() app.UI {
	return app.P().Class("status").ID("status").Role("status").Aria("live", "polite").Text(p.status)
}

// cardCells makes the cells of a table whose rows are cards on a phone:
// cell col is labelled with its column's heading, cols[col], which the
// phone shows as the line's label, and has class unless it is "".
func cardCells(cols []string) func(col int, class string, body ...app.UI) app.UI {
	return func(col int, class string, body ...app.UI) app.UI {
		td := app.Td().DataSet("label", cols[col])
		if class != "" {
			td = td.Class(class)
		}
		return td.Body(body...)
	}
}

// shareSection is a result's Share section: the copy buttons and the
// Markdown shown for selecting by hand. markdown writes the summary: with
// the page's link (words.Link{URL: …}) for Copy as Markdown, without one
// (words.Link{}) for the Markdown shown.
func (p *pageBase) shareSection(markdown func(words.Link) string) app.UI {
	return app.Section().Class("share-section").Aria("label", "Share").Body(
		app.H2().Text("Share"),
		p.copyButtons(func(link string) string { return markdown(words.Link{URL: link}) }),
		app.Details().Body(app.Summary().Text("Markdown"), app.Pre().ID("markdown").Text(markdown(words.Link{}))),
	)
}

// copyButtons renders Copy-link and Copy-as-Markdown, plus the Markdown in a
// disclosure so it can be selected by hand when the clipboard is refused.
func (p *pageBase) copyButtons(markdown func(link string) string) app.UI {
	return app.Div().Class("share").Body(
		app.Button().ID("copy-link").Text("Copy link").OnClick(func(ctx app.Context, e app.Event) {
			if p.noLink != "" {
				p.status = p.noLink
				return
			}
			copyText(ctx, currentURL(ctx), func(ok bool) { p.setStatus(ctx, ok, "Link copied.") })
		}),
		app.Button().ID("copy-md").Text("Copy as Markdown").OnClick(func(ctx app.Context, e app.Event) {
			copyText(ctx, markdown(currentURL(ctx)), func(ok bool) { p.setStatus(ctx, ok, "Markdown copied.") })
		}),
		p.statusLine(),
		privateLinkBox(),
	)
}

// privateLinkBox lets a person choose where the link keeps the inputs,
// saying what each choice sends to whom (keepInURL): in the query string,
// which reaches the server, or after the "#", which never leaves the
// browser. Changing it rewrites the address bar at once.
func privateLinkBox() app.UI {
	private := privateLinks()
	box := app.Input().Type("checkbox").ID("private-link").Aria("describedby", "private-link-note").
		OnChange(func(ctx app.Context, e app.Event) {
			setPrivateLinks(ctx, ctx.JSSrc().Get("checked").Bool())
		})
	if private {
		// Only when set: a pre-rendered checked="false" would read as checked.
		box = box.Checked(true)
	}
	return app.Div().Class("private-link").Body(
		app.Label().For("private-link").Body(box, app.Text(" Private link")),
		app.Small().ID("private-link-note").Class("hint").Text(linkNote(private)),
	)
}

// linkNote says what a link of the chosen form sends to whom.
func linkNote(private bool) string {
	if private {
		return "The inputs are kept after the “#” of the link, which browsers never send to a server: " +
			"nothing you typed leaves your browser. The link shows its answer once the calculator has loaded, " +
			"and a chat's preview of it shows the page's title only."
	}
	return "The inputs are in the link, so they are sent to the server of this site when the link is opened: " +
		"it puts the answer into the page it sends, so the link opens on its answer and a chat's preview shows it. " +
		"Tick “Private link” to keep them in your browser."
}

// setPrivateLinks switches the form of the page's links and writes the
// view's link in that form into the address bar.
func setPrivateLinks(ctx app.Context, private bool) {
	linkMode = linkQuery
	if private {
		linkMode = linkPrivate
	}
	cur := pendingURL
	if cur == nil {
		cur = ctx.Page().URL()
	}
	keepInURL(ctx, fragmentOf(cur))
}

func (p *pageBase) setStatus(ctx app.Context, ok bool, msg string) {
	if !ok {
		msg = "The browser refused the clipboard: select the text under “Markdown” or the address bar instead."
	}
	p.status = msg
}

// currentURL is the link of the view on the page: the address keepInURL is
// about to write when a write waits for the next paint, else the address
// bar's. A copy made between a keystroke and that paint is the link of
// what the page shows.
func currentURL(ctx app.Context) string {
	if pendingURL != nil {
		return pendingURL.String()
	}
	if u := ctx.Page().URL(); u != nil {
		return u.String()
	}
	return ""
}

// fieldInput renders a labelled text input with its error under it.
func fieldInput(f field, value, errMsg string, onInput app.EventHandler) app.UI {
	id := "in-" + f.Key
	in := app.Input().ID(id).Name(f.Key).Type("text").Value(value).
		Attr("autocomplete", "off").Attr("spellcheck", "false").
		OnInput(onInput)
	if f.Mode != "" {
		in = in.Attr("inputmode", f.Mode)
	}
	describedBy := "hint-" + f.Key
	if errMsg != "" {
		in = in.Aria("invalid", "true")
		describedBy += " err-" + f.Key
	}
	in = in.Aria("describedby", describedBy)
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(f.Label),
		in,
		app.Small().ID("hint-"+f.Key).Class("hint").Text(f.Hint),
		app.If(errMsg != "", func() app.UI {
			return app.P().ID("err-"+f.Key).Class("error").Role("alert").DataSet("error", f.Key).Text(errMsg)
		}),
	)
}

// example is a worked case a page offers: the label of its button and the
// view's fragment, which the page opens as if its link was followed.
type example struct {
	Label string
	Frag  string
}

// examples renders one button per example; a click opens its view and
// writes its link into the address bar.
func examples(items []example, open func(ctx app.Context, frag string)) app.UI {
	return app.Div().Class("examples").Body(
		app.Span().Class("examples-label").Text("Try an example:"),
		app.Range(items).Slice(func(i int) app.UI {
			ex := items[i]
			return app.Button().Type("button").Class("example").ID("example-" + strconv.Itoa(i)).Text(ex.Label).
				OnClick(func(ctx app.Context, e app.Event) { open(ctx, ex.Frag) })
		}),
	)
}

// answerBox shows a result's answer first, in the sentence a reviewer can
// paste, with the sentences that explain it under it. kind is "good"
// (nothing to do), "bad" (the gate blocks) or "note" (neither). The box is
// a polite live region: a screen reader reads the new answer after an
// edit.
func answerBox(id, kind, lead string, more []string) app.UI {
	return app.Div().Class("answer", kind).ID(id).Role("status").Aria("live", "polite").Body(
		app.P().Class("lead").Body(app.Strong().Text(lead)),
		app.If(len(more) > 0, func() app.UI {
			return app.Ul().Body(app.Range(more).Slice(func(i int) app.UI { return app.Li().Text(more[i]) }))
		}),
	)
}

// termList explains the words of the answer and the table beside them,
// each once.
func termList(ts []words.Term) app.UI {
	seen := map[string]bool{}
	var keep []words.Term
	for _, t := range ts {
		if t.Meaning != "" && !seen[t.Word] {
			seen[t.Word] = true
			keep = append(keep, t)
		}
	}
	return app.Details().Class("terms").Open(true).Body(
		app.Summary().Text("What the words mean"),
		app.Dl().Body(app.Range(keep).Slice(func(i int) app.UI {
			return app.Div().Body(app.Dt().Text(capitalize(keep[i].Word)), app.Dd().Text(keep[i].Meaning))
		})),
	)
}

// capitalize upper-cases the first letter of an ASCII sentence.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// plural is noun agreeing with n: "run" for 1, "runs" otherwise.
func plural(n int64, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// choice is an option of a select: its value and its label.
type choice struct{ v, label string }

// selectField renders a labelled select of choices with its error under
// it. A value that is no choice (from a link) is shown, marked, rather
// than a choice the page does not use.
func selectField(f field, cur string, opts []choice, errMsg string, onChange app.EventHandler) app.UI {
	cur = strings.TrimSpace(cur)
	known := false
	for _, o := range opts {
		known = known || o.v == cur
	}
	if !known {
		opts = append(opts[:len(opts):len(opts)], choice{cur, strconv.Quote(cur) + " (not a choice)"})
	}
	id := "in-" + f.Key
	sel := app.Select().ID(id).Name(f.Key).Aria("describedby", "hint-"+f.Key)
	if errMsg != "" {
		sel = sel.Aria("invalid", "true").Aria("describedby", "hint-"+f.Key+" err-"+f.Key)
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(f.Label),
		sel.OnChange(onChange).Body(app.Range(opts).Slice(func(i int) app.UI {
			o := app.Option().Value(opts[i].v).Text(opts[i].label)
			if opts[i].v == cur {
				// Only the chosen option carries the attribute: the
				// pre-rendered page writes selected="false" as selected.
				o = o.Selected(true)
			}
			return o
		})),
		app.Small().ID("hint-"+f.Key).Class("hint").Text(f.Hint),
		app.If(errMsg != "", func() app.UI {
			return app.P().ID("err-"+f.Key).Class("error").Role("alert").DataSet("error", f.Key).Text(errMsg)
		}),
	)
}
