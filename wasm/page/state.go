package page

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A view's state is a set of named text fields, written into the URL's
// query string or fragment (see keepInURL) in a query string's form
// ("target=0.95&cap=3"). Keys are sorted by url.Values, so the same state is
// always the same link.

// field is one input of a form: its key in the fragment, the label shown,
// and the default text.
type field struct {
	Key     string
	Label   string
	Default string
	Hint    string
	// Mode is the input's inputmode, the keyboard a phone shows: "decimal"
	// or "numeric" for a plain number; "" (the full keyboard) for text
	// with "/", "," or "%", which a number pad may lack.
	Mode string
}

// formFields are a form's fields: one for each of a calculator's inputs
// (param.Field), in its order, starting from starts (param's Starts), with
// the page's label, hint and keyboard from page.
func formFields(inputs []param.Field, starts map[string]string, page map[string]field) []field {
	out := make([]field, len(inputs))
	for i, in := range inputs {
		f := page[in.Key]
		f.Key, f.Default = in.Key, starts[in.Key]
		out[i] = f
	}
	return out
}

// formState is the text of each field of a form, as typed.
type formState map[string]string

func newFormState(fields []field) formState {
	s := formState{}
	for _, f := range fields {
		s[f.Key] = f.Default
	}
	return s
}

// fragment encodes the form as share.Form does for the CLI's and the API's
// links: every field with text, and the format's version.
func (s formState) fragment(fields []field) string {
	return share.Form(share.FormFields(keys(fields)...), s)
}

// applyFragment reads the fields from a fragment of any version
// (share.ReadForm): links handed out before links carried a version open
// with the defaults of that time. Unknown keys and undecodable pairs are
// ignored.
func applyFragment(fields []field, frag string) formState {
	return share.ReadForm(share.FormFields(keys(fields)...), frag)
}

func keys(fields []field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Key
	}
	return out
}

// urlForm is a calculator's inputs as typed, kept in step with the URL
// fragment: the state behind the budget, decide and quarantine pages.
type urlForm struct {
	st   formState
	frag string // the fragment st was read from or written to
}

// load reads the form from frag unless it holds that fragment already, and
// reports whether it changed.
func (f *urlForm) load(fields []field, frag string) bool {
	if f.st != nil && frag == f.frag {
		return false
	}
	f.frag, f.st = frag, applyFragment(fields, frag)
	return true
}

// set sets one input, as if typed, and returns the fragment that now
// describes the form.
func (f *urlForm) set(fields []field, key, value string) string {
	if f.st == nil {
		f.st = newFormState(fields)
	}
	f.st[key] = value
	f.frag = f.st.fragment(fields)
	return f.frag
}

// nav is a form page's OnNav: it reads the form from the URL, opens a
// state that changed (open: the form, what else the link carries, and the
// figures), and titles the page.
func (f *urlForm) nav(ctx app.Context, fields []field, title string, open func(frag string)) {
	perfMark("nav")
	defer perfMark("nav-done")
	if frag := fragmentOf(ctx.Page().URL()); f.load(fields, frag) {
		open(frag)
	}
	ctx.Page().SetTitle(title)
}

// opening is a form page's first step in Render: the first render opens
// the state the page was opened with (see openingFragment).
func (f *urlForm) opening(open func(frag string)) {
	perfMark("render")
	if f.st == nil {
		open(openingFragment())
	}
}

// inputs renders a calculator's form, id: each field an input, or a select
// where choices names its options, with the text typed and err's fault at
// it; what is typed goes to set. A field custom renders (non-nil; custom
// may be nil) is shown that way instead.
func (f *urlForm) inputs(id string, fields []field, err error, choices map[string][]choice,
	set func(ctx app.Context, key, value string), custom func(i int, fl field) app.UI) app.UI {
	return app.Form().Class("calc").ID(id).OnSubmit(preventSubmit).Body(
		app.Range(fields).Slice(func(i int) app.UI {
			fl := fields[i]
			if custom != nil {
				if ui := custom(i, fl); ui != nil {
					return ui
				}
			}
			typed := func(ctx app.Context, e app.Event) { set(ctx, fl.Key, ctx.JSSrc().Get("value").String()) }
			if opts, ok := choices[fl.Key]; ok {
				return selectField(fl, f.st[fl.Key], opts, fieldError(err, fl.Key), typed)
			}
			return fieldInput(fl, f.st[fl.Key], fieldError(err, fl.Key), typed)
		}),
	)
}

// formExample is the fragment of a form at its defaults but for the
// fields set names: an example's link, holding its case like any typed
// input.
func formExample(fields []field, set map[string]string) string {
	st := newFormState(fields)
	for k, v := range set {
		st[k] = v
	}
	return st.fragment(fields)
}

// openShared reads the value a fragment carries under key (a dropped
// file's state: "ledger", "registry") with decode: the zero value and ""
// when there is none; else the value and its text, or an error saying
// that this link's value could not be read.
func openShared[T any](frag, key string, decode func(string) (T, error)) (v T, enc string, err error) {
	q, _ := url.ParseQuery(frag)
	enc = q.Get(key)
	if enc == "" {
		return v, "", nil
	}
	got, err := decode(enc)
	if err != nil {
		return v, "", fmt.Errorf("this link's %s could not be read: %w", key, err)
	}
	return got, enc, nil
}

// fitLink is where a dropped file's encoded state enc (encoding error err)
// goes under key: into the link when "key=enc" fits in one
// (MaxShareFragment), else nowhere, with long its length in bytes for the
// page's note. An encoding error puts nothing in the link and notes
// nothing.
func fitLink(key, enc string, err error) (linked string, long int) {
	switch {
	case err != nil:
		return "", 0
	case len(enc)+len(key+"=") > MaxShareFragment:
		return "", len(enc)
	}
	return enc, 0
}

// Where a link carries the view's state. By default it is the query string
// (/decide?baseline=12%2F20&patched=19%2F20&v=2): the link reaches the
// server, which can render its answer into the page it sends, so the link
// opens on its answer and a chat's preview shows it. A private link keeps
// it in the fragment (/decide#baseline=…), which a browser never sends to
// any server: the link opens only once the calculator has computed it,
// offline too. Both hold the same text (share.Form), read the same way;
// when a URL has both, the fragment wins, since only the browser could
// have put it there and the server never saw it. The page writes the form
// it was opened with: a fragment link stays private until the person
// chooses otherwise (privateLinkBox).

// linkMode is where the page writes the state: linkUnset until the first
// write, then linkQuery or linkPrivate.
var linkMode int

const (
	linkUnset = iota
	linkQuery
	linkPrivate
)

// privateLinks reports whether the page writes private (fragment) links:
// the choice made in this tab, else the form of the link it was opened
// with.
func privateLinks() bool {
	if linkMode == linkUnset {
		linkMode = linkQuery
		if app.IsClient {
			if u := app.Window().URL(); u != nil && u.EscapedFragment() != "" {
				linkMode = linkPrivate
			}
		}
	}
	return linkMode == linkPrivate
}

// keepInURL writes the view's state, an escaped state text (share.Form's),
// into the address bar as the query string, or as the fragment for a
// private link, once the browser has painted the new figures: replaceState
// costs 3–5 ms that a keystroke's frame should not wait for (go-app's
// ctx.Defer runs in the same task as the update, before the paint). Writes
// asked for before that paint are folded into the last one. Natively the
// URL is written at once.
func keepInURL(ctx app.Context, escaped string) {
	page := ctx.Page()
	u := withState(page.URL(), escaped, privateLinks())
	if !app.IsClient {
		page.ReplaceURL(u)
		return
	}
	scheduled := pendingURL != nil
	pendingURL = u
	if scheduled {
		return
	}
	// The write runs in the timer's JavaScript callback, not through
	// ctx.Dispatch, which would render the page again for nothing.
	afterPaintJS(func() {
		u := pendingURL
		pendingURL = nil
		if cur := page.URL(); cur != nil && cur.Path != u.Path {
			return // the app moved to another page meanwhile
		}
		page.ReplaceURL(u)
	})
}

// pendingURL is the address keepInURL will write after the next paint; nil
// when no write is scheduled.
var pendingURL *url.URL

// withState returns a copy of u holding an already escaped state text in
// its query string, or in its fragment when private; the other part is
// emptied, so a link holds its state once.
func withState(u *url.URL, escaped string, private bool) *url.URL {
	c := *u
	c.Fragment, c.RawFragment, c.RawQuery, c.ForceQuery = "", "", "", false
	if escaped == "" {
		return &c
	}
	if !private {
		c.RawQuery = escaped
		return &c
	}
	if f, err := url.Parse("#" + escaped); err == nil {
		c.Fragment, c.RawFragment = f.Fragment, f.RawFragment
	}
	return &c
}

// fragmentOf is the state text u carries, in escaped form, as the page
// wrote it: its fragment, or when it has none, its query string. (The
// page calls a view's state text its fragment wherever it sits.)
func fragmentOf(u *url.URL) string {
	if u == nil {
		return ""
	}
	if f := strings.TrimPrefix(u.EscapedFragment(), "#"); f != "" {
		return f
	}
	return u.RawQuery
}

// openingFragment is the state text the page was opened with (fragmentOf
// its URL), natively "". Components read it in their first Render: go-app
// mounts a page (replacing the pre-rendered HTML) before it calls OnNav, so
// a page that waited for OnNav would build its DOM twice, first with the
// defaults, and show a share link's figures only a render later. On a
// query link the server rendered, that first render is the server's
// figures again, so taking over its page changes nothing that is seen.
// OnNav then finds the same state and has nothing to do.
func openingFragment() string {
	if !app.IsClient {
		return ""
	}
	return fragmentOf(app.Window().URL())
}
