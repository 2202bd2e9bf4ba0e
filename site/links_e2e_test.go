//go:build integration

package main

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/internal/render/rendertest"
	"github.com/flakegate/flakegate/internal/testfile"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// TestResultLinks opens, in headless Chromium, the links that the CLI
// (-site) and the API (on its own origin) put in their results, and checks
// that every figure the calculator shows there equals the result's JSON,
// both ways: for a budget, a ledger's verdicts on the decide view, and an
// A/A check. The site and the API are served on one origin, as the local
// server and the Worker serve them. It also holds Copy as Markdown, link
// included, to the CLI's -markdown -site summary of the same result.
func TestResultLinks(t *testing.T) {
	ctx := startBrowser(t)
	dir, _ := built(t)
	site, err := webtest.NewHandler(dir)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(api.Prefix, api.New(api.LocalOptions()))
	mux.Handle("/", site)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	console := webtest.Watch(ctx)

	data := t.TempDir()
	base := aaCSV(40, 6, func(s, r int) bool { return (s*13+r*7)%11 == 0 || (s%7 == 0 && r%2 == 1) })
	cand := aaCSV(40, 3, func(s, r int) bool { return (s*11+r*5)%6 == 0 })
	basePath := writeFile(t, data, "base.csv", base)
	candPath := writeFile(t, data, "cand.csv", cand)
	ledgerPath := filepath.Join(repoRoot(), "core", "ledger", "testdata", "ledger", "seed_20x20.jsonl")
	ledgerData := testfile.Read(t, ledgerPath)

	budgetArgs := []string{"budget", "-target", "0.9", "-cost", "8", "-cap", "5", "-observe", "1/120", "0.05", "0.02", "0.001"}
	cases := []struct {
		name   string
		json   []byte
		path   string   // the view the link must open
		prefix string   // the page's figures compared: "" all, or a scope
		skip   []string // scopes of the page compared with other results
	}{
		{"CLI budget", cli(t, append(budgetArgs, "-json", "-site", srv.URL)...), "/", "", nil},
		{"CLI ledger", cli(t, "ledger", "-json", "-property", "passed", "-min-trials", "15", "-site", srv.URL, ledgerPath), "/decide", "ledger", nil},
		{"CLI decide", cli(t, "decide", "-json", "-baseline", "30/60", "-patched", "51/60", "-property", "passed", "-site", srv.URL), "/decide", "", []string{"size", "ledger"}},
		{"CLI aa", cli(t, "aa", "-json", "-site", srv.URL, basePath, candPath), "/aa", "", nil},
		{"API budget", get(t, srv.URL+"/v1/budget?target=0.9&cost=8&cap=5&observe=1/120&rates=0.05,0.02,0.001"), "/", "", nil},
		// A budget in a runner's own setting: Bazel's attempts, gotestsum's retries.
		{"CLI budget runner", cli(t, "budget", "-runner", "bazel-flaky-attempts=3", "-cost", "8", "-observe", "1/120", "0.02", "0.5", "-json", "-site", srv.URL), "/", "", nil},
		{"API budget runner", get(t, srv.URL+"/v1/budget?runner=gotestsum&setting=2&cost=8&rates=0.02,0.05"), "/", "", nil},
		{"API ledger", post(t, srv.URL+"/v1/ledger?property=passed&min_trials=15", "application/x-ndjson", ledgerData), "/decide", "ledger", nil},
		{"API aa", postParts(t, srv.URL+"/v1/aa", map[string]string{"baseline": base, "candidate": cand}), "/aa", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			link, result := rendertest.SplitLink(t, c.json)
			if !strings.HasPrefix(link, srv.URL+c.path) || (c.path == "/" && !strings.HasPrefix(link, srv.URL+"/?")) {
				t.Fatalf("link %q does not open %s%s", link, srv.URL, c.path)
			}
			// A fresh browser context: no state from an earlier page.
			fresh := newTab(t, ctx)
			open(t, fresh, link)
			page := expectFields(t, fresh, c.name, c.prefix, result, c.skip...)
			if len(page) < 10 {
				t.Errorf("%s: only %d figures on the page", c.name, len(page))
			}
		})
	}
	// The budget page at the CLI's link copies, as Markdown, the CLI's own
	// -markdown summary with that link: the same bytes.
	t.Run("copy as Markdown", func(t *testing.T) {
		link, _ := rendertest.SplitLink(t, cases[0].json)
		want := string(cli(t, append(budgetArgs, "-markdown", "-site", srv.URL)...))
		open(t, ctx, link)
		if got := copied(t, ctx, "copy-md"); got != want {
			t.Errorf("Copy as Markdown gave\n%s\n--- the CLI prints\n%s", got, want)
		}
	})
	for _, e := range console.Errors() {
		t.Errorf("console: %s", e)
	}
}

func answer(t *testing.T, resp *http.Response, err error) []byte {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %v %s", resp.Request.URL, resp.StatusCode, err, b)
	}
	return b
}

func get(t *testing.T, u string) []byte {
	t.Helper()
	resp, err := http.Get(u)
	return answer(t, resp, err)
}

func post(t *testing.T, u, ctype string, body []byte) []byte {
	t.Helper()
	resp, err := http.Post(u, ctype, bytes.NewReader(body))
	return answer(t, resp, err)
}

func postParts(t *testing.T, u string, parts map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, name := range []string{"baseline", "candidate"} {
		fw, err := w.CreateFormFile(name, name+".csv")
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(fw, parts[name])
	}
	w.Close()
	return post(t, u, w.FormDataContentType(), b.Bytes())
}
