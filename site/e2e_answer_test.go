//go:build integration

package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/flakegate/flakegate/wasm/page"
	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// The budget and decide pages as a reviewer meets them, at a laptop's and a
// phone's width: the answer first in words, every term explained, input as
// people write it, a phone without sideways scrolling, test reports of
// both arms, and examples a click away.

// atEachWidth runs f in a fresh browser context at each width of widths.
func atEachWidth(t *testing.T, f func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool)) {
	browser, srv := browseSite(t)
	atWidths(t, browser, func(t *testing.T, ctx context.Context, w width) {
		console := webtest.Watch(ctx)
		f(t, ctx, srv, w.phone)
		for _, e := range console.Errors() {
			t.Errorf("console: %s", e)
		}
	})
}

func waitFor(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	poll(t, ctx, 10*time.Second, js)
}

// answerText is the text of the answer box, which must come before the
// first table and the first plot of the result.
const answerFirstJS = `(() => {
  const a = document.getElementById('answer');
  if (!a) return 'no answer';
  for (const el of document.querySelectorAll('#result table, #result svg')) {
    if (!(a.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) return 'the answer is not before ' + el.tagName;
  }
  return a.className + ' :: ' + a.innerText;
})()`

// termsJS is the text of the page's explained terms.
const termsJS = `document.querySelector('.terms').innerText`

// says checks that text, which is what, holds each of want.
func says(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

// The machine names of the JSON that a person must never read on a page.
var jargon = []string{"no-detectable-change", "no-claim", "property-check-owed", "refuse-green", "observed_upper", "underpowered"}

func noJargon(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	text := evalJS[string](t, ctx, `document.querySelector('main').innerText`)
	for _, j := range jargon {
		if strings.Contains(text, j) {
			t.Errorf("%s: the page shows %q", where, j)
		}
	}
}

// Problem 5: the answer first, in words a reviewer can paste, with every
// term explained beside it; no machine name on the page, and no green box
// for a verdict that shows nothing.
func TestPageAnswerFirst(t *testing.T) {
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		// The articles' two-arm case: the intervals overlap.
		open(t, ctx, srv.URL+"/decide#baseline=10%2F20&patched=17%2F20")
		got := evalJS[string](t, ctx, answerFirstJS)
		// The sentences are words.DecideAnswer and words.SizeSentence; 28
		// trials per arm for 50% against 85% is docs/STATISTICS.md's figure.
		says(t, "the decide answer", got,
			"The gate does not block, but the patch cannot claim a flake fix: the 95% Wilson intervals of 10/20 (50.0%) and 17/20 (85.0%) overlap, so no change is shown.",
			"28 trials per arm separate pass rates of 50.0% and 85.0%")
		if strings.HasPrefix(got, "answer good") {
			t.Errorf("a verdict that shows nothing is in a green box: %q", got)
		}
		says(t, "the terms explained", evalJS[string](t, ctx, termsJS), "No change shown", "Passes, no claim", "Wilson interval")
		noJargon(t, ctx, "decide 10/20 17/20")

		// Improved without the property check: the gate waits for it.
		open(t, ctx, srv.URL+"/decide#baseline=30%2F60&patched=51%2F60")
		got = evalJS[string](t, ctx, answerFirstJS)
		if !strings.Contains(got, "accept the improvement only once a deterministic property check passes") || !strings.HasPrefix(got, "answer note") {
			t.Errorf("improved, check owed: %q", got)
		}
		says(t, "the terms explained", evalJS[string](t, ctx, termsJS), "Property check")
		noJargon(t, ctx, "decide 30/60 51/60")
		// Too few trials: 60 per arm against a minimum of 61.
		typeIn(t, ctx, "in-min_trials", "61")
		waitFor(t, ctx, `document.querySelector('[data-field=verdict]')?.getAttribute('value') === 'underpowered'`)
		noJargon(t, ctx, "decide underpowered")

		// The budget: a 2% flake against 3 reruns at 8 s a run. The
		// figures are docs/STATISTICS.md's (Rerun budget): 1 − 0.98³ = 5.9%; 149 reruns reach 95%
		// (0.98^149 = 0.0494, so 95.1%), 149 × 8 s = 19.9 min, a lane of 61..300.
		open(t, ctx, srv.URL+"/#cost=8&rates=0.02")
		got = evalJS[string](t, ctx, answerFirstJS)
		says(t, "the budget answer", got,
			"The gate blocks: this flake needs more reruns than your cap of 3 reruns",
			"Your 3 reruns catch a 2.0% flake 5.9% of the time; 149 reruns catch it 95.1% of the time (19.9 min at 8 s): refuse the green")
		if !strings.HasPrefix(got, "answer bad") {
			t.Errorf("a gate that cannot see the flake is not marked: %q", got)
		}
		says(t, "the terms explained", evalJS[string](t, ctx, termsJS), "Detection power", "Rerun cap", "Refuse the green")
		if lane := evalJS[string](t, ctx, `document.querySelector('[data-field=lane]').textContent`); lane != "refuse the green" {
			t.Errorf("lane shown as %q", lane)
		}
		noJargon(t, ctx, "budget")
		// Plain headings, in order: the table, the plot, the details.
		if h := evalJS[string](t, ctx, `[...document.querySelectorAll('#result h2')].map(h => h.textContent).join(' | ')`); h != "Reruns for each failure rate | Detection power against reruns | Details | Share" {
			t.Errorf("headings %q", h)
		}
	})
}

// overflowJS lists what a reader would have to scroll sideways to see:
// the page itself, and any table inside its scroll box.
const overflowJS = `(() => {
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push('page ' + document.documentElement.scrollWidth + ' > ' + window.innerWidth);
  for (const w of document.querySelectorAll('.table-wrap')) {
    if (w.scrollWidth > w.clientWidth + 1) out.push('table ' + (w.querySelector('caption')||{}).textContent + ' ' + w.scrollWidth + ' > ' + w.clientWidth);
  }
  return out.join('; ');
})()`

// smallTargetsJS lists the controls smaller than 44 × 44 CSS px (WCAG 2.5.5)
// among those shown.
const smallTargetsJS = `(() => {
  const out = [];
  for (const el of document.querySelectorAll('button, input, select, textarea, summary, nav a, a.brand')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.height < 44 || r.width < 44) out.push((el.id || el.tagName) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
  }
  return out.join('; ');
})()`

// smallTextJS lists the plot labels drawn smaller than 12 px: the font
// size in the SVG's units, scaled as the SVG is.
const smallTextJS = `(() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg.plot')) {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    for (const tx of svg.querySelectorAll('text')) {
      const px = parseFloat(getComputedStyle(tx).fontSize) * scale;
      if (px < 12) { out.push(tx.textContent + ' ' + px.toFixed(1) + 'px'); break; }
    }
  }
  return out.join('; ');
})()`

// Problem 6: on a phone the answer, the lane and what to do are on screen
// without sideways scrolling (the table becomes cards), plot text is at
// least 12 px and every control at least 44 px; at 1280 px too.
func TestPagePhone(t *testing.T) {
	reports := filepath.Join(repoRoot(), "core", "report", "testdata", "reports", "junit")
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		for _, u := range []string{"/#cost=8&rates=0.05%2C0.02%2C0.001&observe=1%2F120", "/decide"} {
			open(t, ctx, srv.URL+u)
			if _, err := webtest.OpenAll(ctx); err != nil {
				t.Fatal(err)
			}
			if u == "/decide" {
				upload(t, ctx, "file-ledger", filepath.Join(reports, "pytest.xml"))
				waitFor(t, ctx, `!!document.querySelector('[data-scope=ledger] [data-field=nodeid]')`)
			}
			if o := evalJS[string](t, ctx, overflowJS); o != "" {
				t.Errorf("%s: scrolls sideways: %s", u, o)
			}
			if s := evalJS[string](t, ctx, smallTargetsJS); s != "" {
				t.Errorf("%s: targets under 44 px: %s", u, s)
			}
			if s := evalJS[string](t, ctx, smallTextJS); s != "" {
				t.Errorf("%s: plot text under 12 px: %s", u, s)
			}
		}
		// The budget's lane and action of every row are inside the
		// screen's width.
		open(t, ctx, srv.URL+"/#cost=8&rates=0.05%2C0.02%2C0.001")
		out := evalJS[string](t, ctx, `[...document.querySelectorAll('[data-field=lane], [data-field=action], #answer')].filter(el => { const r = el.getBoundingClientRect(); return r.right > window.innerWidth + 1 || r.left < 0; }).map(el => el.textContent).join('; ')`)
		if out != "" {
			t.Errorf("off screen: %s", out)
		}
		cards := evalJS[string](t, ctx, `getComputedStyle(document.querySelector('table.cards tr')).display`)
		if phone != (cards == "flex") {
			t.Errorf("phone %v: the budget's rows display as %q", phone, cards)
		}
	})
}

func upload(t *testing.T, ctx context.Context, id string, files ...string) {
	t.Helper()
	abs := make([]string, len(files))
	for i, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		abs[i] = a
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID(id), abs)); err != nil {
		t.Fatal(err)
	}
}

// errorAt is the message shown at a field once it appears.
func errorAt(t *testing.T, ctx context.Context, key string, ok func(string) bool) string {
	t.Helper()
	// Typing sends one key at a time and the page answers each: the message
	// for "9" comes before the one for "9x". Wait until the message is the
	// one the test expects, or report the last one seen.
	waitFor(t, ctx, `!!document.querySelector('[data-error="`+key+`"]')`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		msg := evalJS[string](t, ctx, `(document.querySelector('[data-error="`+key+`"]') || {textContent: ''}).textContent`)
		if ok(msg) || time.Now().After(deadline) {
			return msg
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Problem 7: rates as people write them (spaces, commas, line breaks,
// percentages), errors in the field's own words, single values without
// columns, no prefix said twice, plurals that agree.
func TestPageInputAsWritten(t *testing.T) {
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		open(t, ctx, srv.URL+"/")
		want := cli(t, "budget", "-json", "-rates", "0.05,0.02,0.01")
		for _, typed := range []string{"0.05 0.02 0.01", "5%, 2%, 1%", "0.05;0.02; 0.01"} {
			typeIn(t, ctx, "in-rates", typed)
			expectFields(t, ctx, "rates "+typed, "", want)
		}
		// A paste of one rate a line: the line breaks separate the rates.
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID("in-rates")),
			chromedp.Evaluate[chromedp.Void](`document.getElementById('in-rates').select()`, chromedp.EvalAsValue)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: "0.05\n0.02\n0.01"}); err != nil {
			t.Fatal(err)
		}
		expectFields(t, ctx, "rates pasted one a line", "", want)

		// Messages in the field's terms.
		typeIn(t, ctx, "in-observe", "abc")
		// The one wording every surface gives (core/param), without a
		// column for a single value.
		if msg := errorAt(t, ctx, "observe", func(m string) bool { return m == `want fails/runs such as 1/120, got "abc"` }); msg != `want fails/runs such as 1/120, got "abc"` {
			t.Errorf("observe: %q", msg)
		}
		typeIn(t, ctx, "in-observe", "5/3")
		if msg := errorAt(t, ctx, "observe", func(m string) bool { return m == "5 is more than the 3 runs" }); msg != "5 is more than the 3 runs" {
			t.Errorf("observe 5/3: %q", msg)
		}
		typeIn(t, ctx, "in-observe", "")
		typeIn(t, ctx, "in-target", "9x")
		if msg := errorAt(t, ctx, "target", func(m string) bool { return strings.Contains(m, `"9x"`) }); strings.Contains(msg, "column") || !strings.Contains(msg, `"9x" is not a number`) {
			t.Errorf("target 9x: %q", msg)
		}
		typeIn(t, ctx, "in-target", "95%")
		typeIn(t, ctx, "in-rates", "0.05 0.0x")
		if msg := errorAt(t, ctx, "rates", func(m string) bool { return strings.Contains(m, `"0.0x"`) }); !strings.Contains(msg, `rate 2: "0.0x" is not a number`) {
			t.Errorf("rates: %q", msg)
		}
		// The answer in a test runner's own setting: gotestsum's
		// --rerun-fails=2 as the CLI's -runner gotestsum=2 reads it.
		typeIn(t, ctx, "in-rates", "0.05 0.02 0.01")
		if err := webtest.Select(ctx, "in-runner", "gotestsum"); err != nil {
			t.Fatal(err)
		}
		typeIn(t, ctx, "in-setting", "2")
		expectFields(t, ctx, "runner", "", cli(t, "budget", "-json", "-runner", "gotestsum=2", "-rates", "0.05,0.02,0.01"))
		if err := webtest.Select(ctx, "in-runner", ""); err != nil {
			t.Fatal(err)
		}
		typeIn(t, ctx, "in-setting", "")
		// One failure, one run: words that agree.
		typeIn(t, ctx, "in-rates", "")
		typeIn(t, ctx, "in-observe", "1/1")
		waitFor(t, ctx, `(document.querySelector('.observed') || {textContent: ''}).textContent.startsWith('Observed 1 failure in 1 run')`)
		if obs := evalJS[string](t, ctx, `document.querySelector('.observed').textContent`); !strings.HasPrefix(obs, "Observed 1 failure in 1 run:") {
			t.Errorf("observed: %q", obs)
		}

		open(t, ctx, srv.URL+"/decide")
		typeIn(t, ctx, "in-baseline", "ten/20")
		if msg := errorAt(t, ctx, "baseline", func(m string) bool { return strings.Contains(m, "passed") }); !strings.Contains(msg, "passed") || strings.HasPrefix(msg, "baseline:") {
			t.Errorf("baseline: %q", msg)
		}
		typeIn(t, ctx, "in-baseline", "10/20")
		typeIn(t, ctx, "in-confidence", "90%")
		expectFields(t, ctx, "decide at 90%", "", cli(t, "decide", "-json", "-baseline", "10/20", "-patched", "17/20", "-confidence", "0.9"), "size", "ledger")
		// No message repeats its field's name or a prefix.
		for _, k := range []string{"min_trials", "confidence"} {
			typeIn(t, ctx, "in-"+k, "0")
			waitFor(t, ctx, `!!document.querySelector('[data-error="`+k+`"]')`)
		}
		msgs := evalJS[string](t, ctx, `[...document.querySelectorAll('[data-error]')].map(e => e.dataset.error + '=' + e.textContent).join('\n')`)
		for _, m := range strings.Split(msgs, "\n") {
			k, msg, _ := strings.Cut(m, "=")
			if strings.Contains(msg, k+":") || strings.Contains(msg, "column") {
				t.Errorf("%s: %q", k, msg)
			}
		}
	})
}

// Problem 8: test reports of any format, several per arm, give every
// test's verdict; the files are named; the tests are in the Markdown and
// in the link, which reopens them in a fresh tab.
func TestPageDecideReports(t *testing.T) {
	// The reports, beside each other, so that the CLI, run there, names
	// each file's run as the page does: by the file's name.
	src := filepath.Join(repoRoot(), "core", "report", "testdata", "reports")
	dir := t.TempDir()
	for _, f := range []string{"junit/pytest.xml", "junit/pytest7_xunit2.xml", "junit/pytest_reruns.xml", "junit/pytest7_reruns.xml", "gotest/count5.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, filepath.Base(f), string(b))
	}
	baseNames := []string{"pytest.xml", "pytest7_xunit2.xml"}
	patchedNames := []string{"pytest_reruns.xml", "pytest7_reruns.xml", "count5.json"}
	args := []string{"ledger", "-json"}
	var base, patched []string
	for _, f := range baseNames {
		args = append(args, "-baseline", f)
		base = append(base, filepath.Join(dir, f))
	}
	for _, f := range patchedNames {
		args = append(args, "-patched", f)
		patched = append(patched, filepath.Join(dir, f))
	}
	_, bin := built(t)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	want, _ := cmd.Output() // a ledger whose gate blocks exits 1 with its JSON
	cmd = exec.Command(bin, append([]string{"ledger", "-markdown"}, args[2:]...)...)
	cmd.Dir = dir
	wantMD, _ := cmd.Output()
	var res struct {
		Tests []struct {
			NodeID string `json:"nodeid"`
		} `json:"tests"`
	}
	if err := json.Unmarshal(want, &res); err != nil || len(res.Tests) == 0 {
		t.Fatalf("CLI ledger: %v %s", err, want)
	}
	browser, srv := browseSite(t)
	atWidths(t, browser, func(t *testing.T, ctx context.Context, w width) {
		open(t, ctx, srv.URL+"/decide")
		upload(t, ctx, "file-ledger", base...)
		upload(t, ctx, "file-patched-reports", patched...)
		// The page reads the files, then names them: the figures are
		// compared once it has read them all, not after a fixed while (on
		// a busy machine reading the second arm's files took longer than
		// expectFields waits, and the page still showed the first arm
		// alone).
		var all []string
		for _, f := range append(base, patched...) {
			all = append(all, strconv.Quote(filepath.Base(f)))
		}
		poll(t, ctx, 90*time.Second, `((el) => !!el && [`+strings.Join(all, ", ")+`].every(n => el.innerText.includes(n)))(document.getElementById('ledger-files'))`)
		expectFields(t, ctx, "reports", "ledger", want)
		files := evalJS[string](t, ctx, `document.getElementById('ledger-files').innerText`)
		for _, f := range append(base, patched...) {
			if !strings.Contains(files, filepath.Base(f)) {
				t.Errorf("%s is not named: %q", filepath.Base(f), files)
			}
		}
		if !strings.Contains(files, "go test") && !strings.Contains(files, "gotest") {
			t.Errorf("formats not named: %q", files)
		}
		settled(t, ctx)
		link := location(t, ctx)
		if !strings.Contains(link, "ledger=") {
			t.Fatalf("the link holds no ledger: %s", link)
		}
		md := copied(t, ctx, "copy-md")
		says(t, "the Markdown", md, res.Tests[0].NodeID, "[Open in flakegate]("+link+")")
		// The reports are what the page judges: its Markdown is the
		// CLI's for them.
		if withoutLink(md) != string(wantMD) {
			t.Errorf("Markdown\n%s\n--- flakegate ledger -markdown prints\n%s", md, wantMD)
		}
		fresh := freshTab(t, browser, w)
		open(t, fresh, link)
		expectFields(t, fresh, "reports from the link", "ledger", want)
		if again := copied(t, fresh, "copy-md"); again != md {
			t.Errorf("the link copies\n%s\nwhere the page copied\n%s", again, md)
		}
		// A file that is no report is named, and the tests read stay.
		bad := writeFile(t, t.TempDir(), "notes.txt", "hello\n")
		upload(t, ctx, "file-patched-reports", bad)
		if msg := errorAt(t, ctx, "ledger", func(m string) bool { return strings.HasPrefix(m, "notes.txt") }); !strings.HasPrefix(msg, "notes.txt:1:1: not a report") {
			t.Errorf("bad file: %q", msg)
		}
		expectFields(t, ctx, "reports after a bad file", "ledger", want)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("clear-ledger"))); err != nil {
			t.Fatal(err)
		}
		waitFor(t, ctx, `!document.querySelector('[data-scope=ledger]') && !location.href.includes('ledger=')`)
	})
}

// Examples: one click each shows the articles' cases, and the link
// restores them in a fresh tab. The figures do not depend on the window:
// each example is clicked at one width, the two taken in turn.
func TestPageExamples(t *testing.T) {
	browser, srv := browseSite(t)
	for k, w := range widths {
		t.Run(w.name, func(t *testing.T) {
			for i, c := range []struct {
				path, id string
				json     []byte
				skip     []string
			}{
				{"/", "example-0", cli(t, "budget", "-json", "-observe", "1/120", "-cost", "8"), nil},
				{"/", "example-1", cli(t, "budget", "-json", "-rates", "0.02", "-cost", "8"), nil},
				{"/decide", "example-0", cli(t, "decide", "-json", "-baseline", "10/20", "-patched", "17/20"), []string{"size", "ledger"}},
				{"/decide", "example-1", cli(t, "decide", "-json", "-baseline", "30/60", "-patched", "51/60", "-property", "passed"), []string{"size", "ledger"}},
			} {
				if i%len(widths) != k {
					continue
				}
				ctx := freshTab(t, browser, w)
				open(t, ctx, srv.URL+c.path+"#cap=7&min_trials=5")
				if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID(c.id))); err != nil {
					t.Fatal(err)
				}
				expectFields(t, ctx, c.path+" "+c.id, "", c.json, c.skip...)
				settled(t, ctx)
				link := location(t, ctx)
				fresh := freshTab(t, browser, w)
				open(t, fresh, link)
				expectFields(t, fresh, c.path+" "+c.id+" link", "", c.json, c.skip...)
				chromedp.Cancel(fresh) // each case's two tabs are closed before the next case's
				chromedp.Cancel(ctx)
			}
		})
	}
}

// setTheme makes the tab's prefers-color-scheme theme ("light" or "dark").
func setTheme(t *testing.T, ctx context.Context, theme string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}}); err != nil {
		t.Fatal(err)
	}
}

// TestPageScreenshots saves every page (page.Pages) at both widths, light
// and dark, in $FLAKEGATE_SCREENSHOTS (or dist/e2e), each page showing its
// first example when it has one, and checks that none scrolls sideways in
// either theme. A phone's shot starts at the answer, at one device pixel
// per CSS pixel to keep the files small.
func TestPageScreenshots(t *testing.T) {
	out := os.Getenv("FLAKEGATE_SCREENSHOTS")
	if out == "" {
		out = artifacts(t)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"/": "budget"}
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		width := "1280"
		if phone {
			width = "390"
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(1))); err != nil {
				t.Fatal(err)
			}
		}
		// Each page is loaded once and shot in both themes: the theme is
		// CSS only (prefers-color-scheme), so switching it restyles the
		// page without a load (a load of the calculator is what the
		// browser tests' time is made of).
		for _, path := range page.Pages {
			name := names[path]
			if name == "" {
				name = strings.TrimPrefix(path, "/")
			}
			setTheme(t, ctx, "light")
			open(t, ctx, srv.URL+path)
			// The quarantine page shows a registry's night, its first
			// examples being release rules.
			pick := map[string]string{"/quarantine": "#example-3"}[path]
			if pick == "" {
				pick = "#example-0, button.example, #example-aa"
			}
			if evalJS[string](t, ctx, `(() => { const b = document.querySelector('`+pick+`'); if (b) b.click(); return String(!!b); })()`) == "true" {
				waitFor(t, ctx, `!!document.querySelector('[data-field]')`)
				settled(t, ctx)
			}
			for _, theme := range []string{"light", "dark"} {
				setTheme(t, ctx, theme)
				if got := evalJS[string](t, ctx, `matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'`); got != theme {
					t.Fatalf("%s: the page sees the %s theme, want %s", name, got, theme)
				}
				// The page itself never scrolls sideways (a wide table may
				// scroll in its own box; TestPagePhone holds the budget's
				// and the decide page's tables to none).
				if w := sideways(t, ctx); w > 0 {
					t.Errorf("%s %s: the page scrolls sideways by %d px", name, theme, w)
				}
				if phone {
					evalJS[string](t, ctx, `(() => { const a = document.querySelector('#answer, #result, .result'); if (a) window.scrollTo(0, a.getBoundingClientRect().top + window.scrollY - 12); return ''; })()`)
				}
				png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(out, name+"-"+width+"-"+theme+".png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
