package app

// flakegate: Page().ReplaceURL in the browser moves the engine's
// lastVisitedURL along, so navigating back to a replaced URL is not dropped.

import (
	"net/url"
	"testing"
)

// replaceURL calls ReplaceURL on the page the engine gives its components in
// the browser (natively e.page() is the request page).
func replaceURL(e *engineX, raw string) {
	u, _ := url.Parse(raw)
	e.browserPage().ReplaceURL(u)
}

func TestEngineNavigateAfterReplaceURL(t *testing.T) {
	navs := 0
	routes := makeRouter()
	routes.route("/", func() Composer {
		return &navigatorComponent{onNav: func(Context) { navs++ }}
	})
	e := newTestEngine()
	e.routes = &routes
	navigate := func(raw string) {
		u, _ := url.Parse(raw)
		e.Navigate(u, false)
		e.ConsumeAll() // OnNav is dispatched
	}

	navigate("/#a")
	if navs != 1 {
		t.Fatalf("%d nav events after the first navigation, want 1", navs)
	}

	// The app writes its state into the fragment: no navigation, no event,
	// but the engine now knows the address bar shows /#b.
	replaceURL(e, "/#b")
	if navs != 1 {
		t.Fatalf("ReplaceURL sent a nav event")
	}
	if got := e.lastVisitedURL.String(); got != "/#b" {
		t.Fatalf("lastVisitedURL %q after ReplaceURL, want /#b", got)
	}

	// Navigating to the URL the address bar shows is still a no-op.
	navigate("/#b")
	if navs != 1 {
		t.Fatalf("navigating to the current URL sent a nav event")
	}

	// Back to /#a (typed in the address bar): upstream dropped it, as
	// lastVisitedURL was still /#a.
	navigate("/#a")
	if navs != 2 {
		t.Fatalf("%d nav events after navigating back to the replaced URL, want 2", navs)
	}
	if got := e.lastVisitedURL.String(); got != "/#a" {
		t.Fatalf("lastVisitedURL %q, want /#a", got)
	}
	navigate("/#a")
	if navs != 2 {
		t.Fatalf("navigating to the current URL again sent a nav event")
	}
}

// The recorded URL is a copy: the caller may reuse its *url.URL.
func TestEngineReplaceURLRecordsACopy(t *testing.T) {
	e := newTestEngine()
	u, _ := url.Parse("/#b")
	e.browserPage().ReplaceURL(u)
	u.Fragment = "c"
	if got := e.lastVisitedURL.String(); got != "/#b" {
		t.Fatalf("lastVisitedURL %q, want /#b", got)
	}
}
