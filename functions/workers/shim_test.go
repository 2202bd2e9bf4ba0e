//go:build !js

package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/render"
	"github.com/flakegate/flakegate/internal/testfile"
)

// TestShimPages: the shim's list of pages and its query bound, and
// wrangler.toml's run_worker_first, are render's: a page the Worker does
// not run first would never render its links, and a query the shim
// forwards past render.MaxQuery would start Go for nothing.
func TestShimPages(t *testing.T) {
	shim, toml := testfile.Read(t, "shim/worker.mjs"), testfile.Read(t, "../../wrangler.toml")
	m := regexp.MustCompile(`const MAX_QUERY = (\d+);`).FindSubmatch(shim)
	if m == nil {
		t.Fatal("no MAX_QUERY in the shim")
	}
	if n, _ := strconv.Atoi(string(m[1])); n != render.MaxQuery {
		t.Errorf("the shim's MAX_QUERY is %d, render.MaxQuery %d", n, render.MaxQuery)
	}
	quoted := func(re string, in []byte) []string {
		m := regexp.MustCompile(re).FindSubmatch(in)
		if m == nil {
			t.Fatalf("%s not found", re)
		}
		var out []string
		for _, q := range regexp.MustCompile(`"([^"]*)"`).FindAllSubmatch(m[1], -1) {
			out = append(out, string(q[1]))
		}
		return out
	}
	pages := quoted(`const PAGES = new Set\(\[([^\]]*)\]\)`, shim)
	first := quoted(`(?m)^run_worker_first = \[([^\]]*)\]`, toml)
	var want []string
	for p := range render.Titles {
		want = append(want, p)
	}
	slices.Sort(want)
	slices.Sort(pages)
	if !slices.Equal(pages, want) {
		t.Errorf("the shim's pages %v, render's %v", pages, want)
	}
	for _, p := range append(want, "/v1/*") {
		if !slices.Contains(first, p) {
			t.Errorf("run_worker_first %v lacks %s", first, p)
		}
	}
	if !strings.Contains(string(toml), `binding = "ASSETS"`) {
		t.Error(`wrangler.toml's [assets] has no binding = "ASSETS"`)
	}
}
