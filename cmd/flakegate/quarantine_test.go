package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core/quarantine"
	"github.com/flakegate/flakegate/internal/testfile"
	"github.com/flakegate/flakegate/internal/words"
)

// The week of nightly reports of the planted suite, made by real go test
// -json and gotestsum runs (core/quarantine/testdata/week/README.md).
const weekNights = "../../core/quarantine/testdata/week/nights/"

// weekStep is one command of the week, as a team would type it.
type weekStep struct {
	date string
	args []string
}

// quarantineWeek is the week: on 2026-11-20 thirteen tests are quarantined
// from the measurement's report, in groups by owner, target and expiry;
// every night after, a writing check of that night's report, and on three
// nights an owner's edit first (TestInventory's rename mapped, TestReport
// renewed, the deleted TestCart removed).
func quarantineWeek() []weekStep {
	add := func(owner, below, expires string, tests ...string) weekStep {
		args := []string{"add", "-from", weekNights + "2026-11-20.xml", "-owner", owner, "-reason", "flaky in the nightly run",
			"-below", below, "-expires", expires}
		for _, t := range tests {
			args = append(args, "example.com/shop."+t)
		}
		return weekStep{"2026-11-20", args}
	}
	check := func(date, ext string) weekStep {
		return weekStep{date, []string{"check", "-write", weekNights + date + "." + ext}}
	}
	return []weekStep{
		add("@identity", "0.001", "2026-12-31", "TestAuth"),
		add("@identity", "0.01", "2026-12-31", "TestLogin"),
		add("@platform", "0.01", "2026-12-31", "TestCache"),
		add("@platform", "0.4", "2026-12-31", "TestQueue"), // 6 clean runs: released within the week
		add("@payments", "0.01", "2026-12-31", "TestCart"),
		add("@payments", "0.1", "2026-12-31", "TestCheckout"),
		add("@payments", "0.01", "2026-11-25", "TestPayment"),
		add("@growth", "0.01", "2026-12-31", "TestEmail"),
		add("@warehouse", "0.01", "2026-12-31", "TestInventory"),
		add("@warehouse", "0.05", "2026-12-31", "TestShipping"),
		add("@data", "0.01", "2026-11-24", "TestReport"),
		add("@search", "0.01", "2026-12-31", "TestSearch"),
		add("@storage", "0.02", "2026-12-31", "TestUpload"),
		// The night's report given twice in one check: one run.
		{"2026-11-23", []string{"check", "-write", weekNights + "2026-11-23.json", weekNights + "2026-11-23.json"}},
		check("2026-11-24", "xml"),
		// The same night's report delivered again (a retried job): counted
		// already, so nothing changes.
		check("2026-11-24", "xml"),
		check("2026-11-25", "xml"),
		{"2026-11-26", []string{"rename", "example.com/shop.TestInventory", "example.com/shop.TestStock"}},
		check("2026-11-26", "json"),
		{"2026-11-27", []string{"renew", "-expires", "2026-12-31", "example.com/shop.TestReport"}},
		check("2026-11-27", "xml"),
		{"2026-11-28", []string{"remove", "example.com/shop.TestCart"}},
		check("2026-11-28", "xml"),
		check("2026-11-29", "json"),
	}
}

// TestQuarantineWeek runs the week through the command line and holds its
// transcript (every command, its output and exit status), the registry it
// leaves, and the table of each test's state night by night to golden
// files in testdata/quarantine/. The states are the core's, which
// core/quarantine's TestWeek holds to the rules on the same reports. Each
// night's report is one run, however many times it ran each test; a report
// given twice, or delivered again the next time, counts once, and the
// answer says so; a test that got better than its claim (TestUpload:
// 47/60, then 20/20 every night) is stale and improving, and does not
// block.
func TestQuarantineWeek(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "quarantine.json")
	var transcript bytes.Buffer
	var nights []string
	states := map[string]map[string]string{} // test -> date -> state
	var improved bool
	for _, s := range quarantineWeek() {
		before, _ := os.ReadFile(reg)
		args := append([]string{"quarantine", s.args[0], "-registry", reg, "-today", s.date}, s.args[1:]...)
		shown := strings.ReplaceAll(strings.ReplaceAll(strings.Join(args, " "), reg, "quarantine.json"), weekNights, "")
		wantCode := exitOK
		if s.args[0] == "check" {
			// The night's states: the same check with -json and without
			// -write, on a copy of the registry as it stands.
			res := checkCopy(t, reg, s)
			if len(nights) == 0 || nights[len(nights)-1] != s.date {
				nights = append(nights, s.date)
			}
			for _, r := range res.Tests {
				if states[r.Test] == nil {
					states[r.Test] = map[string]string{}
				}
				states[r.Test][s.date] = words.TestStateWords(r)
				if r.Blocks {
					wantCode = exitBlock
				}
				if r.Test == "example.com/shop.TestUpload" && r.Improving {
					improved = true
					if r.Blocks || r.State != quarantine.StateStale {
						t.Errorf("%s: TestUpload improved and is %s, blocks %v", s.date, r.State, r.Blocks)
					}
				}
			}
		}
		code, out, errs := cli(t, "", args...)
		out = strings.ReplaceAll(strings.ReplaceAll(out, weekNights, ""), reg, "quarantine.json")
		fmt.Fprintf(&transcript, "$ flakegate %s\n%sexit %d\n\n", shown, out, code)
		if errs != "" || code != wantCode {
			t.Fatalf("%s: exit %d, want %d; %s", shown, code, wantCode, errs)
		}
		switch after, _ := os.ReadFile(reg); {
		case len(s.args) == 4 && s.args[2] == s.args[3]: // one report given twice
			if !strings.Contains(out, "2026-11-23.json#2 is the same run as 2026-11-23.json: counted once") {
				t.Errorf("%s: the answer does not say the report was counted once:\n%s", shown, out)
			}
		case s.args[0] == "check" && bytes.Contains(before, []byte(`"date": "`+s.date+`"`)): // the night delivered again
			if !bytes.Equal(after, before) || !strings.Contains(out, "2026-11-24.xml is a run counted already, on 2026-11-24: not counted again") {
				t.Errorf("%s: a report counted already changed the registry, or the answer does not say so:\n%s", shown, out)
			}
		}
	}
	if !improved {
		t.Errorf("TestUpload never showed as improving")
	}
	checkGolden(t, "testdata/quarantine/week.txt", transcript.Bytes())
	final := testfile.Read(t, reg)
	checkGolden(t, "testdata/quarantine/week-registry.json", final)
	// Eight reports, each counted once: the measurement the claims were
	// made from (by add -from, so that no check counts it again) and the
	// seven nights, the one given twice and the one delivered again
	// included.
	var kept quarantine.Registry
	if err := json.Unmarshal(final, &kept); err != nil || len(kept.Counted) != 8 || kept.Counted[0].Date != "2026-11-20" {
		t.Errorf("counted %+v (%v), want the 8 reports of the week", kept.Counted, err)
	}
	checkGolden(t, "testdata/quarantine/week-states.md", weekTable(nights, states))
}

// checkCopy runs a step's check with -json and without -write on a copy of
// the registry, and returns its result.
func checkCopy(t *testing.T, reg string, s weekStep) *quarantine.Result {
	t.Helper()
	b := testfile.Read(t, reg)
	cp := filepath.Join(t.TempDir(), "quarantine.json")
	if err := os.WriteFile(cp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"quarantine", "check", "-json", "-registry", cp, "-today", s.date}
	for _, a := range s.args[1:] {
		if a != "-write" {
			args = append(args, a)
		}
	}
	_, out, errs := cli(t, "", args...)
	if errs != "" {
		t.Fatal(errs)
	}
	var res quarantine.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(cp); !bytes.Equal(after, b) {
		t.Fatalf("a check without -write changed the registry")
	}
	return &res
}

// weekTable is the states night by night as a Markdown table: one row per
// test, one column per night; a test's cell is empty before it is
// quarantined under that id and after it leaves.
func weekTable(nights []string, states map[string]map[string]string) []byte {
	var b bytes.Buffer
	b.WriteString("| test |")
	for _, n := range nights {
		b.WriteString(" " + n[5:] + " |")
	}
	b.WriteString("\n|---|")
	for range nights {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	tests := make([]string, 0, len(states))
	for id := range states {
		tests = append(tests, id)
	}
	slices.Sort(tests)
	for _, id := range tests {
		b.WriteString("| " + strings.TrimPrefix(id, "example.com/shop.") + " |")
		for _, n := range nights {
			b.WriteString(" " + words.StateWords(states[id][n]) + " |")
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// weekRegistryAt builds the week's registry up to (and without) the step
// of date, in a temporary file, and returns its path.
func weekRegistryAt(t *testing.T, date string) string {
	t.Helper()
	reg := filepath.Join(t.TempDir(), "quarantine.json")
	for _, s := range quarantineWeek() {
		if s.date >= date {
			break
		}
		args := append([]string{"quarantine", s.args[0], "-registry", reg, "-today", s.date}, s.args[1:]...)
		if code, _, errs := cli(t, "", args...); code == exitUsage {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	return reg
}

// TestQuarantineOutputs holds the Markdown and JSON of the week's third
// night, when every state that blocks is there, and of list and runs, to
// golden files.
func TestQuarantineOutputs(t *testing.T) {
	reg := weekRegistryAt(t, "2026-11-25")
	night := weekNights + "2026-11-25.xml"
	for _, c := range []struct {
		golden string
		args   []string
		code   int
	}{
		{"night3.md", []string{"check", "-markdown", night}, exitBlock},
		{"night3.json", []string{"check", "-json", night}, exitBlock},
		{"list.txt", []string{"list"}, exitOK},
		{"runs.txt", []string{"runs", "-below", "0.01"}, exitOK},
		{"runs.md", []string{"runs", "-below", "0.001", "-markdown"}, exitOK},
		{"runs.json", []string{"runs", "-below", "0.05", "-confidence", "0.99", "-json"}, exitOK},
	} {
		t.Run(c.golden, func(t *testing.T) {
			args := append([]string{"quarantine", c.args[0], "-registry", reg, "-today", "2026-11-25"}, c.args[1:]...)
			if c.args[0] == "runs" {
				args = append([]string{"quarantine"}, c.args...)
			}
			code, out, errs := cli(t, "", args...)
			if code != c.code || errs != "" {
				t.Fatalf("exit %d, want %d: %s", code, c.code, errs)
			}
			out = strings.ReplaceAll(out, weekNights, "")
			checkGolden(t, "testdata/quarantine/"+c.golden, []byte(out))
		})
	}
}

// TestQuarantineRuns: the registry's rule, checked after every run (361,
// 3,621 and 71, found in exact arithmetic by core/quarantine's
// TestCleanRunsChecked and its rule), beside the one-look figures
// (docs/STATISTICS.md, Quarantine's release count).
func TestQuarantineRuns(t *testing.T) {
	for _, c := range []struct{ below, checked, once string }{{"0.01", "361", "299"}, {"0.001", "3,621", "2,995"}, {"0.05", "71", "59"}} {
		_, out, _ := cli(t, "", "quarantine", "runs", "-below", c.below)
		if !strings.HasPrefix(out, c.checked+" clean runs from the start of a quarantine release a test below") ||
			!strings.Contains(out, "("+c.once+" in a row would do for one look from one fixed start)") {
			t.Errorf("-below %s: %q", c.below, out)
		}
	}
	if code, _, errs := cli(t, "", "quarantine", "runs", "-below", "0"); code != exitUsage || !strings.Contains(errs, "below: the failure rate to prove the test below must be in (0,1), got 0") {
		t.Errorf("-below 0: exit %d, %s", code, errs)
	}
}

// TestQuarantineErrors: a bad input is exit status 2 with a message that
// says what and where, and leaves the registry's bytes as they were.
func TestQuarantineErrors(t *testing.T) {
	reg := weekRegistryAt(t, "2026-11-24")
	before := testfile.Read(t, reg)
	dir := filepath.Dir(reg)
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, bytes.Replace(before, []byte(`"passed": 47,`), []byte(`"passed": 48,`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.json")
	os.WriteFile(broken, []byte(`{"Action":"start","Package":"example.com/shop"}`+"\n"+`{"Action":"output","Package":"example.com/shop","Output":"# example.com/shop [build failed]\n"}`+"\n"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"claim off its counts", []string{"check", "-registry", bad, "-today", "2026-11-24"}, "bad.json:"},
		{"a report that does not build", []string{"check", "-write", "-registry", reg, "-today", "2026-11-24", broken}, "broken.json"},
		{"a report that is not there", []string{"check", "-write", "-registry", reg, "-today", "2026-11-24", "nothere.json"}, "nothere.json: no such file"},
		{"a rename onto a quarantined test", []string{"check", "-write", "-registry", reg, "-today", "2026-11-24",
			"-rename", "example.com/shop.TestCart=example.com/shop.TestCache", weekNights + "2026-11-24.xml"}, "example.com/shop.TestCache is already quarantined"},
		{"a date in the future", []string{"check", "-write", "-registry", reg, "-today", "2026-11-19"}, "is in the future (today is 2026-11-19)"},
		{"adding a quarantined test", []string{"add", "-registry", reg, "-today", "2026-11-24", "-claim", "1/2", "-owner", "x", "-reason", "y", "example.com/shop.TestCart"},
			"example.com/shop.TestCart is already quarantined"},
		{"renewing into the past", []string{"renew", "-registry", reg, "-today", "2026-11-24", "-expires", "2026-11-23", "example.com/shop.TestCart"}, "before today"},
		{"removing what is not there", []string{"remove", "-registry", reg, "-today", "2026-11-24", "example.com/shop.TestNope"}, "example.com/shop.TestNope is not quarantined"},
		{"no owner", []string{"add", "-registry", reg, "-today", "2026-11-24", "-claim", "1/2", "-reason", "y", "t"}, "give -owner and -reason"},
		{"no registry to list", []string{"list", "-registry", filepath.Join(dir, "none.json"), "-today", "2026-11-24"}, "no registry there"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := cli(t, "", append([]string{"quarantine"}, c.args...)...)
			if code != exitUsage || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q (stdout %q)", code, errs, c.want, out)
			}
			if after, _ := os.ReadFile(reg); !bytes.Equal(after, before) {
				t.Errorf("the registry changed")
			}
		})
	}
	// The claim's fault is named by its place in the file.
	_, _, errs := cli(t, "", "quarantine", "check", "-registry", bad, "-today", "2026-11-24")
	if !strings.Contains(errs, "bad.json:41:17: tests[1].claim.rate: 0.7833333333333333 does not match 48/60") {
		t.Errorf("stderr %q", errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files left in the registry's directory: %v", names)
	}
}

// TestQuarantineFirstUse: a check before any test is quarantined (no
// registry file yet) is a new adopter's first CI run: it passes, says
// there is no registry yet and how to add a test, and writes nothing.
func TestQuarantineFirstUse(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "quarantine.json")
	for _, args := range [][]string{{}, {"-write", weekNights + "2026-11-23.json"}, {"-markdown"}} {
		code, out, errs := cli(t, "", append([]string{"quarantine", "check", "-registry", reg, "-today", "2026-11-24"}, args...)...)
		if code != exitOK || errs != "" || !strings.Contains(out, "no test is quarantined") ||
			!strings.Contains(out, "there is no registry at "+reg+" yet") || !strings.Contains(out, "flakegate quarantine add") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if _, err := os.Stat(reg); err == nil {
		t.Errorf("a check with no registry wrote one")
	}
}

// TestQuarantineEditWarnings: each verb that edits the registry prints,
// with -json, a result whose warnings are a list, [] when there are none,
// as every result's are (functions/api/openapi.json: an array, required).
func TestQuarantineEditWarnings(t *testing.T) {
	reg := filepath.Join(t.TempDir(), "quarantine.json")
	for _, verb := range [][]string{
		{"add", "-claim", "57/60", "-owner", "@team", "-reason", "races the cache", "pkg.TestA"},
		{"renew", "-days", "14", "pkg.TestA"},
		{"rename", "pkg.TestA", "pkg.TestB"},
		{"remove", "pkg.TestB"},
	} {
		code, out, errs := cli(t, "", append([]string{"quarantine", verb[0], "-json", "-registry", reg, "-today", "2026-11-20"}, verb[1:]...)...)
		var res struct {
			Warnings json.RawMessage `json:"warnings"`
		}
		if err := json.Unmarshal([]byte(out), &res); code != exitOK || err != nil || string(res.Warnings) != "[]" {
			t.Errorf("%s: exit %d, warnings %s (%v), stderr %q", verb[0], code, res.Warnings, err, errs)
		}
	}
}

// TestQuarantineRenameFlag: -rename splits old=new at the '=' after a
// quarantined id, so ids that hold '=' themselves (subtests such as
// TestX/n=3) work.
func TestQuarantineRenameFlag(t *testing.T) {
	reg := filepath.Join(t.TempDir(), "q.json")
	for _, id := range []string{"pkg.TestX/n=3", "pkg.TestY"} {
		if code, _, errs := cli(t, "", "quarantine", "add", "-registry", reg, "-today", "2026-11-20", "-claim", "9/10",
			"-owner", "o", "-reason", "r", "-days", "30", id); code != exitOK {
			t.Fatal(errs)
		}
	}
	report := filepath.Join(t.TempDir(), "r.json")
	os.WriteFile(report, []byte(`{"Action":"run","Package":"pkg","Test":"TestX/n=4"}
{"Action":"pass","Package":"pkg","Test":"TestX/n=4"}
{"Action":"run","Package":"pkg","Test":"TestY"}
{"Action":"pass","Package":"pkg","Test":"TestY"}
{"Action":"pass","Package":"pkg"}
`), 0o644)
	code, out, errs := cli(t, "", "quarantine", "check", "-json", "-registry", reg, "-today", "2026-11-21", "-rename", "pkg.TestX/n=3=pkg.TestX/n=4", report)
	if code != exitOK {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	var res quarantine.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if r := res.Tests[0]; r.Test != "pkg.TestX/n=4" || r.RenamedFrom != "pkg.TestX/n=3" || r.State != quarantine.StateStillFlaky || r.Reported == nil {
		t.Errorf("%+v", r)
	}
}

// TestWriteFileAtomic: the file is replaced whole and keeps its mode; a
// symbolic link is followed; when the rename fails nothing is left behind
// and the target is untouched.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	os.WriteFile(p, []byte("old"), 0o600)
	if err := writeFileAtomic(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("content %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink("r.json", link)
	if err := writeFileAtomic(link, []byte("via link")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "via link" {
		t.Errorf("through the link: %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	// A directory in the way: the rename fails.
	sub := filepath.Join(dir, "sub")
	os.MkdirAll(filepath.Join(sub, "x"), 0o755)
	if err := writeFileAtomic(sub, []byte("x")); err == nil {
		t.Errorf("writing over a directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "link.json r.json sub" {
		t.Errorf("left behind: %v", names)
	}
}

// TestQuarantineCI: quarantine check has the outputs every command has for
// CI. -annotations prints an ::error per test that blocks, on the registry
// that holds it (the tests that block are those the JSON result says do);
// -json-out and -markdown-out write the same JSON and Markdown as -json
// and -markdown; -site links the result to the quarantine view, whose
// fragment carries the check.
func TestQuarantineCI(t *testing.T) {
	reg := weekRegistryAt(t, "2026-11-25")
	dir := filepath.Dir(reg)
	night := weekNights + "2026-11-25.xml"
	base := []string{"quarantine", "check", "-registry", reg, "-today", "2026-11-25"}
	_, jsonOut, _ := cli(t, "", append(base, "-json", "-site", "https://flakegate.example", night)...)
	var res quarantine.Result
	if err := json.Unmarshal([]byte(jsonOut), &res); err != nil {
		t.Fatal(err)
	}
	var blocking []string
	for _, r := range res.Tests {
		if r.Blocks {
			blocking = append(blocking, r.Test)
		}
	}
	if len(blocking) < 3 {
		t.Fatalf("the night has %d tests that block; the test needs several", len(blocking))
	}
	if !strings.HasPrefix(res.Link, "https://flakegate.example/quarantine?") || !strings.Contains(res.Link, "registry=") || !strings.Contains(res.Link, "today=2026-11-25") {
		t.Errorf("link %q", res.Link)
	}

	jsonFile, mdFile := filepath.Join(dir, "out.json"), filepath.Join(dir, "summary.md")
	code, out, errs := cli(t, "", append(base, "-annotations", "-site", "https://flakegate.example", "-json-out", jsonFile, "-markdown-out", mdFile, night)...)
	if code != exitBlock || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var errors []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "::error ") {
			errors = append(errors, line)
		}
	}
	if len(errors) != len(blocking) {
		t.Fatalf("%d ::error lines for %d tests that block:\n%s", len(errors), len(blocking), out)
	}
	for i, test := range blocking {
		want := "::error file=" + escapeProperty(reg) + ",title=" + escapeProperty("flakegate: quarantined "+test+" is ")
		if !strings.HasPrefix(errors[i], want) || !strings.Contains(errors[i], "::"+test+": ") {
			t.Errorf("annotation %d = %q, want it to start %q", i, errors[i], want)
		}
	}
	if !strings.Contains(out, "link: "+res.Link+"\n") {
		t.Errorf("the text report does not end with the link:\n%s", out)
	}
	if got, _ := os.ReadFile(jsonFile); string(got) != jsonOut {
		t.Errorf("-json-out wrote\n%s\nwant the -json output\n%s", got, jsonOut)
	}
	_, md, _ := cli(t, "", append(base, "-markdown", "-site", "https://flakegate.example", night)...)
	if got, _ := os.ReadFile(mdFile); string(got) != md || !strings.Contains(md, "[Open in flakegate]("+res.Link+")") {
		t.Errorf("-markdown-out wrote\n%s\nwant the -markdown output, with its link\n%s", got, md)
	}
	// Nothing was written to the registry: check without -write only reads.
	if before, after := weekRegistryBytes(t, "2026-11-25"), testfile.Read(t, reg); !bytes.Equal(before, after) {
		t.Errorf("check without -write changed the registry")
	}
}

func weekRegistryBytes(t *testing.T, date string) []byte {
	return testfile.Read(t, weekRegistryAt(t, date))
}

// TestQuarantineTAPNights: TAP carries no time, so two nights' reports can
// be the same bytes; they are two runs all the same. On GitHub Actions the
// run id and attempt tell them apart: the same file under run 100 and run
// 101 counts twice, and given again under run 101 it is counted already.
// Outside CI the file's place and modification time do: the same file
// checked twice counts once, and once rewritten it counts again.
func TestQuarantineTAPNights(t *testing.T) {
	src := testfile.Read(t, "../../core/report/testdata/reports/tap/node_attempt1.tap")
	dir := t.TempDir()
	tap := filepath.Join(dir, "nightly.tap")
	if err := os.WriteFile(tap, src, 0o644); err != nil {
		t.Fatal(err)
	}
	reg := filepath.Join(dir, "quarantine.json")
	if code, _, errs := cli(t, "", "quarantine", "add", "-registry", reg, "-today", "2026-11-20", "-claim", "57/60",
		"-owner", "@team", "-reason", "flaky", "adds"); code != exitOK {
		t.Fatal(errs)
	}
	runs := func() int64 {
		t.Helper()
		b := testfile.Read(t, reg)
		r, err := quarantine.Parse(b, "2026-11-30")
		if err != nil {
			t.Fatal(err)
		}
		return r.Tests[0].Since.Runs
	}
	check := func(date string) string {
		t.Helper()
		code, out, errs := cli(t, "", "quarantine", "check", "-write", "-registry", reg, "-today", date, tap)
		if code != exitOK || errs != "" {
			t.Fatalf("%s: exit %d %s", date, code, errs)
		}
		return out
	}
	t.Setenv("GITHUB_RUN_ATTEMPT", "1")
	t.Setenv("GITHUB_RUN_ID", "100")
	check("2026-11-23")
	t.Setenv("GITHUB_RUN_ID", "101")
	check("2026-11-24")
	if n := runs(); n != 2 {
		t.Errorf("two nights' identical TAP under two CI runs: %d runs counted, want 2", n)
	}
	if out := check("2026-11-24"); runs() != 2 || !strings.Contains(out, "is a run counted already, on 2026-11-24: not counted again") {
		t.Errorf("the same CI run's report again: %d runs\n%s", runs(), out)
	}
	t.Setenv("GITHUB_RUN_ATTEMPT", "2") // a re-run of the job ran the tests again
	check("2026-11-24")
	if n := runs(); n != 3 {
		t.Errorf("a second attempt: %d runs, want 3", n)
	}
	// Outside CI: the file's place and modification time.
	t.Setenv("GITHUB_RUN_ID", "")
	t.Setenv("CI_JOB_ID", "")
	check("2026-11-25")
	check("2026-11-25")
	if n := runs(); n != 4 {
		t.Errorf("one file checked twice outside CI: %d runs, want 4", n)
	}
	later := time.Date(2026, 11, 26, 2, 0, 0, 0, time.UTC)
	if err := os.Chtimes(tap, later, later); err != nil { // the next night writes the same bytes again
		t.Fatal(err)
	}
	check("2026-11-26")
	if n := runs(); n != 5 {
		t.Errorf("the next night's identical TAP: %d runs, want 5", n)
	}
}

// TestQuarantineImprovingNotice: on the week's third night TestUpload
// (47/60, then 20/20 each night) is stale because it got better: the check
// gives it a notice saying how many clean runs remain, not an error: the
// 180 a fresh quarantine below 2% needs (docs/STATISTICS.md), less its 3
// clean runs counted.
func TestQuarantineImprovingNotice(t *testing.T) {
	reg := weekRegistryAt(t, "2026-11-25")
	_, out, _ := cli(t, "", "quarantine", "check", "-annotations", "-registry", reg, "-today", "2026-11-25", weekNights+"2026-11-25.xml")
	want := "::notice file=" + escapeProperty(reg) + ",title=flakegate%3A quarantined example.com/shop.TestUpload is improving::example.com/shop.TestUpload: improving: "
	if !strings.Contains(out, want) || !strings.Contains(out, "177 more clean runs would prove it below 2% if none fails (3 runs counted, 0 with a failure)") ||
		strings.Contains(out, "::error file="+escapeProperty(reg)+",title=flakegate%3A quarantined example.com/shop.TestUpload") {
		t.Errorf("annotations:\n%s\nwant %q", out, want)
	}
}
