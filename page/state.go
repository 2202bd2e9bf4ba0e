package page

import (
	"net/url"
	"strings"

	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/share"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A view's state is a set of named text fields, written to the URL fragment
// as a query string ("target=0.95&cap=3"). Keys are sorted by url.Values, so
// the same state is always the same link.

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
// fragment: the state behind the budget and decide pages.
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

// keepInURL writes the view's state, an escaped fragment, into the address
// bar once the browser has painted the new figures: replaceState costs 3–5
// ms that a keystroke's frame should not wait for (go-app's ctx.Defer runs
// in the same task as the update, before the paint). Writes asked for
// before that paint are folded into the last one. Natively the URL is
// written at once.
func keepInURL(ctx app.Context, escaped string) {
	page := ctx.Page()
	u := withFragment(page.URL(), escaped)
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

// withFragment returns a copy of u with its fragment set to an already
// escaped fragment.
func withFragment(u *url.URL, escaped string) *url.URL {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	if escaped == "" {
		return &c
	}
	if f, err := url.Parse("#" + escaped); err == nil {
		c.Fragment, c.RawFragment = f.Fragment, f.RawFragment
	}
	return &c
}

// fragmentOf is u's fragment in escaped form, as the page wrote it.
func fragmentOf(u *url.URL) string {
	if u == nil {
		return ""
	}
	return strings.TrimPrefix(u.EscapedFragment(), "#")
}

// openingFragment is the fragment the page was opened with, natively "".
// Components read it in their first Render: go-app mounts a page (replacing
// the pre-rendered HTML) before it calls OnNav, so a page that waited for
// OnNav would build its DOM twice, first with the defaults, and show a share
// link's figures only a render later. OnNav then finds the same fragment
// and has nothing to do.
func openingFragment() string {
	if !app.IsClient {
		return ""
	}
	return fragmentOf(app.Window().URL())
}
