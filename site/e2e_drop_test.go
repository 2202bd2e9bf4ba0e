//go:build integration

package main

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/wasm/page/webtest"
)

// dropFile is a file a test drags onto a drop zone.
type dropFile struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

func fileOf(t *testing.T, path string) dropFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return dropFile{Name: filepath.Base(path), Text: string(b)}
}

// dragOnto drags files onto the drop zone #drop-<zone> as a person does:
// dragenter, dragover (repeatedly, as a hovering drag fires it) and drop,
// each a DragEvent carrying one DataTransfer that holds the files. Once the drop is dispatched the test empties the
// DataTransfer, as the browser does with a real drag's data once its drop
// event has been dispatched (its drag data store is then protected): a
// page that reads the files later, outside the event, finds none. It
// fails unless the page cancelled dragover and drop (without which the
// browser opens the file instead).
func dragOnto(t *testing.T, ctx context.Context, zone string, files ...dropFile) {
	t.Helper()
	list, err := json.Marshal(files)
	if err != nil {
		t.Fatal(err)
	}
	js := `(() => {
  const zone = document.getElementById('drop-` + zone + `');
  if (!zone) return 'no drop zone #drop-` + zone + `';
  zone.scrollIntoView();
  const dt = new DataTransfer();
  for (const f of ` + string(list) + `) dt.items.add(new File([f.text], f.name));
  const at = zone.querySelector('label') || zone;
  const send = (type) => {
    const e = new DragEvent(type, {bubbles: true, cancelable: true, composed: true, dataTransfer: dt});
    at.dispatchEvent(e);
    return e.defaultPrevented;
  };
  send('dragenter');
  // A drag fires dragover again and again while it hovers: each is an
  // event the page handles (go-app renders after each), and the drop
  // comes among them.
  let over = true;
  for (let i = 0; i < 8; i++) over = send('dragover') && over;
  const drop = send('drop');
  dt.items.clear();
  if (!over) return 'dragover was not cancelled';
  if (!drop) return 'drop was not cancelled';
  return '';
})()`
	if msg := evalJS[string](t, ctx, js); msg != "" {
		t.Fatalf("dragging onto #drop-%s: %s", zone, msg)
	}
}

// waitText waits until js (a string expression) equals want, and reports
// what it was otherwise.
func waitText(t *testing.T, ctx context.Context, what, js, want string) {
	t.Helper()
	if err := webtest.Poll(ctx, 20*time.Second, `(`+js+`) === `+jsQuote(want)); err != nil {
		t.Errorf("%s: %q, want %q", what, evalJS[string](t, ctx, `String(`+js+`)`), want)
	}
}

func jsQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// mdFirstLine is the first line of a Markdown summary, its bold removed:
// the answer sentence.
func mdFirstLine(md string) string {
	line, _, _ := strings.Cut(md, "\n")
	return strings.TrimSuffix(strings.TrimPrefix(line, "**"), "**")
}

// answerLeadJS is the answer sentence at the top of a page: the lead of
// its answer box (the A/A page's is its answer text).
const answerLeadJS = `(document.querySelector('#answer .lead') || document.getElementById('answer-text'))?.textContent`
const markdownLeadJS = `document.getElementById('markdown')?.textContent.split('\n')[0].replace(/^\*\*|\*\*$/g, '')`

// Every drop zone of every page takes files dragged onto it, at both
// widths, and the page then answers for them.
func TestPageDropZonesTakeDraggedFiles(t *testing.T) {
	reports := filepath.Join(repoRoot(), "core", "report", "testdata", "reports", "gotest")
	count5, seed2 := filepath.Join(reports, "count5.json"), filepath.Join(reports, "seed2.json")
	registry := filepath.Join(repoRoot(), "core", "quarantine", "testdata", "registry.json")
	logs := filepath.Join(repoRoot(), "core", "compare", "testdata", "logs")
	logA := filepath.Join(logs, "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl")
	logB := filepath.Join(logs, "samples_arith_gen_2026-12-02T10-00-00.000001.jsonl")
	base := dropFile{"base.csv", aaCSV(60, 8, func(s, r int) bool { return (s*13+r*7)%17 == 0 || (s%9 == 0 && r%2 == 1) })}
	cand := dropFile{"cand.csv", aaCSV(60, 5, func(s, r int) bool { return (s*11+r*5)%9 == 0 })}
	atEachWidth(t, func(t *testing.T, ctx context.Context, srv *httptest.Server, phone bool) {
		t.Run("decide", func(t *testing.T) {
			open(t, ctx, srv.URL+"/decide")
			dragOnto(t, ctx, "ledger", fileOf(t, count5))
			dragOnto(t, ctx, "patched-reports", fileOf(t, seed2))
			waitFor(t, ctx, `document.getElementById('ledger-files')?.children.length === 2`)
			want := mdFirstLine(string(cli(t, "ledger", "-markdown", count5, "-patched", seed2)))
			waitText(t, ctx, "the answer", answerLeadJS, want)
			waitText(t, ctx, "the Markdown's first line", markdownLeadJS, want)
			// The browser's own drag (Input.dispatchDragEvent), whose
			// files are readable only while the drop is dispatched.
			open(t, ctx, srv.URL+"/decide")
			abs5, _ := filepath.Abs(count5)
			abs2, _ := filepath.Abs(seed2)
			dropOn(t, ctx, "drop-ledger", abs5)
			// The page moves once the file is read: the next drop aims
			// at where the zone is then.
			waitFor(t, ctx, `document.getElementById('ledger-files')?.children.length === 1`)
			settled(t, ctx)
			dropOn(t, ctx, "drop-patched-reports", abs2)
			waitText(t, ctx, "the answer after the browser's drag", answerLeadJS, want)
		})
		t.Run("aa", func(t *testing.T) {
			open(t, ctx, srv.URL+"/aa")
			dragOnto(t, ctx, "baseline", base)
			waitFor(t, ctx, `!!document.querySelector('[data-field=scenarios]')`)
			dragOnto(t, ctx, "candidate", cand)
			waitFor(t, ctx, `!!document.querySelector('[data-scope=candidate] [data-field=verdict]')`)
		})
		t.Run("compare", func(t *testing.T) {
			open(t, ctx, srv.URL+"/compare")
			dragOnto(t, ctx, "compare-a", fileOf(t, logA))
			dragOnto(t, ctx, "compare-b", fileOf(t, logB))
			waitText(t, ctx, "the comparison's answer", answerLeadJS, mdFirstLine(string(cli(t, "compare", "-markdown", logA, logB))))
		})
		t.Run("quarantine", func(t *testing.T) {
			open(t, ctx, srv.URL+"/quarantine#today=2026-12-01")
			dragOnto(t, ctx, "registry", fileOf(t, registry))
			waitFor(t, ctx, `!!document.getElementById('check')`)
			dragOnto(t, ctx, "reports", fileOf(t, count5), fileOf(t, seed2))
			waitFor(t, ctx, `document.getElementById('report-files')?.children.length === 2`)
		})
	})
}
