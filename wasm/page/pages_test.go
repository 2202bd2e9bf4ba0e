package page

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/testfile"
	"github.com/flakegate/flakegate/wasm/page/fieldcheck"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Component tests: each calculator is loaded into go-app's test engine (no
// browser), driven through the same methods its event handlers call, and
// its rendered HTML is read back through data-field and compared with the
// core result's JSON, field by field, both ways. This file holds what the
// page tests share: the pages' wrappers, loading and driving a page, the
// comparison, and the test files they read.

// testCtx captures a page's context: natively, go-app hands it to
// OnPreRender when the test engine mounts the page. Each wrapper below
// embeds it beside its page.
type testCtx struct{ ctx app.Context }

func (p *testCtx) OnPreRender(ctx app.Context) { p.ctx = ctx }

func (p *testCtx) context() app.Context { return p.ctx }

type (
	budgetT struct {
		Budget
		testCtx
	}
	decideT struct {
		Decide
		testCtx
	}
	aaT struct {
		AA
		testCtx
	}
	quarantineT struct {
		Quarantine
		testCtx
	}
	compareT struct {
		Compare
		testCtx
	}
)

// testPage is a wrapped page: its component and its captured context.
type testPage interface {
	app.Composer
	OnNav(app.Context)
	context() app.Context
}

func load(t *testing.T, c app.Composer) app.TestEngine {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(c); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return e
}

// newPage is a fresh page of type P, loaded into a test engine of its own.
func newPage[P any, T interface {
	*P
	app.Composer
}](t *testing.T) (T, app.TestEngine) {
	t.Helper()
	c := T(new(P))
	return c, load(t, c)
}

// settle lets the page finish what an input started and render again.
func settle(e app.TestEngine, ctx app.Context) {
	e.ConsumeAll()
	ctx.Update()
	e.ConsumeAll()
}

// mustURL is the URL s, which the test wrote: one that does not parse
// fails the test.
func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// follow opens u on a loaded page, as following a link in its tab does:
// the address bar changes, the page gets its nav event and renders.
func follow(e app.TestEngine, ctx app.Context, page interface{ OnNav(app.Context) }, u *url.URL) {
	ctx.Page().ReplaceURL(u)
	page.OnNav(ctx)
	settle(e, ctx)
}

// reopen loads a fresh page p on link u, as a reader following a shared
// link does, and returns its engine.
func reopen(t *testing.T, p testPage, u *url.URL) app.TestEngine {
	t.Helper()
	e := load(t, p)
	follow(e, p.context(), p, u)
	return e
}

// expectDamagedLink opens link with the value of its key (a dropped file's
// state: "ledger", "registry") damaged on page p: the page says at the
// file's drop zone that this link's value could not be read, and shows no
// figures of it (none under scope).
func expectDamagedLink(t *testing.T, e app.TestEngine, p testPage, link *url.URL, key, scope string) {
	t.Helper()
	bad := *link
	bad.Fragment = strings.Replace(link.Fragment, key+"=", key+"=x", 1)
	follow(e, p.context(), p, &bad)
	html := app.HTMLString(p)
	if !strings.Contains(html, `data-error="`+key+`"`) || !strings.Contains(html, "this link&#39;s "+key+" could not be read") || strings.Contains(html, `data-scope="`+scope+`"`) {
		t.Errorf("a damaged %s in a link is not reported at its drop zone, or figures of it stay:\n%s", key, html)
	}
}

// paste pastes text as side i (0 baseline, 1 candidate) of a loaded A/A
// page and renders.
func paste(e app.TestEngine, c *aaT, i int, text string) {
	c.PasteSide(c.ctx, i, text)
	settle(e, c.ctx)
}

func jsonOf(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := core.WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkPage compares the page's figures under prefix with v's JSON.
func checkPage(t *testing.T, c app.UI, prefix string, v any, exclude ...string) map[string]string {
	t.Helper()
	page, diffs := fieldDiffs(t, c, prefix, jsonOf(t, v), exclude...)
	for _, d := range diffs {
		t.Error(d)
	}
	return page
}

// fieldDiffs is the figures c shows (fieldcheck.FromHTML) and how those
// under prefix differ from the JSON js (fieldcheck.Diff).
func fieldDiffs(t *testing.T, c app.UI, prefix string, js []byte, exclude ...string) (page map[string]string, diffs []string) {
	t.Helper()
	page, err := fieldcheck.FromHTML(app.HTMLString(c))
	if err != nil {
		t.Fatal(err)
	}
	if diffs, err = fieldcheck.Diff(page, prefix, js, exclude...); err != nil {
		t.Fatal(err)
	}
	return page, diffs
}

// repoFile is a file of the repository, at path from its root.
func repoFile(t testing.TB, path string) []byte {
	t.Helper()
	return testfile.Read(t, "../../"+path)
}

// aaCSV is an A/A CSV of scenarios × runs rows, failing where fail says.
func aaCSV(scenarios, runs int, fail func(s, r int) bool) string {
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for r := 0; r < runs; r++ {
		for s := 0; s < scenarios; s++ {
			p := "1"
			if fail(s, r) {
				p = "0"
			}
			b.WriteString("s" + itoa(s) + ",r" + itoa(r) + "," + p + "\n")
		}
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

// longAACSV is an A/A CSV of 3000 scenarios with long names in 3 runs: its
// statistics do not fit in an 8 KB link.
func longAACSV() string {
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for r := 0; r < 3; r++ {
		for s := 0; s < 3000; s++ {
			b.WriteString("tests/integration/some_long_module_name_" + itoa(s*7919%100003) + ",run" + itoa(r) + ",1\n")
		}
	}
	return b.String()
}
