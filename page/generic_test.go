package page

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestGenericNestedHeading: a nested object is named once, by its term in
// the list, not again by a heading of its own.
func TestGenericNestedHeading(t *testing.T) {
	html := app.HTMLString(app.Div().Body(genericField("variance_ratio", json.RawMessage(`{"ratio":1.2,"detrended":{"ratio":0.9,"inside":true}}`))))
	if n := strings.Count(html, "<h3"); n != 1 {
		t.Errorf("%d headings, want 1 (variance ratio):\n%s", n, html)
	}
	if n := strings.Count(html, "detrended"); n != 2 { // the term and the scope
		t.Errorf(`"detrended" %d times, want the term and the data-scope:`+"\n%s", n, html)
	}
}
