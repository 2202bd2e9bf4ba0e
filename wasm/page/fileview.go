package page

import (
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fileView is the link side of a page whose input is files (the A/A
// check, compare, history): the state text it last read from the URL or
// wrote there, and why a link's data could not be read or why the figures
// have no link.
type fileView struct {
	opened  bool   // the URL's state text has been read
	frag    string // the state text last read or written
	linkErr error  // why the link's data could not be read; nil when it could
	tooLong string // why the figures have no link (words.CompareTooLong...); "" when they have one
}

// nav titles the page and opens the URL's state text unless it is the one
// the page shows. A plain address (the menu's link) keeps what the page
// shows (shows), so write puts it in the address bar again.
func (v *fileView) nav(ctx app.Context, title, key string, load func(data string), shows bool, write func(app.Context)) {
	ctx.Page().SetTitle(title)
	if frag := fragmentOf(ctx.Page().URL()); !v.opened || frag != v.frag {
		if !v.openLink(frag, key, load) && shows {
			write(ctx)
		}
	}
}

// openLink marks the state text s read and loads its data, the text of key,
// and reports whether it held some; a state text without them leaves the
// view as it is. load shows the data, or clears the view and sets linkErr
// when it cannot be read, so that no figure of earlier input stands
// beside the link's error.
func (v *fileView) openLink(s, key string, load func(data string)) bool {
	v.opened, v.frag, v.linkErr = true, s, nil
	data := applyFragment([]field{{Key: key}}, s)[key]
	if data == "" {
		return false
	}
	load(data)
	return true
}

// writeLink puts the view of the figures in the address bar, or says why
// a link cannot hold it (tooLong words the bytes it would take); view is
// nil when there are no figures.
func (v *fileView) writeLink(ctx app.Context, p *pageBase, view func() (share.View, error), tooLong func(int) string) {
	p.noLink, v.tooLong = "", ""
	frag := ""
	if view != nil {
		if sv, err := view(); err == nil {
			if sv.Linked() {
				frag = sv.Fragment
			} else {
				v.tooLong = tooLong(sv.LeftBytes)
				p.noLink = "No link copied: " + v.tooLong
			}
		}
	}
	v.frag = frag
	keepInURL(ctx, frag)
}

// link is what the Markdown says of the figures' link: url, or why there
// is none.
func (v *fileView) link(url string) words.Link {
	if v.tooLong != "" {
		return words.Link{Note: v.tooLong}
	}
	return words.Link{URL: url}
}

// tryExample is a file page's example: a button (id) that shows it, and
// a hint that says what it is.
func tryExample(id, hint string, show app.EventHandler) app.UI {
	return app.P().Class("examples").Body(
		app.Button().ID(id).Class("secondary example").Text("Try an example").OnClick(show),
		app.Span().Class("hint").Text(" "+hint),
	)
}

// linkError says that a link's data could not be read, and why.
func (v *fileView) linkError() app.UI {
	return app.If(v.linkErr != nil, func() app.UI {
		return app.P().Class("error").Role("alert").DataSet("error", "link").Text("This link's data could not be read: " + errString(v.linkErr))
	})
}
