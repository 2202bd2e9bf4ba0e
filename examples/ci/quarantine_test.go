package ci

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionQuarantine runs the action's step as quarantine.yml runs it,
// on go test -json runs of the seeded suite: on a pull request,
// `quarantine check` (read only) blocks on a quarantined test the reports
// no longer have; at night, `quarantine check -write` records the runs in
// the registry and, with fail-on-block false, lets the job commit them
// before it fails. Every summary, annotation, output and registry is held
// to flakegate's own -markdown, -json and -write for the same command.
func TestActionQuarantine(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("the action's step needs bash: ", err)
	}
	tmp := t.TempDir()
	bin, work := buildCLI(t, tmp), filepath.Join(tmp, "work")
	goTestRuns(t, work, "night", "1", 3)
	// cli runs flakegate in the work folder: its output and exit status,
	// which is never 2 (bad input) here.
	cli := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		out, err := cmd.Output()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee) && ee.ExitCode() != 2:
			return string(out), ee.ExitCode()
		case err != nil:
			t.Fatalf("flakegate %v: %v %s", args, err, out)
		}
		return string(out), 0
	}
	// The registry: the suite's flaky test, and a test the reports do not
	// have (deleted, or renamed without a mapping).
	const opened, today = "2026-11-20", "2026-12-02"
	for _, test := range []string{"example.com/flaky.TestFlaky", "example.com/flaky.TestGone"} {
		cli("quarantine", "add", "-registry", "quarantine.json", "-today", opened, "-claim", "57/60",
			"-owner", "@team", "-reason", "flaky in the nightly run", "-days", "30", test)
	}
	registry := filepath.Join(work, "quarantine.json")
	start, err := os.ReadFile(registry)
	if err != nil {
		t.Fatal(err)
	}
	check := []string{"quarantine", "check", "-registry", "quarantine.json", "-today", today}
	runs, _ := filepath.Glob(filepath.Join(work, "reports", "night", "*.json"))
	for i := range runs {
		runs[i], _ = filepath.Rel(work, runs[i])
	}

	for _, c := range []struct {
		name    string
		command []string
		inputs  map[string]string
		code    int
		verdict string
	}{
		{"pull request", check, map[string]string{"SITE": site}, 1, "block"},
		{"nightly", append(append([]string{}, check...), "-write"), map[string]string{"FAIL_ON_BLOCK": "false"}, 0, "block"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(registry, start, 0o644); err != nil {
				t.Fatal(err)
			}
			// What flakegate itself says of the same command, on the
			// registry as it stands (without -write: it must not change).
			args := append(append([]string{}, check...), runs...)
			withSite := []string{}
			if c.inputs["SITE"] != "" {
				withSite = []string{"-site", site}
			}
			md, _ := cli(append(append(args, "-markdown"), withSite...)...)
			js, code := cli(append(append(args, "-json"), withSite...)...)
			wantReg := start
			if c.name == "nightly" {
				copyReg := filepath.Join(tmp, "copy.json")
				os.WriteFile(copyReg, start, 0o644)
				cp := append([]string{"quarantine", "check", "-write", "-registry", copyReg, "-today", today}, runs...)
				cli(cp...)
				wantReg, _ = os.ReadFile(copyReg)
				if bytes.Equal(wantReg, start) {
					t.Fatal("a writing check of three runs left the registry as it was")
				}
			}

			inputs := map[string]string{"COMMAND": strings.Join(c.command, " "), "REPORTS": "reports/night/*.json"}
			for k, v := range c.inputs {
				inputs[k] = v
			}
			s := runStep(t, bin, work, inputs)
			if s.code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", s.code, c.code, s.stdout, s.stderr)
			}
			if s.summary != md || !strings.HasPrefix(md, "**The gate blocks: 1 of 2 quarantined tests needs its owner (1 missing).**") {
				t.Errorf("summary\n%s\n--- want flakegate -markdown's:\n%s", s.summary, md)
			}
			checkOutputs(t, s, js, c.verdict, code, c.inputs["SITE"] != "", site+"/quarantine?")
			note := "::error file=quarantine.json,title=flakegate%3A quarantined example.com/flaky.TestGone is missing::example.com/flaky.TestGone: missing: not in the new reports"
			if !strings.Contains(s.stdout, note) || strings.Count(s.stdout, "::error ") != 1 {
				t.Errorf("want one error annotation, starting %q, in:\n%s", note, s.stdout)
			}
			for _, line := range strings.Split(s.stdout, "\n") {
				if strings.HasPrefix(line, "::") && !annotationLine.MatchString(line) {
					t.Errorf("not a workflow command GitHub reads: %q", line)
				}
			}
			if got, _ := os.ReadFile(registry); !bytes.Equal(got, wantReg) {
				t.Errorf("the registry after the step:\n%s\nwant flakegate's own:\n%s", got, wantReg)
			}
		})
	}
}

// The workflow example runs the check on pull requests and the writing
// check at night through the action, and commits the registry before it
// fails the night.
func TestQuarantineWorkflow(t *testing.T) {
	raw, err := os.ReadFile("quarantine.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pull_request:", "schedule:", "uses: flakegate/flakegate@main",
		"command: quarantine check -registry .github/quarantine.json\n",
		"command: quarantine check -write -registry .github/quarantine.json\n",
		"reports: test-results/*.json", `fail-on-block: "false"`, "git add .github/quarantine.json",
		"steps.nightly.outputs.blocks == 'true'", "contents: write"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("quarantine.yml lacks %q", want)
		}
	}
}
