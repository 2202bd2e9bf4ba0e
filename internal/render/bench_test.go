package render

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkPage computes and splices each link of the tests (the CLI's
// links of every page among them) into testdata/page.html.
func BenchmarkPage(b *testing.B) {
	tpl, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range links(b) {
		b.Run(l.name, func(b *testing.B) {
			for b.Loop() {
				v, err := Compute(l.path, l.query)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Splice(tpl, v, l.query, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
