package ci

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goTestJSON is a go test -json report of package ex/u's tests, each
// passing unless failed names it.
func goTestJSON(failed map[string]bool, tests ...string) []byte {
	var b bytes.Buffer
	for _, tc := range tests {
		fmt.Fprintf(&b, `{"Action":"run","Package":"ex/u","Test":%q}`+"\n", tc)
		action := "pass"
		if failed[tc] {
			action = "fail"
		}
		fmt.Fprintf(&b, `{"Action":%q,"Package":"ex/u","Test":%q}`+"\n", action, tc)
	}
	return b.Bytes()
}

// githubEnv is what GitHub sets for attempt 1 of run id's job unit.
func githubEnv(id int, event string) []string {
	return []string{"GITHUB_ACTIONS=true", "GITHUB_RUN_ID=" + fmt.Sprint(id), "GITHUB_RUN_ATTEMPT=1", "GITHUB_JOB=unit",
		"GITHUB_WORKFLOW=CI", "GITHUB_SHA=" + fmt.Sprintf("%040x", id), "GITHUB_REF=refs/heads/main", "GITHUB_REF_NAME=main",
		"GITHUB_EVENT_NAME=" + event, "GITHUB_REPOSITORY=acme/widgets", "GITHUB_HEAD_REF="}
}

// TestActionStoreFile runs record and triage through the action's step
// with the store a file the workflow keeps itself (store-branch empty, as
// with the Actions cache or an artifact): triage before any record says it
// has no history and leaves the verdict to the tests (exit 0, verdict
// no-history); 30 recorded runs of main, where ex/u.TestA failed once,
// make TestA a known flake and TestB, which never failed, new, so a run
// failing both blocks and one failing TestA alone passes (the classes are
// flakegate triage's on the same store, its own tests' subject); recording
// a run again leaves the store's bytes as they were.
func TestActionStoreFile(t *testing.T) {
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	work := filepath.Join(tmp, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, raw []byte) {
		if err := os.WriteFile(filepath.Join(work, name), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inputs := func(command, reports string) map[string]string {
		return map[string]string{"COMMAND": command, "REPORTS": reports, "STORE": "history.store", "STORE_BRANCH": ""}
	}
	write("pr.json", goTestJSON(map[string]bool{"TestA": true, "TestB": true}, "TestA", "TestB"))
	s := runStepEnv(t, bin, work, inputs("triage", "pr.json"), githubEnv(999, "pull_request"))
	if s.code != 0 || s.outputs["verdict"] != "no-history" || s.outputs["blocks"] != "false" ||
		!strings.Contains(s.stdout, "::warning title=flakegate triage::no history to triage against yet: there is no store at history.store") ||
		!strings.HasPrefix(s.summary, "**flakegate did not triage this run") {
		t.Fatalf("triage without a store: exit %d, outputs %v\nstdout:\n%s\nsummary:\n%s", s.code, s.outputs, s.stdout, s.summary)
	}

	for i := 1; i <= 30; i++ {
		write("main.json", goTestJSON(map[string]bool{"TestA": i == 7}, "TestA", "TestB"))
		s := runStepEnv(t, bin, work, inputs("record", "main.json"), githubEnv(i, "push"))
		want := fmt.Sprintf("flakegate recorded 1 report(s) of job unit (run %d, attempt 1) into history.store.\n\n", i)
		if s.code != 0 || s.outputs["verdict"] != "recorded" || s.outputs["store"] != "history.store" || s.summary != want {
			t.Fatalf("record %d: exit %d, outputs %v, summary %q, stderr %s", i, s.code, s.outputs, s.summary, s.stderr)
		}
	}
	before, err := os.ReadFile(filepath.Join(work, "history.store"))
	if err != nil {
		t.Fatal(err)
	}
	// Run 30 again: the store counts it once.
	if s := runStepEnv(t, bin, work, inputs("record", "main.json"), githubEnv(30, "push")); s.code != 0 {
		t.Fatalf("recording run 30 again: exit %d, %s", s.code, s.stderr)
	}
	if after, _ := os.ReadFile(filepath.Join(work, "history.store")); !bytes.Equal(before, after) {
		t.Errorf("recording a run again changed the store (%d bytes to %d)", len(before), len(after))
	}

	write("flake.json", goTestJSON(map[string]bool{"TestA": true}, "TestA", "TestB"))
	for _, c := range []struct {
		report  string
		code    int
		verdict string
		answer  string
	}{
		{"pr.json", 1, "block", "**This run broke 1 test: ex/u.TestB; the rest is noise: 1 known flake.**"},
		{"flake.json", 0, "pass", "**"},
	} {
		// The store from the store input, or named in the command.
		for _, command := range []string{"triage", "triage -history history.store"} {
			s := runStepEnv(t, bin, work, inputs(command, c.report), githubEnv(1000, "pull_request"))
			cmd := exec.Command(bin, "triage", "-markdown", "-history", "history.store", c.report)
			cmd.Dir = work
			want, _ := cmd.Output()
			if s.code != c.code || s.outputs["verdict"] != c.verdict || (command == "triage") != (s.outputs["store"] == "history.store") ||
				s.summary != string(want) || !strings.HasPrefix(s.summary, c.answer) {
				t.Errorf("%s %s: exit %d, outputs %v; want exit %d, verdict %s and the summary flakegate triage -markdown gives:\n%s\n---\n%s",
					command, c.report, s.code, s.outputs, c.code, c.verdict, s.summary, want)
			}
			if c.code == 1 && !strings.Contains(s.stdout, "::error file=pr.json") {
				t.Errorf("%s %s: no annotation on the report:\n%s", command, c.report, s.stdout)
			}
		}
	}
}
