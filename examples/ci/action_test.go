package ci

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The GitHub Action's step (action/run.sh at the repository's root), run as
// GitHub runs it: the inputs in INPUT_* variables, a step summary file and
// an outputs file, on real reports: go test -json runs of the seeded flaky
// suite made here, and JUnit XML that gotestsum wrote (the report readers'
// samples, core/report/testdata/reports/README.md).

const site = "https://flakegate.example"

// goTestRuns runs the seeded suite n times with the given failure-rate
// scale, each run a fresh go test -json process, and returns the reports.
func goTestRuns(t *testing.T, dir, arm, scale string, n int) []string {
	t.Helper()
	suite := filepath.Join(dir, arm+"-suite")
	copySuite(t, suite, scale)
	var out []string
	for i := 1; i <= n; i++ {
		p := filepath.Join(dir, "reports", arm, fmt.Sprintf("run-%02d.json", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "test", "-json", "-count=1", "-run", "TestStable|TestFlaky|TestTable", ".")
		cmd.Dir, cmd.Stdout = suite, f
		cmd.Env = append(os.Environ(), "FLAKY_SEED=7", fmt.Sprintf("FLAKEGATE_RUN=%s-%d", arm, i), "GOWORK=off", "GOFLAGS=-mod=mod")
		err = cmd.Run()
		f.Close()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) { // a failing test exits 1: its report is the evidence
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// step is one run of the action's step: its exit status, standard output
// (the annotations among it), the summary it appended and its outputs.
type step struct {
	code    int
	stdout  string
	stderr  string
	summary string
	outputs map[string]string
}

func runStep(t *testing.T, bin, dir string, inputs map[string]string) step {
	t.Helper()
	return runStepEnv(t, bin, dir, inputs, nil)
}

// runStepEnv is runStep with more environment variables (NAME=value), such
// as the GITHUB_* ones GitHub sets.
func runStepEnv(t *testing.T, bin, dir string, inputs map[string]string, env []string) step {
	t.Helper()
	script, err := filepath.Abs("../../action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	summary, outputs := filepath.Join(tmp, "summary.md"), filepath.Join(tmp, "outputs")
	// GitHub gives the step a summary file that other steps may have
	// written to: the action appends.
	if err := os.WriteFile(summary, []byte("## Earlier step\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FLAKEGATE="+bin, "FLAKEGATE_OUT="+filepath.Join(tmp, "out"),
		"GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+outputs)
	for k, v := range inputs {
		cmd.Env = append(cmd.Env, "INPUT_"+k+"="+v)
	}
	cmd.Env = append(cmd.Env, env...)
	s := step{outputs: map[string]string{}}
	s.stdout, s.stderr, s.code = runCmd(t, cmd)
	raw, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	s.summary = strings.TrimPrefix(string(raw), "## Earlier step\n\n")
	if !strings.HasPrefix(string(raw), "## Earlier step\n\n") {
		t.Errorf("the action overwrote the summary instead of appending:\n%s", raw)
	}
	raw, _ = os.ReadFile(outputs)
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			if _, dup := s.outputs[k]; dup {
				t.Errorf("output %s set twice", k)
			}
			s.outputs[k] = v
		}
	}
	return s
}

// TestActionStep runs the action's step on real runs: a patch that makes a
// test fail every time (the gate blocks), one that fixes it (the gate
// passes), JUnit reports with a cap too small and one large enough, and bad
// input. Each checks the exit status, the summary, the annotations and the
// outputs against flakegate's own -markdown and -json for the same command.
func TestActionStep(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("the action's step needs bash: ", err)
	}
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	work := filepath.Join(tmp, "work")
	// Scale 0 fixes every flake; 2 makes TestTable/often (rate 0.5) fail
	// every time. FLAKY_SEED fixes every outcome.
	fixed := goTestRuns(t, work, "fixed", "0", 5)
	broken := goTestRuns(t, work, "broken", "2", 5)
	junit, err := filepath.Abs("../../core/report/testdata/reports/junit/gotestsum_count3.xml")
	if err != nil {
		t.Fatal(err)
	}
	cli := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		out, err := cmd.Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	rel := func(paths []string) []string {
		out := make([]string, len(paths))
		for i, p := range paths {
			out[i], _ = filepath.Rel(work, p)
		}
		return out
	}

	cases := []struct {
		name    string
		inputs  map[string]string
		args    []string // the same command as the CLI's arguments
		code    int
		verdict string
		answer  string   // the summary's first line starts so
		errors  []string // annotations that must be there
	}{
		{
			name:   "go test -json, the patch breaks a test",
			inputs: map[string]string{"COMMAND": "ledger -min-trials 5", "REPORTS": "reports/fixed/*.json", "PATCHED": "reports/broken/**/*.json", "SITE": site},
			args:   append(append([]string{"ledger", "-min-trials", "5"}, rel(fixed)...), patchedArgs(rel(broken))...),
			code:   1, verdict: "block", answer: "**The gate blocks: 2 of 6 tests block",
			errors: []string{"::error file=reports/broken/run-01.json,title=flakegate%3A example.com/flaky.TestTable/often::The gate blocks the patch: the pass rate fell from 5/5 (100.0%25) to 0/5 (0.0%25)"},
		},
		{
			name:   "go test -json, the patch fixes it",
			inputs: map[string]string{"COMMAND": "ledger -min-trials 5", "REPORTS": "reports/broken/*.json", "PATCHED": "reports/fixed/*.json", "SITE": site},
			args:   append(append([]string{"ledger", "-min-trials", "5"}, rel(broken)...), patchedArgs(rel(fixed))...),
			code:   0, verdict: "pass", answer: "**The gate passes: none of 6 tests blocks",
		},
		{
			name:   "JUnit, a cap too small for its flakes",
			inputs: map[string]string{"COMMAND": "budget -cap 1 -cost 2", "REPORTS": junit, "SITE": site},
			args:   []string{"budget", "-cap", "1", "-cost", "2", "-from", junit},
			code:   1, verdict: "block", answer: "**The gate blocks: 3 of 6 tests flaked in 1 run",
			errors: []string{"::error file=" + escapeProp(junit) + ",title=flakegate%3A example.com/flaky.TestFlaky::example.com/flaky.TestFlaky failed 1 of 3 executions; your 1 rerun catches a 79.2%25 flake"},
		},
		{
			name:   "JUnit, gotestsum's own retry setting",
			inputs: map[string]string{"COMMAND": "budget -runner gotestsum=1 -cost 2", "REPORTS": junit, "SITE": site},
			args:   []string{"budget", "-runner", "gotestsum=1", "-cost", "2", "-from", junit},
			code:   1, verdict: "block", answer: "**The gate blocks: 3 of 6 tests flaked in 1 run, and 3 of them need more reruns than your cap of 1 retry (--rerun-fails=1).**",
			errors: []string{"::error file=" + escapeProp(junit) + ",title=flakegate%3A example.com/flaky.TestFlaky::example.com/flaky.TestFlaky failed 1 of 3 executions; your 1 retry (--rerun-fails=1) catches a 79.2%25 flake"},
		},
		{
			name:   "JUnit, a cap that catches them",
			inputs: map[string]string{"COMMAND": "budget -cap 3", "REPORTS": junit + "\n\n  " + junit + "  \n", "SITE": site},
			args:   []string{"budget", "-cap", "3", "-from", junit, "-from", junit},
			code:   0, verdict: "pass", answer: "**The gate passes",
		},
		{
			name:   "history of go test -json runs: the broken patch's failures are a stretch, not a flake",
			inputs: map[string]string{"COMMAND": "history -cost 2", "REPORTS": "reports/fixed/*.json\nreports/broken/*.json"},
			args:   append(append([]string{"history", "-cost", "2"}, rel(fixed)...), rel(broken)...),
			code:   0, verdict: "pass", answer: "**None of 6 tests is flaky in 10 runs; no outage.**",
		},
		{
			name:   "a block that does not fail the job",
			inputs: map[string]string{"COMMAND": "budget -cap 1", "REPORTS": junit, "FAIL_ON_BLOCK": "false"},
			args:   []string{"budget", "-cap", "1", "-from", junit},
			code:   0, verdict: "block", answer: "**The gate blocks",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := runStep(t, bin, work, c.inputs)
			if s.code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", s.code, c.code, s.stdout, s.stderr)
			}
			// The summary is flakegate's own -markdown for the same command.
			md, _ := cli(append(c.args, "-markdown", "-site", c.inputs["SITE"])...)
			if c.inputs["SITE"] == "" {
				md, _ = cli(append(c.args, "-markdown")...)
			}
			if s.summary != md || !strings.HasPrefix(s.summary, c.answer) {
				t.Errorf("summary\n%s\n--- want flakegate -markdown's, starting %q:\n%s", s.summary, c.answer, md)
			}
			// The outputs: the verdict, whether it blocks, the link, and a
			// JSON file that is flakegate -json's.
			js, code := cli(append(c.args, "-json", "-site", c.inputs["SITE"])...)
			if c.inputs["SITE"] == "" {
				js, code = cli(append(c.args, "-json")...)
			}
			checkOutputs(t, s, js, c.verdict, code, c.inputs["SITE"] != "", site+"/")
			for _, a := range c.errors {
				if !strings.Contains(s.stdout, "\n"+a) && !strings.HasPrefix(s.stdout, a) {
					t.Errorf("no annotation %q in:\n%s", a, s.stdout)
				}
			}
			if n := strings.Count(s.stdout, "\n::error "); c.code == 0 && c.verdict == "pass" && n > 0 {
				t.Errorf("%d error annotations for a gate that passes:\n%s", n, s.stdout)
			}
			for _, line := range strings.Split(s.stdout, "\n") {
				if strings.HasPrefix(line, "::") && !annotationLine.MatchString(line) {
					t.Errorf("not a workflow command GitHub reads: %q", line)
				}
			}
		})
	}
}

// annotationLine is a workflow command with its properties escaped: no
// raw ':' or ',' inside a property's value, no CR or LF anywhere.
var annotationLine = regexp.MustCompile(`^::(error|warning|notice)( (file|title)=[^:,\r\n]*(,(file|title)=[^:,\r\n]*)*)?::[^\r\n]*$`)

func patchedArgs(files []string) []string {
	var out []string
	for _, f := range files {
		out = append(out, "-patched", f)
	}
	return out
}

func escapeProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// TestActionStepBadInput: input flakegate cannot use stops the step with
// status 2, an error annotation whose message GitHub reads whole (its % and
// line breaks escaped by GitHub's rules: %25, %0D, %0A), a summary that
// says so, and outputs that say there is no result.
func TestActionStepBadInput(t *testing.T) {
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	work := filepath.Join(tmp, "work 100%")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	// A go test -json run cut short in the middle of a line, as a killed
	// job leaves it.
	junk := `{"Action":"run","Test":"TestA"}` + "\n" + `{"Action":"pass","Te`
	if err := os.WriteFile(filepath.Join(work, "cut%short.json"), []byte(junk), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		inputs map[string]string
		msg    string // the start of the annotation's escaped message
	}{
		{"a cut report", map[string]string{"COMMAND": "budget", "REPORTS": "*.json"}, "flakegate budget: cut%25short.json:2:"},
		{"no report matches", map[string]string{"COMMAND": "ledger", "REPORTS": "reports/**/*.xml"}, "no report file matches reports/**/*.xml"},
		{"an unknown flag", map[string]string{"COMMAND": "budget -kap 3", "REPORTS": "*.json"}, "flakegate budget: flag provided but not defined: -kap%0Arun 'flakegate budget -h' for usage"},
		{"a bad site", map[string]string{"COMMAND": "size 0.5 0.85", "SITE": "flakegate.example"}, "flakegate size: -site: site address"},
		{"reports for a command that reads none", map[string]string{"COMMAND": "decide -baseline 1/2 -patched 2/2", "REPORTS": "*.json"}, "flakegate decide reads no reports"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := runStep(t, bin, work, c.inputs)
			if s.code != 2 {
				t.Fatalf("exit %d, want 2\nstdout:\n%s\nstderr:\n%s", s.code, s.stdout, s.stderr)
			}
			want := "::error title=flakegate could not run::" + c.msg
			if !strings.Contains(s.stdout, want) {
				t.Errorf("no annotation starting %q in:\n%s", want, s.stdout)
			}
			for _, line := range strings.Split(strings.TrimSuffix(s.stdout, "\n"), "\n") {
				if strings.HasPrefix(line, "::") && !annotationLine.MatchString(line) {
					t.Errorf("not a workflow command GitHub reads: %q", line)
				}
			}
			if !strings.HasPrefix(s.summary, "**flakegate could not run: its input is unusable.**\n\n```\n") {
				t.Errorf("summary:\n%s", s.summary)
			}
			want2 := map[string]string{"verdict": "error", "blocks": "false", "link": "", "json": ""}
			if fmt.Sprint(s.outputs) != fmt.Sprint(want2) {
				t.Errorf("outputs %v, want %v", s.outputs, want2)
			}
		})
	}
}

// The action builds flakegate from its own ref with setup-go's Go and runs
// the step this package tests.
func TestActionYAML(t *testing.T) {
	raw, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"using: composite", "uses: actions/setup-go@v5", "go-version-file: ${{ github.action_path }}/go.mod",
		`working-directory: ${{ github.action_path }}`, "go build -trimpath -o \"$RUNNER_TEMP/flakegate/bin/flakegate\" ./cmd/flakegate",
		`run: bash "$GITHUB_ACTION_PATH/action/run.sh"`, "INPUT_REPORTS: ${{ inputs.reports }}", "value: ${{ steps.gate.outputs.verdict }}",
		"value: ${{ steps.gate.outputs.blocks }}", "value: ${{ steps.gate.outputs.link }}", "value: ${{ steps.gate.outputs.json }}",
		"INPUT_STORE: ${{ inputs.store }}", "INPUT_STORE_BRANCH: ${{ inputs.store-branch }}", "default: flakegate-data",
		"value: ${{ steps.gate.outputs.store }}", "value: ${{ steps.gate.outputs.store-commit }}"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("action.yml lacks %q", want)
		}
	}
}

// TestSummaryScript runs the plain shell example on gotestsum's JUnit
// report: its summary is flakegate's -markdown and its status the gate's.
func TestSummaryScript(t *testing.T) {
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	junit, _ := filepath.Abs("../../core/report/testdata/reports/junit/gotestsum_count3.xml")
	bad := filepath.Join(tmp, "bad.xml")
	os.WriteFile(bad, []byte("<testsuites><testsuite><testcase"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		say  string
	}{
		{[]string{"budget", "-cap", "3", "-from", junit}, 0, "the gate passes"},
		{[]string{"budget", "-cap", "1", "-from", junit}, 1, "the gate blocks"},
		{[]string{"budget", "-from", bad}, 2, "could not run (exit status 2)"},
	} {
		summary := filepath.Join(tmp, "summary.md")
		os.Remove(summary)
		cmd := exec.Command("sh", "summary.sh")
		cmd.Args = append(cmd.Args, c.args...)
		cmd.Env = append(os.Environ(), "FLAKEGATE="+bin, "SUMMARY="+summary, "FLAKEGATE_SITE="+site)
		stdout, stderr, code := runCmd(t, cmd)
		if code != c.code || !strings.Contains(stderr, c.say) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.say)
			continue
		}
		if c.code == 2 {
			continue
		}
		want, _ := exec.Command(bin, append(c.args, "-markdown", "-site", site)...).Output()
		got, _ := os.ReadFile(summary)
		if string(got) != string(want) || stdout != string(want) {
			t.Errorf("%v: the summary file and the output are not flakegate -markdown's:\n%s", c.args, got)
		}
	}
}

// The examples use the action and the shell example with -markdown.
func TestExamplesUseTheAction(t *testing.T) {
	for file, wants := range map[string][]string{
		"github-action.yml": {"uses: flakegate/flakegate@main", "command: budget -runner gotestsum=2 -cost 8", "reports: test-results/*.xml",
			"steps.flakegate.outputs.json", "--rerun-fails=2"},
		"gitlab-ci.yml": {"sh examples/ci/summary.sh budget -cap 3 -cost 8", "flakegate-summary.md", "exit_codes: [1]", "go test -json -count=1"},
		"summary.sh":    {"-markdown >\"$SUMMARY\""},
		"record-triage.yml": {"contents: write", "command: record -keep 90d", "command: triage", "github.event_name == 'push'",
			"github.event_name == 'pull_request'", "steps.triage.outputs.verdict == 'no-history'", "continue-on-error: ${{ github.event_name == 'pull_request' }}"},
	} {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !bytes.Contains(raw, []byte(w)) {
				t.Errorf("%s lacks %q", file, w)
			}
		}
	}
}

// buildCLI builds flakegate into dir and returns the binary's path.
func buildCLI(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "flakegate")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/flakegate/flakegate/cmd/flakegate").CombinedOutput(); err != nil {
		t.Fatalf("building the CLI: %v\n%s", err, out)
	}
	return bin
}

// runCmd runs cmd and returns its standard output and error and its exit
// status; failing to run it at all fails the test.
func runCmd(t *testing.T, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// checkOutputs holds a step's outputs to flakegate's own -json answer js
// and exit status code: the verdict, whether it blocks, the link (starting
// with linkPrefix when linked is set) and a JSON file holding js.
func checkOutputs(t *testing.T, s step, js, verdict string, code int, linked bool, linkPrefix string) {
	t.Helper()
	var res struct {
		Link string `json:"link"`
	}
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(s.outputs["json"]); err != nil || string(got) != js {
		t.Errorf("output json %q: %v; its content differs from flakegate -json's", s.outputs["json"], err)
	}
	want := map[string]string{"verdict": verdict, "blocks": fmt.Sprint(code == 1), "link": res.Link, "json": s.outputs["json"]}
	if fmt.Sprint(s.outputs) != fmt.Sprint(want) {
		t.Errorf("outputs %v, want %v", s.outputs, want)
	}
	if linked && !strings.HasPrefix(res.Link, linkPrefix) {
		t.Errorf("link %q", res.Link)
	}
}

// TestActionCompare runs the action's step with command compare: reports
// are side A's eval logs, patched side B's (two lm-evaluation-harness runs
// of 20 documents; core/compare's logs_test.go checks the figures by hand:
// 6 wrong to right, 2 right to wrong, McNemar p = 0.29). compare only
// informs: the step passes, its summary is flakegate's own -markdown, and
// a missing side is an error.
func TestActionCompare(t *testing.T) {
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	logs, err := filepath.Abs("../../core/compare/testdata/logs")
	if err != nil {
		t.Fatal(err)
	}
	a, b := "samples_arith_gen_2026-12-01T10-00-00.000001.jsonl", "samples_arith_gen_2026-12-02T10-00-00.000001.jsonl"
	s := runStep(t, bin, logs, map[string]string{"COMMAND": "compare", "REPORTS": a, "PATCHED": b})
	if s.code != 0 || s.outputs["verdict"] != "pass" || s.outputs["blocks"] != "false" {
		t.Fatalf("exit %d, outputs %v, stderr %s", s.code, s.outputs, s.stderr)
	}
	cmd := exec.Command(bin, "compare", "-markdown", a, b)
	cmd.Dir = logs
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if s.summary != string(want) {
		t.Errorf("summary differs from flakegate compare -markdown:\n%s\n---\n%s", s.summary, want)
	}
	if !strings.Contains(s.stdout, "::notice title=flakegate::B answers 20.0 points more questions right") {
		t.Errorf("no answer annotation in %q", s.stdout)
	}
	s = runStep(t, bin, logs, map[string]string{"COMMAND": "compare", "REPORTS": a})
	if s.code != 2 || s.outputs["verdict"] != "error" || !strings.Contains(s.stdout, "needs both sides") {
		t.Errorf("one side: exit %d, outputs %v, stdout %q", s.code, s.outputs, s.stdout)
	}
}
