package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// GitHub's escaping of workflow commands (actions/toolkit,
// packages/core/src/command.ts): in the message % CR LF; in a property
// also : and ,.
func TestAnnotationEscaping(t *testing.T) {
	for _, c := range []struct {
		a    annotation
		want string
	}{
		{annotation{level: "error", file: "reports/a,b:c%.xml", title: "flakegate: T", msg: "100% of\r\nruns: a, b"},
			"::error file=reports/a%2Cb%3Ac%25.xml,title=flakegate%3A T::100%25 of%0D%0Aruns: a, b"},
		{annotation{level: "warning", title: "flakegate caveat", msg: "only 6 runs"}, "::warning title=flakegate caveat::only 6 runs"},
		{annotation{level: "notice", msg: "%0A stays text"}, "::notice::%250A stays text"},
	} {
		if got := c.a.String(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

// -annotations puts an error on each test that blocks, on the report that
// showed it failing (the patched run here), and a warning per caveat;
// -json-out and -markdown-out write what -json and -markdown print.
func TestAnnotationsAndFiles(t *testing.T) {
	dir := t.TempDir()
	jsonOut, mdOut := filepath.Join(dir, "r.json"), filepath.Join(dir, "summary.md")
	os.WriteFile(mdOut, []byte("earlier\n"), 0o644)
	base, patched := reportsDir+"gotest/count5.json", reportsDir+"gotest/seed2.json"
	args := []string{"ledger", "-min-trials", "1", "-baseline", base, "-patched", patched}
	code, out, errs := cli(t, "", append(args, "-annotations", "-json-out", jsonOut, "-markdown-out", mdOut)...)
	if code != exitBlock {
		t.Fatalf("exit %d: %s", code, errs)
	}
	containsAll(t, "stdout", out,
		"::error file="+escapeProperty(patched)+",title=flakegate%3A example.com/flaky.TestHang::The gate blocks and quarantines the test",
		"::warning title=flakegate caveat::1 test seen in one arm only (example.com/flaky.TestHang)")
	if strings.Count(out, "::error ") != 1 {
		t.Errorf("want one error, for the one test that blocks:\n%s", out)
	}
	_, js, _ := cli(t, "", append(args, "-json")...)
	_, md, _ := cli(t, "", append(args, "-markdown")...)
	if got, _ := os.ReadFile(jsonOut); string(got) != js {
		t.Errorf("-json-out wrote\n%s\nwant\n%s", got, js)
	}
	if got, _ := os.ReadFile(mdOut); string(got) != "earlier\n"+md {
		t.Errorf("-markdown-out did not append the summary:\n%s", got)
	}
	code, _, errs = cli(t, "", "size", "0.5", "0.85", "-json-out", filepath.Join(dir, "none", "r.json"))
	if code != exitUsage || !strings.Contains(errs, "-json-out: no such file or directory") {
		t.Errorf("exit %d, %q", code, errs)
	}
}
