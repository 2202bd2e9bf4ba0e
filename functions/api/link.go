package api

import (
	"net/http"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// Every result carries link, the address of the calculator view that
// reproduces it (package share), and link_note when that link leaves part
// of the state out. The calculator is served beside the API (the local
// server, the Worker), so the link is on the request's own origin unless
// Options.Site names another; Options.NoLinks leaves links out (AWS Lambda
// serves no calculator).

// site is the calculator's address for links in the answer to r, "" for
// none. The origin is the request's Host, taken only when it is a plain
// host name or address with an optional port, and its scheme: https when
// the request came over TLS, or, with Options.ForwardedProto, when the
// proxy in front (which sets the header) says so; http otherwise.
func (h *handler) site(r *http.Request) string {
	if h.opt.NoLinks {
		return ""
	}
	if h.opt.Site != "" {
		return h.opt.Site
	}
	if !plainHost(r.Host) {
		return ""
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if h.opt.ForwardedProto {
		switch p := r.Header.Get("X-Forwarded-Proto"); p {
		case "http", "https":
			scheme = p
		}
	}
	site, err := share.ParseSite(scheme + "://" + r.Host)
	if err != nil {
		return ""
	}
	return site
}

// plainHost reports whether host is a host name, an IPv4 address or a
// bracketed IPv6 address, with an optional port: nothing a link could be
// bent with.
func plainHost(host string) bool {
	if host == "" || len(host) > 255 {
		return false
	}
	for _, c := range host {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '.', c == ':', c == '[', c == ']':
		default:
			return false
		}
	}
	return true
}

// addLink sets the link of a budget, decide, sizing or freeze result,
// whose view its own figures give.
func (h *handler) addLink(r *http.Request, res any) {
	site := h.site(r)
	if site == "" {
		return
	}
	switch x := res.(type) {
	case *gate.BudgetResult:
		words.SetLink(share.BudgetOf(x), site, &x.Link, &x.LinkNote)
	case *gate.DecideResult:
		words.SetLink(share.DecideOf(x), site, &x.Link, &x.LinkNote)
	case *gate.SizeResult:
		words.SetLink(share.SizeOf(x), site, &x.Link, &x.LinkNote)
	case *gate.FreezeResult:
		words.SetLink(share.FreezeOf(x), site, &x.Link, &x.LinkNote)
	case *quarantine.CleanRunsResult:
		x.Link = words.LinkOf(share.CleanRunsOf(x), site).URL
	}
}

// addQuarantineLink sets the link of a registry's check: the quarantine
// view with what the check was made of.
func (h *handler) addQuarantineLink(r *http.Request, res *quarantine.Result, st share.QuarantineState) error {
	site := h.site(r)
	if site == "" {
		return nil
	}
	v, err := share.Quarantine(res.Today, st)
	if err != nil {
		return err
	}
	words.SetLink(v, site, &res.Link, &res.LinkNote)
	return nil
}

// addLedgerLink sets the link of a ledger's verdicts: the decide view with
// the ledger's summary.
func (h *handler) addLedgerLink(r *http.Request, res *ledger.Result, l *ledger.Ledger, opt ledger.Options) error {
	site := h.site(r)
	if site == "" {
		return nil
	}
	v, err := share.Ledger(l.Summary(), opt)
	if err != nil {
		return err
	}
	words.SetLink(v, site, &res.Link, &res.LinkNote)
	return nil
}

// addFlakesLink sets the links of flaky tests' budgets: each budget's own,
// and the budget view of all of them.
func (h *handler) addFlakesLink(r *http.Request, res *ledger.FlakesResult) {
	site := h.site(r)
	if site == "" {
		return
	}
	if v, ok := share.FlakesOf(res); ok {
		words.SetLink(v, site, &res.Link, &res.LinkNote)
	}
	for _, f := range res.Flakes {
		words.SetLink(share.BudgetOf(f.Budget), site, &f.Budget.Link, &f.Budget.LinkNote)
	}
}

// addAALink sets the link of an A/A check: its statistics, and a note when
// the calculator would show them otherwise (other options, or the
// reports' reading notes among the warnings).
func (h *handler) addAALink(r *http.Request, res *aa.Result, base, cand *aa.Side, opt aa.Options, notes bool) error {
	site := h.site(r)
	if site == "" {
		return nil
	}
	v, err := share.AA(base, cand, opt)
	if err != nil {
		return err
	}
	link := words.AALink(v, site, opt, notes)
	res.Link, res.LinkNote = link.URL, link.Note
	return nil
}
