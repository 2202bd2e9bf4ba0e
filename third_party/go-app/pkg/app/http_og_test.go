//go:build !wasm

package app

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestOpenGraphAddressesNeedADomain: og:url and og:image are absolute
// addresses (the Open Graph protocol, ogp.me: "og:url - The canonical URL
// of your object"), so a page served without a Domain has neither rather
// than "https://" and "https:///web/card.png"; with one, both are the
// domain's, and a remote image is written as given.
func TestOpenGraphAddressesNeedADomain(t *testing.T) {
	serve := func(h *Handler) string {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
		if w.Code != http.StatusOK {
			t.Fatalf("status %d", w.Code)
		}
		head, _, _ := strings.Cut(w.Body.String(), "</head>")
		return head
	}
	for _, c := range []struct {
		domain, image string
		want, absent  []string
	}{
		{"", "", nil, []string{`property="og:url"`, `property="og:image"`}},
		{"", "/web/card.png", nil, []string{`property="og:url"`, `property="og:image"`}},
		{"", "https://cdn.example/card.png", []string{`content="https://cdn.example/card.png" property="og:image"`}, []string{`property="og:url"`}},
		{"flakegate.example", "", []string{`content="https://flakegate.example" property="og:url"`}, []string{`property="og:image"`}},
		{"flakegate.example", "/web/card.png", []string{`content="https://flakegate.example" property="og:url"`, `content="https://flakegate.example/web/card.png" property="og:image"`}, nil},
	} {
		head := serve(&Handler{Title: "t", Domain: c.domain, Image: c.image})
		for _, w := range c.want {
			if !strings.Contains(head, w) {
				t.Errorf("domain %q, image %q: no %s in\n%s", c.domain, c.image, w, head)
			}
		}
		for _, a := range c.absent {
			if strings.Contains(head, a) {
				t.Errorf("domain %q, image %q: %s in\n%s", c.domain, c.image, a, head)
			}
		}
	}
}
