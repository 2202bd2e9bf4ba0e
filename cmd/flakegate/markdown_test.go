package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/internal/share"
)

const testSite = "https://flakegate.example"

const reportsDir = "../../core/report/testdata/reports/"

// markdownCases are a summary of every command, the figures of the text
// goldens (TestGolden) and of the reports' tests.
var markdownCases = []struct {
	name string
	args []string
	code int
}{
	{"budget_observe", []string{"budget", "-target", "0.95", "-cost", "8", "-cap", "3", "-observe", "1/120", "0.05", "0.02"}, exitBlock},
	{"budget_within_cap", []string{"budget", "-cap", "10", "0.5", "1", "0"}, exitOK},
	{"budget_from", []string{"budget", "-from", reportsDir + "junit/surefire_reruns.xml", "-cap", "1", "-cost", "30"}, exitBlock},
	{"budget_runner_gotestsum", []string{"budget", "-runner", "gotestsum=2", "-cost", "8", "0.02"}, exitBlock},
	{"budget_runner_bazel", []string{"budget", "-runner", "bazel-flaky-attempts=3", "-cost", "8", "0.02", "0.5"}, exitBlock},
	{"budget_from_runner", []string{"budget", "-from", reportsDir + "junit/gotestsum_count3.xml", "-cost", "8", "-runner", "surefire=1"}, exitBlock},
	{"decide_overlap", []string{"decide", "-baseline", "10/20", "-patched", "17/20"}, exitOK},
	{"decide_improved_owed", []string{"decide", "-baseline", "30/60", "-patched", "51/60"}, exitOK},
	{"decide_regressed", []string{"decide", "-baseline", "51/60", "-patched", "30/60"}, exitBlock},
	{"decide_underpowered", []string{"decide", "-baseline", "2/5", "-patched", "5/5"}, exitBlock},
	{"size", []string{"size", "0.50", "0.85"}, exitOK},
	{"freeze_record", []string{"freeze", "-claim", "57/60", "-date", "2026-11-30"}, exitOK},
	{"freeze_stale", []string{"freeze", "-claim", "57/60", "-date", "2026-11-30", "-newer", "40/60"}, exitBlock},
	{"ledger", []string{"ledger", "testdata/ledger.jsonl"}, exitBlock},
	{"ledger_reports", []string{"ledger", "-baseline", reportsDir + "gotest/count5.json", "-patched", reportsDir + "gotest/seed2.json"}, exitBlock},
	{"aa_baseline", []string{"aa", "testdata/base.csv"}, exitOK},
	{"aa_candidate", []string{"aa", "testdata/base.csv", "testdata/cand.csv"}, exitBlock},
}

// TestMarkdownGolden holds every command's -markdown summary, with the
// link -site adds, to testdata/md/NAME.md (rewrite with -update after
// reading the new summary).
func TestMarkdownGolden(t *testing.T) {
	for _, tc := range markdownCases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, "", append(tc.args, "-markdown", "-site", testSite+"/")...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, errs)
			}
			checkGolden(t, filepath.Join("testdata", "md", tc.name+".md"), []byte(out))
			// The same summary without a site has no link line, and
			// otherwise the same bytes.
			_, bare, _ := cli(t, "", append(tc.args, "-markdown")...)
			if i := strings.LastIndex(out, "\n\n[Open in flakegate]("+testSite); i < 0 || out[:i+1] != bare {
				t.Errorf("the summary without a site is not the one with it less its link:\n%s\n---\n%s", bare, out)
			}
		})
	}
}

// TestLinkInEveryResult: with a site, every command's JSON carries the
// link of the view that reproduces it, and the text report ends with it;
// without one, the JSON is the core's result as it was, byte for byte.
func TestLinkInEveryResult(t *testing.T) {
	for _, tc := range markdownCases {
		t.Run(tc.name, func(t *testing.T) {
			_, plain, _ := cli(t, "", append(tc.args, "-json")...)
			if strings.Contains(plain, `"link`) {
				t.Errorf("a link without a site:\n%s", plain)
			}
			t.Setenv("FLAKEGATE_SITE", testSite)
			_, linked, _ := cli(t, "", append(tc.args, "-json")...)
			var res struct {
				Link   string `json:"link"`
				Flakes []struct {
					Budget struct {
						Link string `json:"link"`
					} `json:"budget"`
				} `json:"flakes"`
			}
			if err := json.Unmarshal([]byte(linked), &res); err != nil {
				t.Fatal(err)
			}
			u, err := url.Parse(res.Link)
			if err != nil || !strings.HasPrefix(res.Link, testSite+"/") {
				t.Fatalf("link %q (%v)", res.Link, err)
			}
			if _, err := url.ParseQuery(u.EscapedFragment()); err != nil {
				t.Errorf("the fragment of %s is not a query: %v", res.Link, err)
			}
			for _, f := range res.Flakes {
				if !strings.HasPrefix(f.Budget.Link, testSite+"/?") || !strings.Contains(f.Budget.Link, "observe=") {
					t.Errorf("a flake's budget links to %q", f.Budget.Link)
				}
			}
			// Only the links were added: take them out and the bytes are the same.
			if trimmed := linkMember.ReplaceAllString(linked, ""); trimmed != plain {
				t.Errorf("the link changed more than the link:\n%s\n---\n%s", linked, plain)
			}
			_, text, _ := cli(t, "", tc.args...)
			if !strings.HasSuffix(text, "link: "+res.Link+"\n") {
				t.Errorf("the text report does not end with the link %s:\n%s", res.Link, text)
			}
		})
	}
}

// linkMember is a link or link note in indented JSON, with the comma
// before it.
var linkMember = regexp.MustCompile(`,\n *"link(_note)?": "[^"\\]*"`)

// TestLinks holds the links to the fragments the page writes for the same
// inputs (share's own tests hold those to the page's parser): budget and
// decide settings, a sizing as the decide view's arms, a ledger's summary.
func TestLinks(t *testing.T) {
	link := func(args ...string) string {
		t.Helper()
		_, out, errs := cli(t, "", append(args, "-json", "-site", testSite)...)
		var res struct {
			Link     string `json:"link"`
			LinkNote string `json:"link_note"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: %s", err, errs)
		}
		return res.Link + "|" + res.LinkNote
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"budget", "-cap", "5", "-observe", "1/120", "0.05", "0.02"}, testSite + "/?cap=5&confidence=0.95&observe=1%2F120&rates=0.05%2C0.02&target=0.95&v=2|"},
		{[]string{"budget", "-observe", "2/40"}, testSite + "/?cap=3&confidence=0.95&observe=2%2F40&target=0.95&v=2|"},
		{[]string{"decide", "-baseline", "30/60", "-patched", "51/60", "-property", "passed"}, testSite + "/decide?baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed&v=2|"},
		// docs/STATISTICS.md's sizing, 0.50 against 0.85: the decide view's starting arms, 10/20 and 17/20, marked as a sizing.
		{[]string{"size", "0.50", "0.85"}, testSite + "/decide?baseline=10%2F20&confidence=0.95&min_trials=20&patched=17%2F20&property=unknown&v=2&view=size|"},
		{[]string{"size", "-confidence", "0.9", "0.05", "0.25"}, testSite + "/decide?baseline=1%2F20&confidence=0.9&min_trials=20&patched=5%2F20&property=unknown&v=2&view=size|"},
		{[]string{"size", "0.3333333333333333", "0.5"}, "|" + "these pass rates have no exact passed/trials form the two-arm calculator could open."},
		{[]string{"freeze", "-claim", "57/60", "-newer", "40/60"}, testSite + "/decide?baseline=57%2F60&confidence=0.95&min_trials=20&patched=40%2F60&property=unknown&v=2|"},
		// The link carries the thresholds asked for: no note.
		{[]string{"aa", "-k", "1,2", "testdata/base.csv"}, "|"},
	} {
		got := link(c.args...)
		if c.args[0] == "aa" {
			got = got[strings.IndexByte(got, '|'):]
		}
		if got != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.args, got, c.want)
		}
	}
	// A ledger's link carries its summary: the page reads it back to the
	// same verdicts (wasm's tests decode it).
	got := link("ledger", "-min-trials", "5", "testdata/ledger.jsonl")
	u, _ := url.Parse(strings.TrimSuffix(got, "|"))
	q := u.Query()
	if u.Path != share.DecidePath || q.Get("min_trials") != "5" || q.Get("ledger") == "" {
		t.Errorf("ledger link %s", got)
	}
}

func TestSiteErrors(t *testing.T) {
	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"size", "0.5", "0.85", "-site", "flakegate.example"}, "-site: site address \"flakegate.example\": want an http:// or https:// address"},
		{"ftp://x", []string{"size", "0.5", "0.85"}, "FLAKEGATE_SITE: site address \"ftp://x\""},
		{"", []string{"size", "0.5", "0.85", "-site", "https://x.example/#a"}, "without ? or #"},
		{"", []string{"decide", "-baseline", "1/2", "-patched", "2/2", "-json", "-markdown"}, "give -json or -markdown, not both"},
	} {
		t.Setenv("FLAKEGATE_SITE", c.env)
		code, _, errs := cli(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// TestLedgerLinkTooLong: a ledger whose summary passes the 8 KiB of a link
// gets the settings only, and says so in the page's words.
func TestLedgerLinkTooLong(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 1500; i++ {
		for _, arm := range []string{"baseline", "patched"} {
			// Names that do not compress: a hash of the test's number.
			h := sha256.Sum256([]byte(strconv.Itoa(i)))
			b.WriteString(`{"run":"` + arm + `-1","arm":"` + arm + `","nodeid":"tests/test_` + hex.EncodeToString(h[:6]) +
				`.py::test_case","when":"call","outcome":"passed"}` + "\n")
		}
	}
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errs := cli(t, "", "ledger", "-json", "-site", testSite, path)
	var res struct {
		Link     string `json:"link"`
		LinkNote string `json:"link_note"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	if res.Link != testSite+"/decide?baseline=10%2F20&confidence=0.95&min_trials=20&patched=17%2F20&property=unknown&v=2" || !strings.HasPrefix(res.LinkNote, "This ledger is too long for a link (") {
		t.Fatalf("link %.200q, note %q", res.Link, res.LinkNote)
	}
	_, md, _ := cli(t, "", "ledger", "-markdown", "-site", testSite, path)
	if !strings.HasSuffix(md, "[Open in flakegate]("+res.Link+") — "+res.LinkNote+"\n") {
		t.Errorf("the summary's link line:\n%s", md[strings.LastIndex(md[:len(md)-1], "\n")+1:])
	}
}

// The decide summary sizes the observed rates as the calculator's decide
// view does (gate.Sizing).
func TestDecideSummarySizes(t *testing.T) {
	_, md, _ := cli(t, "", "decide", "-baseline", "10/20", "-patched", "17/20", "-markdown")
	s, _ := gate.Size(gate.SizeInput{Baseline: 0.5, Patched: 0.85, Confidence: core.DefaultConfidence})
	if *s.TrialsPerArm != 28 || !strings.Contains(md, "28 trials per arm separate pass rates of 50.0% and 85.0%") {
		t.Errorf("docs/STATISTICS.md's 28 trials per arm missing from:\n%s", md)
	}
}
