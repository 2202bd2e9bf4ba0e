package loader

import (
	"strings"
	"testing"
)

// appJS has the parts of go-app v10.1.11's app.js that Patch changes, in
// their order there (the full file is checked by site's TestGenerate).
const appJS = "goappInitServiceWorker();\n" +
	"async function goappInitWebAssembly() {\n  try {\n" +
	"    const wasm = await instantiateStreaming(fetchWithProgress(\"/web/app.wasm\"), go.importObject);\n" +
	"    go.run(wasm.instance);\n" +
	"  } catch (err) {\n" +
	"    console.error(\"loading wasm failed: \", err);\n  }\n}\n" +
	"async function fetchWithProgress(url, progess) {\n  const res = await fetch(url);\n  // counting\n  return res;\n}\n"

func TestPatch(t *testing.T) {
	got, err := Patch(appJS)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"async function fetchWithProgress(url, progess) {\n  return fetch(url);\n}\n",
		"    performance.mark(\"wasm-ready\");\n    go.run(wasm.instance);\n",
		"    console.error(\"loading wasm failed: \", err);\n  }\n  goappInitServiceWorker();\n}\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("patched app.js lacks %q:\n%s", want, got)
		}
	}
	if strings.HasPrefix(got, "goappInitServiceWorker") || strings.Contains(got, "// counting") {
		t.Errorf("patched app.js keeps what it replaces:\n%s", got)
	}
}

// Every part Patch looks for, missing or repeated, is refused.
func TestPatchRefusesChangedShape(t *testing.T) {
	for _, s := range []string{
		"",
		strings.Replace(appJS, "  return res;\n}", "}", 1),
		strings.Replace(appJS, "    go.run(wasm.instance);\n", "", 1),
		strings.Replace(appJS, "goappInitServiceWorker();\n", "", 1),
		appJS + "goappInitServiceWorker();\n",
		strings.Replace(appJS, "    console.error(\"loading wasm failed: \", err);\n  }\n", "", 1),
	} {
		if _, err := Patch(s); err == nil || !strings.Contains(err.Error(), "app.js changed") {
			t.Errorf("Patch accepted a changed app.js (err %v):\n%s", err, s)
		}
	}
}
