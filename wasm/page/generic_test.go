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

func TestGenericFieldsReadBack(t *testing.T) {
	// Whatever shape a further figure has, the page shows every leaf at its
	// JSON path: nested objects, lists of flat objects (as a table), lists
	// of numbers, nulls and booleans.
	doc := []byte(`{"extra":{"a":1.5,"list":[{"id":"s1","rate":0.25,"ok":true},{"id":"s2","rate":null,"ok":false}],"nums":[1,2.5],"nested":{"x":"y"}}}`)
	var m map[string]json.RawMessage
	json.Unmarshal(doc, &m)
	ui := app.Div().Body(genericField("extra", m["extra"]))
	_, diffs := fieldDiffs(t, ui, "", doc)
	for _, d := range diffs {
		t.Error(d)
	}
	if !strings.Contains(app.HTMLString(ui), "<table") {
		t.Error("a list of flat objects is not a table")
	}
}
