package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The go-app the calculator is built with (third_party/go-app) is upstream's
// release with the changes its README lists, and nothing else: every other
// file is compared, byte for byte, with the module proxy's copy.
const (
	goAppModule  = "github.com/maxence-charriere/go-app/v10"
	goAppVersion = "v10.1.11"
	goAppFork    = "../third_party/go-app"
)

var (
	// goAppChanged are upstream files the fork changes.
	goAppChanged = []string{"pkg/app/attribute.go", "pkg/app/attribute_test.go", "pkg/app/context.go", "pkg/app/crypto.go", "pkg/app/engine.go", "pkg/app/engine_test.go", "pkg/app/event.go", "pkg/app/http.go", "pkg/app/http_test.go", "pkg/app/node.go", "pkg/app/node_test.go", "pkg/app/page.go", "pkg/app/resource.go", "pkg/app/route.go", "pkg/app/scripts.go", "pkg/app/state.go", "pkg/app/wasm.go"}
	// goAppAdded are the fork's own files.
	goAppAdded = []string{"README.md", "pkg/app/engine_immediate_test.go", "pkg/app/engine_internalurls_test.go", "pkg/app/crypto_wasm.go", "pkg/app/engine_replaceurl_test.go", "pkg/app/event_latest_test.go", "pkg/app/http_og_test.go", "pkg/app/id.go", "pkg/app/id_test.go", "pkg/app/node_attrorder_test.go", "pkg/app/resource_client.go", "pkg/app/route_regexp.go", "pkg/app/route_regexp_wasm.go"}
	// goAppKept are the upstream folders the fork holds (pkg/app/gen is
	// the source of the embedded scripts, not needed to build).
	goAppKept = []string{"pkg/app/", "pkg/errors/", "pkg/logs/"}
)

func TestGoAppForkIsUpstreamPlusListedChanges(t *testing.T) {
	out, err := exec.Command("go", "mod", "download", "-json", goAppModule+"@"+goAppVersion).Output()
	if err != nil {
		t.Fatalf("go mod download %s@%s: %v", goAppModule, goAppVersion, err)
	}
	var mod struct{ Dir, Error string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		t.Fatalf("go mod download: %s %v", out, err)
	}

	upstream := files(t, mod.Dir, func(rel string) bool {
		if rel == "go.mod" || rel == "go.sum" || rel == "LICENSE" {
			return true
		}
		for _, k := range goAppKept {
			if strings.HasPrefix(rel, k) && !strings.HasPrefix(rel, "pkg/app/gen/") {
				return true
			}
		}
		return false
	})
	fork := files(t, goAppFork, func(string) bool { return true })

	changed, added := set(goAppChanged), set(goAppAdded)
	for rel, want := range upstream {
		got, ok := fork[rel]
		switch {
		case !ok:
			t.Errorf("%s: missing from the fork", rel)
		case changed[rel]:
			if bytes.Equal(got, want) {
				t.Errorf("%s: listed as changed but identical to upstream; take it off the list", rel)
			}
		case !bytes.Equal(got, want):
			t.Errorf("%s: differs from upstream but is not a listed change (third_party/go-app/README.md)", rel)
		}
	}
	for rel := range fork {
		if _, ok := upstream[rel]; !ok && !added[rel] {
			t.Errorf("%s: not upstream and not a listed addition", rel)
		}
	}
	for rel := range added {
		if _, ok := fork[rel]; !ok {
			t.Errorf("%s: listed as added but missing", rel)
		}
	}
	if len(upstream) < 70 {
		t.Fatalf("only %d upstream files compared; is %s the module?", len(upstream), mod.Dir)
	}
}

// The main module builds with the fork.
func TestGoModReplacesGoAppWithTheFork(t *testing.T) {
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("replace "+goAppModule+" => ./third_party/go-app")) {
		t.Fatalf("go.mod does not replace %s with ./third_party/go-app", goAppModule)
	}
	if !bytes.Contains(b, []byte(goAppModule+" "+goAppVersion)) {
		t.Fatalf("go.mod does not require %s %s, the version the fork is of", goAppModule, goAppVersion)
	}
}

func files(t *testing.T, root string, keep func(string) bool) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !keep(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		m[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func set(l []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range l {
		m[s] = true
	}
	return m
}
