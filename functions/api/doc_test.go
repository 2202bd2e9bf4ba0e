package api

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/testfile"
)

// TestDocListsEveryRoute holds the package doc (doc.go) to the route
// table: every served path is in its list of routes, with its methods
// when they are not the params routes' GET and POST.
func TestDocListsEveryRoute(t *testing.T) {
	raw := testfile.Read(t, "doc.go")
	doc := string(raw)
	for path, methods := range Routes() {
		name := strings.TrimPrefix(path, Prefix)
		// "//   - name", "//   - other, name" or "//   - other, name (POST)".
		item := regexp.MustCompile(`(?m)^//   - (?:[a-z/.]+, )*` + regexp.QuoteMeta(name) + `(?:[ ,:(]|$)(.*)`)
		m := item.FindStringSubmatch(doc)
		if m == nil {
			t.Errorf("doc.go does not list %s", path)
			continue
		}
		if slices.Equal(methods, []string{"POST"}) && !strings.Contains(m[0], "(POST)") {
			t.Errorf("doc.go does not say %s is POST only: %q", path, m[0])
		}
	}
}
