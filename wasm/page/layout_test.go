package page

import (
	"regexp"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestInputModes: a field whose text needs "/", "," or "%" gets the full
// keyboard on a phone (no inputmode: a number pad may lack those keys);
// plain numbers get a number pad.
func TestInputModes(t *testing.T) {
	want := map[string]string{
		"target": "", "cost": "decimal", "cap": "numeric", "rates": "", "observe": "", "confidence": "", "setting": "numeric", // a confidence may be a percentage
		"baseline": "", "patched": "", "min_trials": "numeric",
	}
	html := app.HTMLString(&Budget{}) + app.HTMLString(&Decide{})
	seen := map[string]bool{}
	for _, tag := range regexp.MustCompile(`<input [^>]*>`).FindAllString(html, -1) {
		id := regexp.MustCompile(`id="in-([a-z_]+)"`).FindStringSubmatch(tag)
		if id == nil {
			continue
		}
		key := id[1]
		mode, ok := want[key]
		if !ok {
			t.Errorf("unexpected input %s", key)
			continue
		}
		seen[key] = true
		got := ""
		if m := regexp.MustCompile(`inputmode="([a-z]+)"`).FindStringSubmatch(tag); m != nil {
			got = m[1]
		}
		if got != mode {
			t.Errorf("%s: inputmode %q, want %q", key, got, mode)
		}
	}
	for k := range want {
		if !seen[k] {
			t.Errorf("no input %s on the pages", k)
		}
	}
}

// A screen reader's list of form controls shows each control's label
// alone, without its fieldset: no two labels of a page may read the same.
func TestLabelsAreDistinct(t *testing.T) {
	label := regexp.MustCompile(`<label[^>]*>([^<]*)</label>`)
	for name, c := range map[string]app.Composer{"budget": &budgetT{}, "decide": &decideT{}, "aa": &aaT{}} {
		load(t, c)
		seen := map[string]bool{}
		labels := label.FindAllStringSubmatch(app.HTMLString(c), -1)
		if len(labels) < 2 {
			t.Errorf("%s: %d labels", name, len(labels))
		}
		for _, m := range labels {
			if seen[m[1]] {
				t.Errorf("%s: two labels read %q", name, m[1])
			}
			seen[m[1]] = true
		}
	}
}
