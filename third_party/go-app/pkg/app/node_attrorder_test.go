package app

import (
	"strings"
	"testing"
)

// TestHTMLStringAttributeOrder: an element's attributes are written in
// name order, the same every time (they live in a map, whose order changes
// from run to run).
func TestHTMLStringAttributeOrder(t *testing.T) {
	want := `<p class="c" data-x="1" id="i" role="status" title="t">x</p>`
	for range 200 {
		got := strings.TrimSpace(HTMLString(P().Title("t").ID("i").Role("status").Class("c").DataSet("x", 1).Text("x")))
		if got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
}
