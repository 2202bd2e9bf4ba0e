package page

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// logsDir holds eval logs in each harness's format; core/compare's
// logs_test.go checks their comparisons by hand.
const logsDir = "../../core/compare/testdata/logs/"

func openLogs(t *testing.T, names ...string) []io.Reader {
	t.Helper()
	var out []io.Reader
	for _, n := range names {
		f, err := os.Open(logsDir + n)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		out = append(out, f)
	}
	return out
}

// TestComparePage: logs dropped on both sides give the CLI's answer (the
// lm-eval fixture: 6 wrong to right, 2 right to wrong, McNemar p = 0.29),
// the address bar then holds a link, and following that link in a fresh
// page gives the same result, bit for bit.
func TestComparePage(t *testing.T) {
	a, b := "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl", "samples_arith_gen_2026-12-02T10-00-00.000001.jsonl"
	c, e := newPage[compareT](t)
	c.ReadLogs(c.ctx, 0, []string{a}, openLogs(t, a))
	c.ReadLogs(c.ctx, 1, []string{b}, openLogs(t, b))
	settle(e, c.ctx)
	res := c.Result()
	if res == nil || res.McNemar == nil || res.McNemar.WrongToRight != 6 || res.McNemar.RightToWrong != 2 {
		t.Fatalf("result %+v, error %v, sides %+v", res, c.err, c.sides)
	}
	html := app.HTMLString(c)
	if !strings.Contains(html, "B answers 20.0 points more questions right") || !strings.Contains(html, "McNemar p = 0.29") {
		t.Errorf("the answer is not on the page:\n%s", html)
	}
	frag := fragmentOf(c.ctx.Page().URL())
	if !strings.HasPrefix(frag, "compare=") {
		t.Fatalf("the address bar holds %q", frag)
	}

	d, e2 := newPage[compareT](t)
	u := mustURL(t, "/compare#"+frag)
	follow(e2, d.ctx, d, u)
	if got := d.Result(); got == nil || string(jsonOf(t, got)) != string(jsonOf(t, withoutNotes(res))) {
		t.Errorf("the link's result differs:\n%s\nwant\n%s", jsonOf(t, got), jsonOf(t, withoutNotes(res)))
	}
}

// withoutNotes is r without the logs' reading notes, which a link does not
// carry: the comparison of the same tallies alone.
func withoutNotes(r *compare.Result) *compare.Result {
	c := *r
	var ws []string
	for _, w := range r.Warnings {
		if !strings.HasPrefix(w, "run ") {
			ws = append(ws, w)
		}
	}
	c.Warnings = ws
	return &c
}

// TestCompareShareRoundTrip: share.Compare's fragment decodes to the same
// sides and settings (clusters included), and a damaged or foreign link is
// refused with a message and clears the view.
func TestCompareShareRoundTrip(t *testing.T) {
	a, b := readLogsSide(t, "inspect-a.json"), readLogsSide(t, "inspect-b.json")
	opt := compare.DefaultOptions
	opt.Effect, opt.ClusterField = 0.05, "passage"
	opt.Clusters = map[string]string{"1": "p1", "2": "p1", "3": "p2", "4": "p2", "5": "p3", "6": "p3", "7": "p4", "8": "p4"}
	v, err := share.Compare(a, b, opt)
	if err != nil || !v.Linked() || v.Path != share.ComparePath {
		t.Fatalf("view %+v, err %v", v, err)
	}
	s, err := share.DecodeCompare(strings.TrimPrefix(v.Fragment, "compare="))
	if err != nil {
		t.Fatal(err)
	}
	a2, b2, opt2 := s.Sides()
	want, _ := compare.Compare(a, b, opt)
	got, err := compare.Compare(a2, b2, opt2)
	if err != nil || string(jsonOf(t, got)) != string(jsonOf(t, want)) || got.Cluster == nil {
		t.Errorf("round trip: %v\n%s\nwant\n%s", err, jsonOf(t, got), jsonOf(t, want))
	}
	for _, bad := range []struct{ state, msg string }{
		{`{"v":3,"a":[{"id":"q","passed":1,"total":1}],"b":[{"id":"q","passed":1,"total":1}]}`, "unknown version 3"},
		{`{"v":2,"a":[{"id":"q","passed":1,"total":1}],"b":[{"id":"q","passed":1,"total":1}]}`, "options: no cluster"},
		{`{"v":2,"a":[{"id":"q","passed":1,"total":1}],"b":[{"id":"q","passed":1,"total":1}],"options":{"cluster":"","effect":"0.02","level":"95%","max_listed":"100","power":"0.8","x":""}}`, `unknown option "x"`},
		{`{"v":2,"a":[{"id":"q","passed":1,"total":1}],"b":[{"id":"q","passed":1,"total":1}],"options":{"cluster":"","effect":"","level":"0.95","max_listed":"100","power":"0.8"}}`, "effect: required"},
		{`{"v":1,"a":[{"id":"q","passed":1,"total":1}],"b":[{"id":"q","passed":1,"total":1}],"options":{}}`, "version 1 state has no options"},
		{`{"v":1,"a":[{"id":"q","passed":2,"total":1}],"b":[{"id":"q","passed":1,"total":1}]}`, `question "q": passed 2 of 1`},
		{`{"v":1,"a":[],"b":[{"id":"q","passed":1,"total":1}]}`, "side a has no questions"},
		{`{"v":1,"a":[{"id":"q","passed":1,"total":1}],"b":[{"id":"q","passed":1,"total":1}],"x":1}`, "unknown field"},
	} {
		enc, _ := share.Pack(rawJSON(bad.state))
		if _, err := share.DecodeCompare(enc); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%s: err %v, want %q", bad.state, err, bad.msg)
		}
	}
	c, e := newPage[compareT](t)
	c.Open(c.ctx, a, b, opt)
	u := mustURL(t, "/compare#compare=zzzz")
	follow(e, c.ctx, c, u)
	if html := app.HTMLString(c); c.Result() != nil || !strings.Contains(html, `data-error="link"`) {
		t.Errorf("a damaged link leaves figures or says nothing:\n%s", html)
	}
}

// rawJSON marshals as itself.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }

func readLogsSide(t *testing.T, name string) *aa.Side {
	t.Helper()
	return must[*aa.Side](t)(readRunFiles([]string{name}, openLogs(t, name)))
}

// TestCompareExample: the example is the answer a reviewer pastes, as
// words/compare_test.go checks it by hand.
func TestCompareExample(t *testing.T) {
	c, e := newPage[compareT](t)
	a, b := exampleCompare()
	c.Open(c.ctx, a, b, compare.DefaultOptions)
	settle(e, c.ctx)
	want := "B answers 3.1 points more questions right (95% interval 1.0 to 5.2); 41 questions went from wrong to right and 19 from right to wrong; McNemar p = 0.0062."
	if html := app.HTMLString(c); !strings.Contains(html, want) {
		t.Errorf("the example does not answer %q:\n%s", want, html)
	}
}

// FuzzDecodeCompareShare: whatever decodes is safe to compare, and
// re-encodes to a link that decodes to the same comparison.
func FuzzDecodeCompareShare(f *testing.F) {
	a, b := exampleCompare()
	v, _ := share.Compare(a, b, compare.DefaultOptions)
	good := strings.TrimPrefix(v.Fragment, "compare=")
	for _, s := range []string{good, "", "***", good[:7], rawEncode(`{"v":1,"a":[{"id":"q","passed":1,"total":1}],"b":null}`)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := share.DecodeCompare(text)
		if err != nil {
			return
		}
		a, b, opt := s.Sides()
		res, err := compare.Compare(a, b, opt)
		if err != nil {
			return // duplicate ids, settings out of range: the comparison refuses them
		}
		v, err := share.Compare(a, b, opt)
		if err != nil || !v.Linked() {
			return
		}
		back, err := share.DecodeCompare(strings.TrimPrefix(v.Fragment, "compare="))
		if err != nil {
			t.Fatalf("re-encoded link does not decode: %v", err)
		}
		a2, b2, opt2 := back.Sides()
		res2, err := compare.Compare(a2, b2, opt2)
		if err != nil || string(jsonOf(t, res2)) != string(jsonOf(t, res)) {
			t.Fatalf("re-encoded link compares differently: %v", err)
		}
	})
}
