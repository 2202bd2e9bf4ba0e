package flakegate_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/flakegate/flakegate"

// layers says what each package of the core, the wording on top of it and
// the static-file server may import of ours: dependencies point one way, from the surfaces down to
// stat, and lower never imports higher (docs/ARCHITECTURE.md draws it). A
// package listed with a trailing "/..." covers its sub-packages too.
var layers = map[string][]string{
	"core/stat":     {},
	"core":          {},
	"core/jsonscan": {},
	// the core's own helpers: below every layer of the core, importing
	// nothing of ours (any package under core/ may import them).
	"core/internal/...": {},
	"core/gate":         {"core", "core/stat"},
	"core/ledger":       {"core", "core/stat", "core/gate"},
	"core/param":        {"core", "core/gate", "core/ledger", "core/aa/...", "core/quarantine", "core/compare", "core/history/...", "core/triage"},
	"core/report":       {"core", "core/stat", "core/gate", "core/ledger", "core/jsonscan"},
	"core/aa/...":       {"core", "core/stat", "core/gate", "core/ledger", "core/aa/..."},
	"core/compare":      {"core", "core/stat", "core/ledger", "core/report", "core/aa"},
	"internal/words":    {"core/...", "internal/share"},
	"internal/share":    {"core/..."},
	// render is linked into the Worker: the core and the words, no go-app.
	"internal/render": {"core/...", "internal/share", "internal/words"},
	// runner runs a test command and reads its reports: the core only.
	"internal/runner": {"core/..."},
	// static writes the site's brotli copies at build time (precompress.go);
	// the module is no package of ours, and nothing else may come in.
	"internal/static": {"github.com/andybalholm/brotli"},

	"core/quarantine": {"core", "core/stat", "core/gate", "core/ledger", "core/jsonscan"},
	"core/triage":     {"core", "core/stat", "core/gate", "core/ledger", "core/report", "core/history/...", "core/quarantine"},

	"core/history/...": {"core", "core/stat", "core/gate", "core/ledger", "core/report", "core/history/..."},
	"core/store":       {"core", "core/ledger", "core/report", "core/history"},
}

// covers reports whether pattern (a path below the module, or one ending
// in "/..." for it and everything below it) matches path.
func covers(pattern, path string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return pattern == path
}

// violations lists the imports of package pkg (a path below the module)
// that break the rules: a package of the layers above imports the standard
// library and the packages its layer lists, nothing else; the calculator
// (wasm/...) never imports a command or the API.
func violations(pkg string, imports []string) []string {
	var bad []string
	for _, imp := range imports {
		ours, isOurs := strings.CutPrefix(imp, module+"/")
		std := !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
		if covers("wasm/...", pkg) && isOurs && (covers("cmd/...", ours) || covers("functions/...", ours)) {
			bad = append(bad, imp+" (the calculator never imports a command or the API)")
		}
		if covers("core/...", pkg) && isOurs && covers("core/internal/...", ours) {
			continue // the core's own helpers, below every layer of it
		}
		for pattern, may := range layers {
			if !covers(pattern, pkg) || std {
				continue
			}
			if slices.Contains(may, imp) {
				continue // a module outside ours, named in the layer
			}
			if !isOurs || !slices.ContainsFunc(may, func(m string) bool { return covers(m, ours) }) {
				bad = append(bad, imp+" (not below "+pkg+": it may import the standard library and "+strings.Join(may, ", ")+")")
			}
		}
	}
	return bad
}

// TestImportsPointDown reads every package's imports (its non-test files,
// whatever their build tags) and holds them to the layers.
func TestImportsPointDown(t *testing.T) {
	pkgs := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")),
				name == "testdata", name == "third_party", name == "node_modules", name == "dist", name == "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			pkgs[dir] = append(pkgs[dir], imp)
		}
		if _, ok := pkgs[dir]; !ok {
			pkgs[dir] = []string{}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pattern := range layers {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(pkgs)), func(p string) bool { return covers(pattern, p) }) {
			t.Errorf("no package %s: the layers name a package that is gone", pattern)
		}
	}
	for pkg, imports := range pkgs {
		if covers("core/...", pkg) && !slices.ContainsFunc(slices.Collect(maps.Keys(layers)), func(p string) bool { return covers(p, pkg) }) {
			t.Errorf("%s has no place in the layers: add it to layers and to docs/ARCHITECTURE.md", pkg)
		}
		for _, v := range violations(pkg, imports) {
			t.Errorf("%s imports %s", pkg, v)
		}
	}
	if len(pkgs) < 10 {
		t.Fatalf("read only %d packages", len(pkgs))
	}
}

// TestViolations checks the checker on imports that break each rule.
func TestViolations(t *testing.T) {
	for _, tc := range []struct {
		pkg, imp string
		bad      bool
	}{
		{"core/stat", module + "/core", true},
		{"core", module + "/core/stat", true},
		{"core/gate", module + "/core/stat", false},
		{"core/gate", module + "/core/ledger", true},
		{"core/ledger", module + "/core/report", true},
		{"core/report", module + "/core/aa", true},
		{"core/aa", module + "/core/aa/sim", false},
		{"core/aa/sim", module + "/core/report", true},
		{"core/aa", module + "/internal/words", true},
		{"core/gate", "gonum.org/v1/gonum/stat", true},
		{"core/gate", "math", false},
		{"core/ledger", module + "/core/internal/sorts", false},
		{"core/internal/sorts", module + "/core", true},
		{"internal/words", module + "/core/aa", false},
		{"internal/words", module + "/wasm/page", true},
		{"internal/words", module + "/internal/share", false},
		{"internal/share", module + "/internal/words", true},
		{"internal/words", "github.com/maxence-charriere/go-app/v10/pkg/app", true},
		{"internal/static", module + "/site", true},
		{"internal/static", "github.com/andybalholm/brotli", false},
		{"internal/static", "github.com/klauspost/compress/zstd", true},
		{"core/gate", "github.com/andybalholm/brotli", true},
		{"wasm/page", "github.com/maxence-charriere/go-app/v10/pkg/app", false},
		{"wasm/page", module + "/functions/api", true},
		{"wasm/page/webtest", module + "/cmd/flakegate-serve", true},
		{"wasm/page", module + "/internal/words", false},
		{"cmd/flakegate", module + "/core/aa", false},
		{"internal/render", module + "/internal/words", false},
		{"internal/render", module + "/wasm/page", true},
		{"internal/render", "github.com/maxence-charriere/go-app/v10/pkg/app", true},
		{"internal/runner", module + "/core/report", false},
		{"internal/runner", module + "/internal/words", true},
		{"wasm", module + "/cmd/flakegate", true},
	} {
		if got := len(violations(tc.pkg, []string{tc.imp})) > 0; got != tc.bad {
			t.Errorf("%s importing %s: violation %v, want %v", tc.pkg, tc.imp, got, tc.bad)
		}
	}
}

// topLevel is the design's top level (docs/ARCHITECTURE.md, "The top
// level"): the four parts of the product, then the folders that serve them.
// A folder that is not here belongs under one of these, most often internal/.
var topLevel = []string{
	"core", "wasm", "functions", "site", // the product
	"cmd", "internal", "docs", "examples", "bench", "action", "third_party", "mk",
}

// TestTopLevel holds the top level to the design: every folder there is one
// it names (build outputs and hidden folders aside), and there are at most 12.
func TestTopLevel(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	built := []string{"dist", "bin", "node_modules", "build"} // .gitignore
	var found []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || slices.Contains(built, e.Name()) {
			continue
		}
		found = append(found, e.Name())
		if !slices.Contains(topLevel, e.Name()) {
			t.Errorf("top-level folder %s/ is not one the design names: move it under internal/ or name it in topLevel and docs/ARCHITECTURE.md", e.Name())
		}
	}
	for _, want := range []string{"core", "wasm", "functions", "site"} {
		if !slices.Contains(found, want) {
			t.Errorf("the design's %s/ is missing from the top level", want)
		}
	}
	if len(topLevel) > 12 {
		t.Errorf("%d top-level folders named, the design allows 12", len(topLevel))
	}
}
