package page

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// checkCheck compares the page's check with res, as checkPage does, but
// for one artefact of go-app's native rendering: it writes an attribute
// whose value is "true" as a bare name, and so one whose value is "" (the
// renamed_from of a test that was not renamed); the browser reads "" (the
// end-to-end test, site/quarantine_e2e_test.go, holds it there).
func checkCheck(t *testing.T, c app.UI, res *quarantine.Result) map[string]string {
	t.Helper()
	page, diffs := fieldDiffs(t, c, "check", jsonOf(t, res))
	for _, d := range diffs {
		if strings.HasSuffix(d, `.renamed_from: page shows "true", result has ""`) {
			continue
		}
		t.Error(d)
	}
	if len(page) < 50 {
		t.Errorf("only %d figures on the page", len(page))
	}
	return page
}

// weekRegistry is core/quarantine's sample registry, as a team commits it.
func weekRegistry(t testing.TB) []byte {
	t.Helper()
	return repoFile(t, "core/quarantine/testdata/registry.json")
}

// weekRegistryOn is weekRegistry as quarantine.Parse reads it on today.
func weekRegistryOn(t testing.TB, today string) *quarantine.Registry {
	t.Helper()
	reg, err := quarantine.Parse(weekRegistry(t), today)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestQuarantinePageShowsEveryFigure(t *testing.T) {
	c, e := newPage[quarantineT](t)
	// The defaults: docs/STATISTICS.md's figure, 299 clean runs prove a rate below
	// 1% at 95% at one look (1 − 0.99^299 ≥ 0.95 > 1 − 0.99^298), and 361
	// by the registry's rule checked after every run; core/quarantine's
	// TestCleanRunsExact and TestCleanRunsChecked hold both to exact
	// rational arithmetic.
	want, err := quarantine.CleanRunsFor(0.01, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if page := checkPage(t, c, "rule", want); page["rule.clean_runs"] != "299" || page["rule.clean_runs_checked"] != "361" {
		t.Errorf("clean runs %q and %q, want 299 and 361", page["rule.clean_runs"], page["rule.clean_runs_checked"])
	}
	c.SetField(c.ctx, "below", "0.1%")
	settle(e, c.ctx)
	if page := checkPage(t, c, "rule", &quarantine.CleanRunsResult{Below: 0.001, Confidence: 0.95, CleanRuns: 2995, CleanRunsChecked: 3621, Warnings: []string{}}); page["rule.clean_runs"] != "2995" || page["rule.clean_runs_checked"] != "3621" {
		t.Errorf("clean runs %q for 0.1%%, want 2995 ((1−0.001)^N ≤ 0.05, docs/STATISTICS.md)", page["rule.clean_runs"])
	}
	c.SetField(c.ctx, "below", "0")
	settle(e, c.ctx)
	if html := app.HTMLString(c); !strings.Contains(html, `data-error="below"`) || strings.Contains(html, `data-scope="rule"`) {
		t.Errorf("a rate of 0 shows no error at its field, or a result:\n%s", html)
	}
	c.SetField(c.ctx, "below", "0.01")

	// A registry dropped on the page is checked on the form's date.
	c.SetField(c.ctx, "today", "2026-12-02")
	data := weekRegistry(t)
	c.SetRegistry(c.ctx, "quarantine.json", data)
	settle(e, c.ctx)
	reg := weekRegistryOn(t, "2026-12-02")
	opt := quarantine.DefaultOptions
	opt.Today = "2026-12-02"
	res, _, err := quarantine.Check(reg, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Without reports the page gives the CLI's caveat, as `flakegate
	// quarantine check` without report files does.
	res.Warnings = append(res.Warnings, words.NoReportsCaveat)
	checkCheck(t, c, res)
	link := c.ctx.Page().URL()
	if !strings.Contains(link.Fragment, "registry=") || !strings.Contains(link.Fragment, "today=2026-12-02") {
		t.Fatalf("the link lacks the registry or the date: %s", link)
	}

	// A fresh page on the link shows the same check.
	d := &quarantineT{}
	e2 := reopen(t, d, link)
	checkCheck(t, d, res)

	// Another date on the same link: TestLogin expires 2026-12-15.
	later := *link
	later.Fragment = strings.Replace(link.Fragment, "today=2026-12-02", "today=2026-12-20", 1)
	follow(e2, d.ctx, d, &later)
	opt.Today = "2026-12-20"
	res20, _, _ := quarantine.Check(reg, nil, opt)
	res20.Warnings = append(res20.Warnings, words.NoReportsCaveat)
	if res20.States.Expired != 1 {
		t.Fatalf("on 2026-12-20 %d tests expired, want 1", res20.States.Expired)
	}
	checkCheck(t, d, res20)

	// A damaged link says so at the registry, without a table.
	expectDamagedLink(t, e2, d, link, "registry", "check")

	// A registry with a fault: its file, line and column, and the
	// registry's words for it; nothing of the earlier check stays on the page.
	broken := strings.Replace(string(data), `"owner": "@payments",`, `"owner": "@payments", "ower": "x",`, 1)
	c.SetRegistry(c.ctx, "quarantine.json", []byte(broken))
	settle(e, c.ctx)
	html := app.HTMLString(c)
	if !strings.Contains(html, `data-error="registry"`) || !strings.Contains(html, "quarantine.json:32:") || !strings.Contains(html, `unknown field &#34;ower&#34;`) || strings.Contains(html, `data-scope="check"`) {
		t.Errorf("a registry's unknown field is not reported with its place:\n%s", html)
	}
}

// A check made elsewhere (the CLI, the API) with new reports and renames
// reopens on the page with every figure: the state carries the night's
// counts and the settings.
func TestQuarantineLinkWithReports(t *testing.T) {
	reg := weekRegistryOn(t, "2026-12-02")
	rep := &quarantine.Reports{Runs: 2, Warnings: []string{"a caveat of the reports"}, Tests: map[string][]core.Count{
		"example.com/shop/cart.TestCheckout": {{Passed: 3, Trials: 3}, {Passed: 2, Trials: 3}},
		"example.com/shop/auth.TestSignIn":   {{Passed: 3, Trials: 3}, {Passed: 3, Trials: 3}},
	}}
	opt := quarantine.DefaultOptions
	opt.Today, opt.Comparable, opt.Budget.Cap = "2026-12-02", 0.25, 5
	opt.Renames = map[string]string{"example.com/shop/auth.TestLogin": "example.com/shop/auth.TestSignIn"}
	res, _, err := quarantine.Check(reg, rep, opt)
	if err != nil {
		t.Fatal(err)
	}
	v, err := share.Quarantine(opt.Today, share.NewQuarantineState(reg, rep, opt))
	if err != nil || v.Left != "" {
		t.Fatalf("view %+v: %v", v, err)
	}
	u := mustURL(t, "http://localhost"+v.Path+"#"+v.Fragment)
	c := &quarantineT{}
	reopen(t, c, u)
	page := checkCheck(t, c, res)
	if page["check.tests.0.renamed_from"] != "example.com/shop/auth.TestLogin" || page["check.reports"] != "true" {
		t.Errorf("the rename or the reports are not on the page: %v", page)
	}
}

// A share's JSON is read strictly: what it accepts, the check can use
// without a panic, and a registry it accepts is one quarantine.Parse
// accepts.
func FuzzQuarantineShareJSON(f *testing.F) {
	reg := weekRegistryOn(f, "2026-12-02")
	s := share.NewQuarantineState(reg, &quarantine.Reports{Runs: 1, Tests: map[string][]core.Count{"a": {{Passed: 1, Trials: 2}}}}, quarantine.DefaultOptions)
	s.Version = 1
	raw, _ := json.Marshal(s)
	f.Add(raw)
	f.Add([]byte(`{"v":1,"registry":{"version":1,"tests":[]},"comparable":0.5,"target":0.95,"cap":3}`))
	f.Add([]byte(`{"v":1,"registry":{"version":1,"tests":[]},"reports":{"runs":-1}}`))
	f.Add([]byte(`{"v":2}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := share.ParseQuarantineJSON(raw)
		if err != nil {
			return
		}
		var b strings.Builder
		if err := quarantine.Write(&b, s.Registry); err != nil {
			t.Fatal(err)
		}
		if _, err := quarantine.Parse([]byte(b.String()), "9999-12-31"); err != nil {
			t.Fatalf("an accepted registry does not read back: %v", err)
		}
		quarantine.Check(s.Registry, s.Reports, s.Options("2026-12-02"))
	})
}
