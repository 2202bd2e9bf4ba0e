// Package rendertest checks, for the servers that render calculator links
// (the local server, the Worker), that a link the CLI made opens on the
// CLI's own answer: it pre-renders the site's pages as `make site` does,
// runs the real flakegate command for a result of every page, and reads a
// rendered page's answer, preview tags and figures back (page/fieldcheck)
// against the CLI's -markdown and -json. Fetch and Do send a test's
// requests to such a server and read its whole answer.
package rendertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/flakegate/flakegate/wasm/page"
	"github.com/flakegate/flakegate/wasm/page/fieldcheck"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

var (
	siteOnce sync.Once
	siteDir  string
	siteErr  error

	builtMu  sync.Mutex
	builtIn  string                       // the folder of the programs Build builds
	builtErr error                        // why that folder could not be made
	builds   = map[[2]string]*buildOnce{} // by root and package
)

// buildOnce is a program Build builds once: its path, or why it could not.
type buildOnce struct {
	once sync.Once
	path string
	err  error
}

// Prerendered is a folder with the calculator's pages as `make site`
// pre-renders them (go-app's static generator on package page's
// components), without app.wasm, which a server that renders links does
// not need. It is written once per test binary.
func Prerendered(t testing.TB) string {
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

// Build is the program of the package pkg ("./cmd/flakegate", as go build
// names it from root, the module's folder), built once per test binary
// into a temporary folder that RemoveAll removes.
func Build(t testing.TB, root, pkg string) string {
	t.Helper()
	builtMu.Lock()
	b := builds[[2]string{root, pkg}]
	if b == nil {
		b = &buildOnce{}
		builds[[2]string{root, pkg}] = b
	}
	if builtIn == "" && builtErr == nil {
		builtIn, builtErr = os.MkdirTemp("", "flakegate-build-")
	}
	dir, err := builtIn, builtErr
	builtMu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	b.once.Do(func() {
		out, err := os.MkdirTemp(dir, "")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(out, filepath.Base(pkg))
		build := exec.Command("go", "build", "-o", b.path, pkg)
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// RemoveAll removes what Prerendered and Build wrote; a TestMain calls it
// after the tests.
func RemoveAll() {
	builtMu.Lock()
	defer builtMu.Unlock()
	for _, dir := range []string{builtIn, siteDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
}

// CLI runs the real flakegate command, built once from root (the module's
// folder), and returns its standard output; a gate that blocks exits 1 and
// still prints.
func CLI(t testing.TB, root string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(Build(t, root, "./cmd/flakegate"), args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("flakegate %s: %v %s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// Case is a result the CLI writes with a link, and where its figures are
// on the page the link opens.
type Case struct {
	Name   string
	Args   []string // flakegate's, without -json, -markdown and -site; paths from the module's folder
	Path   string   // the page the link opens
	Prefix string   // the scope of the page's figures that are the result's
	Skip   []string // scopes of the page that hold other results
}

// Cases are the CLI's results of every page, from the inputs the CLI's own
// tests use (cmd/flakegate/testdata and the readers' testdata).
var Cases = []Case{
	{"budget", []string{"budget", "-target", "0.9", "-cost", "8", "-cap", "5", "-observe", "1/120", "0.05", "0.02", "0.001"}, "/", "", nil},
	{"budget runner", []string{"budget", "-runner", "gotestsum=2", "-cost", "8", "0.02"}, "/", "", nil},
	{"decide", []string{"decide", "-baseline", "30/60", "-patched", "51/60", "-property", "passed"}, "/decide", "", []string{"size"}},
	{"decide overlap", []string{"decide", "-baseline", "12/20", "-patched", "19/20"}, "/decide", "", []string{"size"}},
	{"ledger", []string{"ledger", "-property", "passed", "-min-trials", "15", "core/ledger/testdata/ledger/seed_20x20.jsonl"}, "/decide", "ledger", nil},
	{"aa", []string{"aa", "cmd/flakegate/testdata/base.csv", "cmd/flakegate/testdata/cand.csv"}, "/aa", "", nil},
	{"quarantine runs", []string{"quarantine", "runs", "-below", "0.05", "-confidence", "0.99"}, "/quarantine", "rule", nil},
	{"quarantine check", []string{"quarantine", "check", "-registry", "cmd/flakegate/testdata/quarantine/week-registry.json", "-today", "2026-11-30"}, "/quarantine", "check", nil},
	{"compare", []string{"compare", "core/compare/testdata/logs/inspect-a.json", "core/compare/testdata/logs/inspect-b.json"}, "/compare", "compare", nil},
	{"compare clusters", []string{"compare", "-format", "samples", "-score", "correct", "-cluster", "passage",
		"cmd/flakegate/testdata/compare/race-a.jsonl", "cmd/flakegate/testdata/compare/race-b.jsonl"}, "/compare", "compare", nil},
	{"history", []string{"history", "cmd/flakegate/testdata/history/month.zip"}, "/history", "", nil},
	{"leaderboard", []string{"compare", "-format", "samples", "-score", "correct", "-category", "subject", "-bh",
		"cmd/flakegate/testdata/board/alpha.jsonl", "cmd/flakegate/testdata/board/beta.jsonl", "cmd/flakegate/testdata/board/gamma.jsonl", "cmd/flakegate/testdata/board/delta.jsonl"}, "/compare", "board", nil},
}

// Result is the CLI's result of c with links to site: the link, the -json
// without link and link_note (the figures the page shows), and the answer,
// the first line of its -markdown without its emphasis.
func Result(t testing.TB, root, site string, c Case) (link string, result []byte, answer string) {
	t.Helper()
	raw := CLI(t, root, append(c.Args, "-json", "-site", site)...)
	link, result = SplitLink(t, raw)
	md := CLI(t, root, append(c.Args, "-markdown", "-site", site)...)
	answer = strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(string(md), "\n", 2)[0], "**"), "**")
	answer = strings.NewReplacer(`\|`, "|", `\<`, "<", "\\`", "`", `\*`, "*").Replace(answer)
	if !strings.HasPrefix(link, site+c.Path) {
		t.Fatalf("link %q does not open %s", link, c.Path)
	}
	return link, result, answer
}

// CheckPage checks a rendered page: the answer in the answer box, the
// title and every preview tag (og:url the link itself), and its figures
// against result.
func CheckPage(t testing.TB, doc, link, answer, prefix string, result []byte, skip ...string) {
	t.Helper()
	if !strings.Contains(doc, `<meta property="og:url" content="`+html.EscapeString(link)+`">`) {
		t.Errorf("og:url is not the link %s", link)
	}
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
	HeadHasOneOfEach(t, doc)
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

// HeadHasOneOfEach fails t unless the head of a rendered link's page holds
// one tag of each preview key Splice writes and no og:image, whatever the
// order of the tags' attributes: a preview (a chat's, a code review's)
// reads the first, and the pre-rendered page's own (content= first, as
// go-app writes them) carry the example.
func HeadHasOneOfEach(t testing.TB, doc string) {
	t.Helper()
	head, _, ok := strings.Cut(doc, "</head>")
	if !ok {
		t.Fatal("no </head>")
	}
	for attr, want := range map[string]int{
		`name="description"`: 1, `property="og:title"`: 1, `property="og:description"`: 1,
		`property="og:type"`: 1, `property="og:url"`: 1, `property="og:image"`: 0,
		`name="twitter:card"`: 1, `name="twitter:title"`: 1, `name="twitter:description"`: 1,
	} {
		if n := strings.Count(head, " "+attr); n != want {
			t.Errorf("the head holds %d tags with %s, want %d", n, attr, want)
		}
	}
}

// SplitLink is a result's link and its JSON without link and link_note.
func SplitLink(t testing.TB, raw []byte) (string, []byte) {
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

// Fetch sends a method request for u (with If-None-Match etag when not
// "", and no content coding) and returns the answer and its body.
func Fetch(t testing.TB, client *http.Client, method, u, etag string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "identity")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	return Do(t, client, req)
}

// Do sends req with client and returns the answer and its whole body; a
// request that fails, or a body that cannot be read, fails t and stops
// there.
func Do(t testing.TB, client *http.Client, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	return resp, b
}

// FetchPage GETs the rendered page of link with client: a status other
// than 200 fails t and stops there; an answer that is not HTML under the
// site's Content-Security-Policy fails t.
func FetchPage(t testing.TB, client *http.Client, link string) (*http.Response, []byte) {
	t.Helper()
	resp, body := Fetch(t, client, http.MethodGet, link, "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", link, resp.StatusCode, body)
	}
	if resp.Header.Get("Content-Security-Policy") == "" || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("headers %v: want the site's CSP and text/html", resp.Header)
	}
	return resp, body
}
