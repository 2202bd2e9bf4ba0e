package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/page"
	"github.com/flakegate/flakegate/page/fieldcheck"
	"github.com/flakegate/flakegate/render"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var (
	siteOnce sync.Once
	siteDir  string
	siteErr  error
	cliOnce  sync.Once
	cliPath  string
	cliErr   error
)

// prerendered writes the calculator's pages as `make site` pre-renders
// them (go-app's static generator on package page's components), without
// app.wasm, which a server that renders links does not need.
func prerendered(t *testing.T) string {
	t.Helper()
	siteOnce.Do(func() {
		if siteDir, siteErr = os.MkdirTemp("", "flakegate-site-"); siteErr != nil {
			return
		}
		page.Register()
		siteErr = app.GenerateStaticWebsite(siteDir, &app.Handler{Name: "flakegate calculator", Title: "flakegate",
			Description: "Rerun budgets for flaky tests, computed in your browser.", Styles: []string{"/web/flakegate.css"}}, page.Pages...)
	})
	if siteErr != nil {
		t.Fatal(siteErr)
	}
	return siteDir
}

// flakegateCLI runs the real flakegate command (built once) and returns
// its standard output; a gate that blocks exits 1 and still prints.
func flakegateCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "flakegate-cli-")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "flakegate")
		build := exec.Command("go", "build", "-o", cliPath, "../flakegate")
		if out, err := build.CombinedOutput(); err != nil {
			cliErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if cliErr != nil {
		t.Fatal(cliErr)
	}
	cmd := exec.Command(cliPath, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("flakegate %s: %v %s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// LinkCase is a result the CLI writes with a link, and where its figures
// are on the page the link opens.
type linkCase struct {
	name   string
	args   []string // flakegate's, without -json and -site
	path   string   // the page the link opens
	prefix string   // the scope of the page's figures that are the result's
	skip   []string // scopes of the page that hold other results
}

// linkCases are the CLI's results of every page, from the inputs the CLI's
// own tests use (cmd/flakegate/testdata and the readers' testdata).
var linkCases = []linkCase{
	{"budget", []string{"budget", "-target", "0.9", "-cost", "8", "-cap", "5", "-observe", "1/120", "0.05", "0.02", "0.001"}, "/", "", nil},
	{"budget runner", []string{"budget", "-runner", "gotestsum=2", "-cost", "8", "0.02"}, "/", "", nil},
	{"decide", []string{"decide", "-baseline", "30/60", "-patched", "51/60", "-property", "passed"}, "/decide", "", []string{"size"}},
	{"decide overlap", []string{"decide", "-baseline", "12/20", "-patched", "19/20"}, "/decide", "", []string{"size"}},
	{"ledger", []string{"ledger", "-property", "passed", "-min-trials", "15", "../../core/ledger/testdata/ledger/seed_20x20.jsonl"}, "/decide", "ledger", nil},
	{"aa", []string{"aa", "../flakegate/testdata/base.csv", "../flakegate/testdata/cand.csv"}, "/aa", "", nil},
	{"quarantine runs", []string{"quarantine", "runs", "-below", "0.05", "-confidence", "0.99"}, "/quarantine", "rule", nil},
	{"quarantine check", []string{"quarantine", "check", "-registry", "../flakegate/testdata/quarantine/week-registry.json", "-today", "2026-11-30"}, "/quarantine", "check", nil},
	{"compare", []string{"compare", "../../core/compare/testdata/logs/inspect-a.json", "../../core/compare/testdata/logs/inspect-b.json"}, "/compare", "compare", nil},
	{"compare clusters", []string{"compare", "-format", "samples", "-score", "correct", "-cluster", "passage",
		"../flakegate/testdata/compare/race-a.jsonl", "../flakegate/testdata/compare/race-b.jsonl"}, "/compare", "compare", nil},
	{"history", []string{"history", "../flakegate/testdata/history/month.zip"}, "/history", "", nil},
}

// TestLinksOpenOnTheirAnswer fetches, with a plain HTTP client, the link
// the CLI writes (-site) for a result of every page, from the local
// server's handler, and checks the HTML it sends: the CLI's answer (the
// first line of its -markdown) in the answer box, the title and the
// preview tags; and the figures (fieldcheck, both ways) equal to the
// CLI's -json. The expected values are the CLI's own output.
func TestLinksOpenOnTheirAnswer(t *testing.T) {
	h, err := newMux(api.LocalOptions(), os.DirFS(prerendered(t)))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, c := range linkCases {
		t.Run(c.name, func(t *testing.T) {
			raw := flakegateCLI(t, append(c.args, "-json", "-site", srv.URL)...)
			link, result := splitLink(t, raw)
			md := flakegateCLI(t, append(c.args, "-markdown", "-site", srv.URL)...)
			answer := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(string(md), "\n", 2)[0], "**"), "**")
			answer = strings.NewReplacer(`\|`, "|", `\<`, "<", "\\`", "`", `\*`, "*").Replace(answer)
			if !strings.HasPrefix(link, srv.URL+c.path) {
				t.Fatalf("link %q does not open %s", link, c.path)
			}
			// Today's links are fragments: the same state as a query.
			link = strings.Replace(link, "#", "?", 1)
			doc := fetch(t, link, "")
			checkPage(t, doc, answer, c.prefix, result, c.skip...)
		})
	}
}

// checkPage checks a rendered page: the answer in the answer box, the
// title and every preview tag, and its figures against result.
func checkPage(t *testing.T, doc, answer, prefix string, result []byte, skip ...string) {
	t.Helper()
	esc := html.EscapeString(answer)
	if !strings.Contains(doc, `<p class="lead"><strong>`+esc+`</strong></p>`) {
		t.Errorf("the answer box does not hold the CLI's answer %q", answer)
	}
	if !strings.Contains(doc, `data-rendered="server"`) {
		t.Error("no region marked data-rendered")
	}
	if !regexp.MustCompile(`<title>` + regexp.QuoteMeta(esc) + ` · `).MatchString(doc) {
		t.Errorf("the title does not open on the answer")
	}
	for _, tag := range []string{`name="description"`, `property="og:title"`, `property="og:description"`, `name="twitter:title"`, `name="twitter:description"`} {
		m := regexp.MustCompile(`<meta ` + tag + ` content="([^"]*)">`).FindStringSubmatch(doc)
		if m == nil || !strings.HasPrefix(html.UnescapeString(m[1]), answer) {
			t.Errorf("<meta %s> does not hold the answer: %v", tag, m)
		}
	}
	if n := strings.Count(doc, `<meta name="description"`); n != 1 {
		t.Errorf("%d descriptions", n)
	}
	fields, err := fieldcheck.FromHTML(doc)
	if err != nil {
		t.Fatal(err)
	}
	diffs, err := fieldcheck.Diff(fields, prefix, result, skip...)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	if len(fieldcheck.Sub(fields, prefix)) < 4 {
		t.Errorf("only %d figures", len(fieldcheck.Sub(fields, prefix)))
	}
}

// splitLink is a result's link and its JSON without link and link_note.
func splitLink(t *testing.T, raw []byte) (string, []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	link, _ := m["link"].(string)
	delete(m, "link")
	delete(m, "link_note")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return link, out
}

// fetch GETs u (with If-None-Match etag when not "") and returns the body
// of a 200.
func fetch(t *testing.T, u, etag string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, b)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if resp.Header.Get("Content-Security-Policy") == "" {
		t.Error("a rendered page without the site's CSP")
	}
	return string(b)
}

// TestLinkCaching: the same link gives the same bytes and ETag; the ETag
// is answered 304; a link past render.MaxQuery, and a page without a
// query, are served as pre-rendered.
func TestLinkCaching(t *testing.T) {
	dir := prerendered(t)
	h, err := newMux(api.LocalOptions(), os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	get := func(target, etag string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, target, nil)
		if etag != "" {
			r.Header.Set("If-None-Match", etag)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	link := "/decide?baseline=12%2F20&confidence=0.95&min_trials=20&patched=19%2F20&property=unknown&v=2"
	a, b := get(link, ""), get(link, "")
	if a.Code != 200 || !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) || a.Header().Get("ETag") == "" || a.Header().Get("ETag") != b.Header().Get("ETag") {
		t.Fatalf("the same link twice: %d, ETag %q and %q, same bytes %v", a.Code, a.Header().Get("ETag"), b.Header().Get("ETag"), bytes.Equal(a.Body.Bytes(), b.Body.Bytes()))
	}
	if w := get(link, a.Header().Get("ETag")); w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Errorf("If-None-Match: %d with %d bytes", w.Code, w.Body.Len())
	}
	if w := get(strings.Replace(link, "19", "18", 1), a.Header().Get("ETag")); w.Code != 200 {
		t.Errorf("another link with the first one's ETag: %d", w.Code)
	}
	want, err := os.ReadFile(filepath.Join(dir, "decide.html"))
	if err != nil {
		t.Fatal(err)
	}
	q0 := len(link) - len("/decide?")
	long := link + "&pad=" + strings.Repeat("x", render.MaxQuery+1-q0-len("&pad="))
	for _, target := range []string{"/decide", long} {
		w := get(target, "")
		if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), want) {
			t.Errorf("%.40s…: %d, the pre-rendered page %v", target, w.Code, bytes.Equal(w.Body.Bytes(), want))
		}
	}
	// Just within the bound, the same link is rendered.
	within := link + "&pad=" + strings.Repeat("x", render.MaxQuery-q0-len("&pad="))
	if w := get(within, ""); w.Code != 200 || !strings.Contains(w.Body.String(), `data-rendered="server"`) {
		t.Errorf("a query of %d bytes was not rendered", len(within)-len("/decide?"))
	}
}
