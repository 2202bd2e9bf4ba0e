package page

import (
	"os"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A link carries the view's state in its query string (the default, which
// reaches the server) or in its fragment (a private link); the page reads
// either, and the fragment wins when a URL holds both. The expected texts
// are the links written by hand from share.Form's format.
func TestLinkForms(t *testing.T) {
	for _, c := range []struct{ url, state string }{
		{"https://x.test/decide?baseline=12%2F20&patched=19%2F20&v=2", "baseline=12%2F20&patched=19%2F20&v=2"},
		{"https://x.test/decide#baseline=12%2F20&patched=19%2F20&v=2", "baseline=12%2F20&patched=19%2F20&v=2"},
		// Both: the fragment, which no server saw, is the link's state.
		{"https://x.test/decide?baseline=1%2F2&v=2#baseline=12%2F20&v=2", "baseline=12%2F20&v=2"},
		// An empty fragment is no fragment.
		{"https://x.test/decide?cap=5#", "cap=5"},
		{"https://x.test/decide", ""},
	} {
		u := mustURL(t, c.url)
		if got := fragmentOf(u); got != c.state {
			t.Errorf("%s: state %q, want %q", c.url, got, c.state)
		}
	}

	u := mustURL(t, "https://x.test/decide?old=1#older=2")
	const state = "baseline=12%2F20&patched=19%2F20&v=2"
	if got := withState(u, state, false).String(); got != "https://x.test/decide?"+state {
		t.Errorf("query link %q", got)
	}
	if got := withState(u, state, true).String(); got != "https://x.test/decide#"+state {
		t.Errorf("private link %q", got)
	}
	if got := withState(u, "", false).String(); got != "https://x.test/decide" {
		t.Errorf("no state gave %q", got)
	}
	// Natively the page writes query links.
	useLinks(t, linkUnset)
	if privateLinks() {
		t.Error("natively the page writes private links; want query links")
	}
}

// TestMain runs the package's tests with private (fragment) links, the form
// most of them read back; TestQueryLinks checks the query form, the
// browser's default for a page opened without a fragment.
func TestMain(m *testing.M) {
	linkMode = linkPrivate
	os.Exit(m.Run())
}

// useLinks sets the link mode for t, and back to TestMain's private links
// once it ends.
func useLinks(t *testing.T, mode int) {
	linkMode = mode
	t.Cleanup(func() { linkMode = linkPrivate })
}

// A budget typed with query links writes its state into the query string
// only, and a fresh page opened on that link shows the same figures
// (gate.Budget of the same inputs, the independent reference the other
// page tests use).
func TestQueryLinks(t *testing.T) {
	useLinks(t, linkQuery)
	c, e := newPage[budgetT](t)
	typeInto(t, e, c, "cap", "5", "observe", "1/120")
	u := c.ctx.Page().URL()
	if u.EscapedFragment() != "" || !strings.Contains(u.RawQuery, "cap=5") || !strings.Contains(u.RawQuery, "observe=1%2F120") {
		t.Fatalf("URL after typing = %s; want the state in the query string only", u)
	}
	want, err := gate.Budget(gate.BudgetInput{Target: 0.95, Cap: 5, Confidence: 0.95,
		Rates: []float64{0.05, 0.02, 0.01}, Observed: &core.Count{Passed: 1, Trials: 120}})
	if err != nil {
		t.Fatal(err)
	}
	d := &budgetT{}
	e2 := reopen(t, d, u)
	checkPage(t, d, "", want)

	// The same state as a private link: the fragment, and no query.
	linkMode = linkPrivate
	typeInto(t, e2, d, "cap", "5")
	if p := d.ctx.Page().URL(); p.RawQuery != "" || p.EscapedFragment() != u.RawQuery {
		t.Errorf("private link %s; want #%s", p, u.RawQuery)
	}
}

// The Share section offers a private link and says what each form sends to
// whom; ticking it moves the view's state from the query string into the
// fragment, and unticking moves it back.
func TestPrivateLinkBox(t *testing.T) {
	useLinks(t, linkQuery)
	c, e := newPage[budgetT](t)
	typeInto(t, e, c, "cap", "5")
	html := app.HTMLString(c)
	if !strings.Contains(html, `id="private-link"`) || !strings.Contains(html, "sent to the server of this site") {
		t.Fatalf("no private-link box saying what a query link sends:\n%s", html)
	}
	state := c.ctx.Page().URL().RawQuery
	setPrivateLinks(c.ctx, true)
	settle(e, c.ctx)
	if u := c.ctx.Page().URL(); u.RawQuery != "" || u.EscapedFragment() != state {
		t.Errorf("private: %s; want #%s", u, state)
	}
	if html := app.HTMLString(c); !strings.Contains(html, "never send to a server") {
		t.Error("the private link's note does not say its inputs stay in the browser")
	}
	setPrivateLinks(c.ctx, false)
	settle(e, c.ctx)
	if u := c.ctx.Page().URL(); u.RawQuery != state || u.EscapedFragment() != "" {
		t.Errorf("back to a query link: %s; want ?%s", u, state)
	}
}

func TestFragmentState(t *testing.T) {
	s := newFormState(budgetFields)
	if f := s.fragment(budgetFields); f != "cap=3&confidence=0.95&rates=0.05%2C0.02%2C0.01&target=0.95&v=2" {
		t.Errorf("defaults give fragment %q, want every input with text and the version", f)
	}
	s["rates"] = "0.05, 0.02"
	s["observe"] = "1/120"
	s["cost"] = ""
	s["target"] = ""
	frag := s.fragment(budgetFields)
	// url.Values sorts keys: the same state is always the same link.
	if frag != "cap=3&confidence=0.95&observe=1%2F120&rates=0.05%2C+0.02&v=2" {
		t.Errorf("fragment %q", frag)
	}
	back := applyFragment(budgetFields, frag)
	for k, v := range s {
		if back[k] != v {
			t.Errorf("%s: %q after the round trip, want %q", k, back[k], v)
		}
	}
	// Through a URL, as the browser holds it, in either form.
	u := mustURL(t, "http://127.0.0.1:8080/")
	for _, private := range []bool{false, true} {
		u2 := mustURL(t, withState(u, frag, private).String())
		if got := applyFragment(budgetFields, fragmentOf(u2)); got["rates"] != "0.05, 0.02" || (u2.RawQuery == "") != private {
			t.Errorf("through a URL (private %v): %v (query %q, fragment %q)", private, got, u2.RawQuery, u2.EscapedFragment())
		}
	}
	// Junk in a fragment is ignored, not fatal.
	if got := applyFragment(budgetFields, "%zz&cap=7&unknown=1"); got["cap"] != "7" || got["target"] != "0.95" {
		t.Errorf("junk fragment gave %v", got)
	}
}
