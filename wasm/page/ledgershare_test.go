package page

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/internal/jsonref"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ledgerOf reads a ledger's JSON Lines as the CLI does.
func ledgerOf(t testing.TB, data []byte) *ledger.Ledger {
	t.Helper()
	l := ledger.New()
	if err := report.ReadLedger(bytes.NewReader(data), l); err != nil {
		t.Fatal(err)
	}
	return l
}

// readLedgerFile reads one of core/ledger's golden ledgers.
func readLedgerFile(t testing.TB, name string) *ledger.Ledger {
	t.Helper()
	return ledgerOf(t, repoFile(t, "core/ledger/testdata/ledger/"+name))
}

// ledgerResult tabulates the ledger data holds with opt: what the page's
// ledger table must show, by core/ledger's own reading.
func ledgerResult(t testing.TB, data []byte, opt ledger.Options) *ledger.Result {
	t.Helper()
	r, err := ledgerOf(t, data).Result(opt)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A link's ledger gives the verdicts of the file it was made from, figure
// for figure, in a few hundred bytes for these ledgers of 1 to 8 tests.
func TestLedgerShareRoundTrip(t *testing.T) {
	for _, name := range []string{"seed_20x20.jsonl", "messy.jsonl", "random_many.jsonl"} {
		l := readLedgerFile(t, name)
		enc, err := share.EncodeLedger(l.Summary())
		if err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(enc, "+/=%&#") {
			t.Errorf("%s: fragment value needs escaping: %q", name, enc)
		}
		s, err := share.DecodeLedger(enc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		opt := ledger.Options{MinTrials: 20, Confidence: 0.95, Property: core.PropertyPassed}
		want, _ := l.Result(opt)
		got, err := s.Result(opt)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(jsonOf(t, got), jsonOf(t, want)) {
			t.Errorf("%s: the link's ledger gives other verdicts than the file", name)
		}
		t.Logf("%s: %d tests, %d bytes of fragment", name, len(s.Tests), len(enc))
		if len(enc) > 1000 {
			t.Errorf("%s: %d bytes of fragment for %d tests", name, len(enc), len(s.Tests))
		}
	}
}

func TestLedgerShareJSONMatchesEncodingJSON(t *testing.T) {
	s := readLedgerFile(t, "messy.jsonl").Summary()
	s.Notes = append(s.Notes, "é \"quoted\" \\ ☃ 𝄞 </script>")
	compact, err := json.Marshal(LedgerShare{Version: 1, Ledger: *s})
	if err != nil {
		t.Fatal(err)
	}
	expectStdDecode(t, share.ReadLedgerJSON, map[string][]byte{
		"compact": compact,
		"nulls":   []byte(`{"v":1,"ledger":{"runs":null,"tests":[{"nodeid":"a","baseline":null,"patched":{"passed":null,"trials":2},"sides":null}],"skipped_calls":null,"other_arms":null,"notes":[]}}`),
		"empty":   []byte(` {"ledger":null} `),
		"sides":   []byte(`{"v":1,"ledger":{"tests":[{"nodeid":"a","sides":{"baseline":{"setup":1,"teardown":2,"errors":3},"patched":null}}]}}`),
	})
}

// A damaged or forged ledger in a link is an error that says so, never a
// table of wrong verdicts.
func TestDecodeLedgerShareRejects(t *testing.T) {
	pack := func(v any) string {
		s, err := share.Pack(v)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	forged := ledger.Summary{Tests: []ledger.TestCounts{{NodeID: "a", Baseline: core.Count{Passed: 5, Trials: 2}}}}
	for _, c := range []struct{ text, msg string }{
		{"***", "holds a character no link writes (character 1)"},
		{"AAAA", "its data is damaged, cut short or changed when copied"},
		{pack(LedgerShare{Version: 2}), "unknown version 2"},
		{pack(map[string]any{"v": 1, "ledger": map[string]any{"tests": []any{nil}}}), "ledger.tests[0]: malformed JSON: want an object, found 'n'"},
		{pack(map[string]any{"v": 1, "extra": 1}), `unknown field "extra"`},
		{pack(LedgerShare{Version: 1, Ledger: forged}), `test "a": 5 passed of 2 trials`},
	} {
		_, err := share.DecodeLedger(c.text)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: got %v, want an error saying %q", c.text, err, c.msg)
		}
	}
}

// FuzzLedgerShareJSON: whatever share.ReadLedgerJSON accepts,
// encoding/json decodes to the same share, and it reads its own encoding
// back.
func FuzzLedgerShareJSON(f *testing.F) {
	compact, _ := json.Marshal(LedgerShare{Version: 1, Ledger: *readLedgerFile(f, "messy.jsonl").Summary()})
	jsonref.Fuzz(f, share.ReadLedgerJSON, compact, []byte(`{"v":1,"ledger":{"tests":[],"other_arms":["x"],"notes":null}}`),
		[]byte(`{"ledger":{"tests":[{"nodeid":"\u00e9","baseline":{"passed":1,"trials":2}}]}}`), []byte(`{"v":1,"ledger":null}`), []byte(`[1]`))
}

// A ledger whose summary would not fit in a link is still tabulated; the
// page says the link holds the settings only, and the link has no ledger.
func TestDecideLedgerTooLongForALink(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		id := "tests/integration/test_module_" + itoa(i*7919%100003) + ".py::test_case"
		b.WriteString(`{"run": "b1", "arm": "baseline", "nodeid": "` + id + `", "when": "call", "outcome": "passed"}` + "\n")
		b.WriteString(`{"run": "p1", "arm": "patched", "nodeid": "` + id + `", "when": "call", "outcome": "failed"}` + "\n")
	}
	c, e := newPage[decideT](t)
	c.SetLedger(c.ctx, "big.jsonl", []byte(b.String()))
	settle(e, c.ctx)
	html := app.HTMLString(c)
	if !strings.Contains(html, `id="ledger-no-link"`) || !strings.Contains(html, `data-scope="ledger"`) {
		t.Errorf("too long a ledger: no note, or no table")
	}
	if f := c.ctx.Page().URL().Fragment; strings.Contains(f, "ledger=") || len(f) > MaxShareFragment {
		t.Errorf("the link holds %d bytes: %.80s…", len(f), f)
	}
}
