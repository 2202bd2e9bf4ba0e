package app

// flakegate: engineX.internalURL reads GOAPP_INTERNAL_URLS once.

import (
	"net/url"
	"os"
	"testing"
)

func TestEngineInternalURLsReadOnce(t *testing.T) {
	u, _ := url.Parse("https://example.com/page")
	for _, env := range []string{"", "null", "not json"} {
		t.Run(env, func(t *testing.T) {
			os.Setenv("GOAPP_INTERNAL_URLS", env)
			defer os.Unsetenv("GOAPP_INTERNAL_URLS")
			e := newTestEngine()
			if e.internalURL(u) {
				t.Fatal("internal with no list")
			}
			// Read once: a later change of the variable is not seen, and
			// the list is no longer nil (upstream re-read it on each call).
			if e.internalURLs == nil {
				t.Fatal("the list is still nil after the first call")
			}
			os.Setenv("GOAPP_INTERNAL_URLS", `["https://example.com/"]`)
			if e.internalURL(u) {
				t.Fatal("the variable was read again")
			}
		})
	}
	t.Run("list", func(t *testing.T) {
		os.Setenv("GOAPP_INTERNAL_URLS", `["https://example.com/"]`)
		defer os.Unsetenv("GOAPP_INTERNAL_URLS")
		e := newTestEngine()
		other, _ := url.Parse("https://other.org/")
		if !e.internalURL(u) || e.internalURL(other) {
			t.Fatalf("internal: %v for a listed prefix, %v for another host", e.internalURL(u), e.internalURL(other))
		}
	})
}
