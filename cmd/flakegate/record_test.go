package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/core/store"
)

// childArgs, when set in the environment, makes the test binary run the
// command line it holds (arguments separated by newlines) and exit: the
// CLI as a process of its own, to be killed.
const childArgs = "FLAKEGATE_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if a := os.Getenv(childArgs); a != "" {
		os.Exit(run(context.Background(), strings.Split(a, "\n"), os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// noCI clears the CI environment record reads, so the runs are told
// apart by their content.
func noCI(t *testing.T) {
	for _, v := range []string{"GITHUB_ACTIONS", "GITHUB_RUN_ID", "GITHUB_RUN_ATTEMPT", "GITHUB_SHA", "GITHUB_REF_NAME", "GITHUB_HEAD_REF", "GITHUB_JOB", "GITHUB_WORKFLOW",
		"GITLAB_CI", "CI_PIPELINE_ID", "CI_JOB_ID", "CI_COMMIT_SHA", "CI_COMMIT_REF_NAME", "CI_JOB_NAME",
		"BUILDKITE", "BUILDKITE_BUILD_ID", "BUILDKITE_COMMIT", "BUILDKITE_BRANCH", "BUILDKITE_LABEL", "BUILDKITE_RETRY_COUNT",
		"JENKINS_URL", "BUILD_NUMBER", "JOB_NAME", "GIT_COMMIT", "BRANCH_NAME", "GIT_BRANCH"} {
		t.Setenv(v, "")
	}
}

// monthReports writes the planted month (plantedMonth) as one report per
// run in dir, JUnit and go test -json in turn, and returns their paths in
// the order a folder gives them.
func monthReports(t *testing.T, dir string, cfg histsim.Config) []string {
	t.Helper()
	return editedReports(t, dir, cfg, nil)
}

// editedReports is monthReports with each run's results changed by edit
// (given the run's place) before they are written, when edit is not nil.
func editedReports(t *testing.T, dir string, cfg histsim.Config, edit func(k int, rs []history.TestResult)) []string {
	t.Helper()
	var paths []string
	_, err := histsim.Generate(cfg, func(m history.RunMeta, rs []history.TestResult) error {
		if edit != nil {
			edit(len(paths), rs)
		}
		write, ext := histsim.WriteJUnit, ".xml"
		if len(paths)%2 == 1 {
			write, ext = histsim.WriteGoTest, ".json"
		}
		var b bytes.Buffer
		if err := write(&b, m, rs); err != nil {
			return err
		}
		p := filepath.Join(dir, m.Name+ext)
		paths = append(paths, p)
		return os.WriteFile(p, b.Bytes(), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// mustCLI runs a command that answers (exit 0, or 1: history blocks on a
// flaky test) and returns its output.
// plantedRuns writes the first runs of the planted month as reports in a
// temporary folder and returns the folder, the reports and a store's path
// there (not yet written), with the CI environment cleared.
func plantedRuns(t *testing.T, runs int) (dir string, paths []string, fgs string) {
	t.Helper()
	noCI(t)
	dir = t.TempDir()
	cfg := plantedMonth
	cfg.Runs = runs
	return dir, monthReports(t, dir, cfg), filepath.Join(dir, "runs.fgs")
}

func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := cli(t, "", args...)
	if code != exitOK && code != exitBlock {
		t.Fatalf("flakegate %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// History from a store of recorded reports is history from the reports,
// byte for byte (-json), and recording a report again changes nothing.
func TestRecordHistorySameAsReports(t *testing.T) {
	noCI(t)
	dir := t.TempDir()
	reports := filepath.Join(dir, "reports")
	os.Mkdir(reports, 0o755)
	paths := monthReports(t, reports, plantedMonth)
	fgs := filepath.Join(dir, "runs.fgs")
	for _, p := range paths {
		mustCLI(t, "record", "-store", fgs, p)
	}
	again := mustCLI(t, "record", "-store", fgs, paths[3])
	if !strings.HasPrefix(again, "Already recorded") {
		t.Errorf("recording a run again: %q", again)
	}
	fromReports := mustCLI(t, "history", "-json", reports)
	fromStore := mustCLI(t, "history", "-json", fgs)
	if fromReports != fromStore {
		t.Fatalf("history differs\nreports: %.600s\nstore:   %.600s", fromReports, fromStore)
	}
	// A store given twice, or beside its reports' copies, counts each run
	// once per store read; merged into another store, once.
	merged := filepath.Join(dir, "merged.fgs")
	half := filepath.Join(dir, "half.fgs")
	for _, p := range paths[:len(paths)/2] {
		mustCLI(t, "record", "-store", half, p)
	}
	out := mustCLI(t, "record", "-json", "-store", merged, "-merge", half, fgs, half)
	if !strings.Contains(out, `"appended": `+strconv.Itoa(len(paths))) {
		t.Errorf("merge: %s", out)
	}
	if got := mustCLI(t, "history", "-json", merged); got != fromReports {
		t.Fatalf("history of the merged store differs from the reports'")
	}
}

// Every byte cut from a store's last record: history refuses with the
// offset, the runs before are intact, and the next record removes the
// torn tail and appends.
func TestRecordTornTail(t *testing.T) {
	_, paths, fgs := plantedRuns(t, 6)
	for _, p := range paths[:4] {
		mustCLI(t, "record", "-store", fgs, p)
	}
	before, _ := os.ReadFile(fgs)
	mustCLI(t, "record", "-store", fgs, paths[4])
	whole, _ := os.ReadFile(fgs)
	for cut := len(before) + 1; cut < len(whole); cut++ {
		os.WriteFile(fgs, whole[:cut], 0o644)
		code, _, errs := cli(t, "", "history", fgs)
		if code != exitUsage || !strings.Contains(errs, fmt.Sprintf("damaged at byte %d, record 5", len(before))) || !strings.Contains(errs, "4 runs") {
			t.Fatalf("cut at %d: history exit %d, %s", cut, code, errs)
		}
		code, _, errs = cli(t, "", "record", "-store", fgs, paths[5])
		if code != 0 || !strings.Contains(errs, "removed a torn append") {
			t.Fatalf("cut at %d: record exit %d, %s", cut, code, errs)
		}
		st := scan(t, fgs)
		if st.Damage != nil || st.Entries != 5 {
			t.Fatalf("cut at %d: after record, %d entries, damage %v", cut, st.Entries, st.Damage)
		}
	}
}

func scan(t *testing.T, path string) *store.State {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Scan(bytes.NewReader(b), path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A flipped bit in a middle record: history and record refuse and name
// the record; -repair keeps the runs before it and sets the rest aside.
func TestRecordFlippedBit(t *testing.T) {
	_, paths, fgs := plantedRuns(t, 5)
	mustCLI(t, "record", "-store", fgs, paths[0])
	mustCLI(t, "record", "-store", fgs, paths[1])
	off := scan(t, fgs).End
	for _, p := range paths[2:4] {
		mustCLI(t, "record", "-store", fgs, p)
	}
	b, _ := os.ReadFile(fgs)
	b[off+40] ^= 0x10
	os.WriteFile(fgs, b, 0o644)
	want := fmt.Sprintf("damaged at byte %d, record 3: its checksum does not match", off)
	for _, args := range [][]string{{"history", fgs}, {"record", "-store", fgs, paths[4]}} {
		code, _, errs := cli(t, "", args...)
		if code != exitUsage || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, %s", args[0], code, errs)
		}
	}
	if after, _ := os.ReadFile(fgs); !bytes.Equal(after, b) {
		t.Fatal("a refused record changed the store")
	}
	mustCLI(t, "record", "-store", fgs, "-repair", paths[4])
	if st := scan(t, fgs); st.Entries != 3 || st.Damage != nil {
		t.Fatalf("after -repair: %d entries, damage %v", st.Entries, st.Damage)
	}
	if aside, _ := os.ReadFile(fgs + ".damaged"); !bytes.Equal(aside, b[off:]) {
		t.Fatal("-repair did not set the damaged rest aside whole")
	}
}

// Two appenders at once (each a process of its own, as two CI jobs): every
// run is in the store once.
func TestRecordTwoAppenders(t *testing.T) {
	_, paths, fgs := plantedRuns(t, 16)
	var wg sync.WaitGroup
	errs := make(chan error, len(paths)*2)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Both appenders record every run, in opposite orders.
			for i := range paths {
				p := paths[i]
				if w == 1 {
					p = paths[len(paths)-1-i]
				}
				if out, err := child(t, "record", "-store", fgs, p).CombinedOutput(); err != nil {
					errs <- fmt.Errorf("%s: %v: %s", p, err, out)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if st := scan(t, fgs); st.Entries != len(paths) || st.Damage != nil {
		t.Fatalf("%d entries (want %d), damage %v", st.Entries, len(paths), st.Damage)
	}
}

func child(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(args, "\n"))
	return cmd
}

// kill -9 during an append, at points spread over the process's life:
// after each, the runs recorded before are all there, any damage is a torn
// tail, and the next record removes it.
func TestRecordKilled(t *testing.T) {
	noCI(t)
	dir := t.TempDir()
	cfg := plantedMonth
	cfg.Runs = 4
	paths := monthReports(t, dir, cfg)
	big := filepath.Join(dir, "big.xml")
	var b bytes.Buffer
	rs := make([]history.TestResult, 30_000)
	for i := range rs {
		rs[i] = history.TestResult{Test: fmt.Sprintf("pkg%d/Test%d", i%97, i), Passed: int64(i % 50 & 1), Trials: 1}
	}
	histsim.WriteJUnit(&b, history.RunMeta{Time: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}, rs)
	os.WriteFile(big, b.Bytes(), 0o644)
	fgs := filepath.Join(dir, "runs.fgs")
	for _, p := range paths {
		mustCLI(t, "record", "-store", fgs, p)
	}
	base := scan(t, fgs).End
	start := time.Now()
	if out, err := child(t, "record", "-store", filepath.Join(dir, "timing.fgs"), big).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	life := time.Since(start)
	for k := 1; k <= 8; k++ {
		cmd := child(t, "record", "-store", fgs, big)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(life * time.Duration(k) / 8)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		st := scan(t, fgs)
		if st.Entries < len(paths) || st.Damage != nil && !st.Damage.Torn {
			t.Fatalf("killed at %d/8 of its life: %d entries (recorded %d before), damage %v", k, st.Entries, len(paths), st.Damage)
		}
		if st.Entries > len(paths) {
			// The append finished before the kill: take it out again, so
			// the next kill meets an append to do.
			os.Truncate(fgs, base)
		}
	}
	mustCLI(t, "record", "-store", fgs, paths[0])
	if st := scan(t, fgs); st.Entries != len(paths) || st.Damage != nil {
		t.Fatalf("after the kills: %d entries, damage %v", st.Entries, st.Damage)
	}
}

// Each CI system's variables, as its documentation names them, give the
// run's commit, branch, job, run and attempt.
func TestCIEnv(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want ciRun
	}{
		{map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": "abc", "GITHUB_REF_NAME": "main", "GITHUB_WORKFLOW": "CI", "GITHUB_JOB": "test", "GITHUB_RUN_ID": "42", "GITHUB_RUN_ATTEMPT": "2"},
			ciRun{"github", "abc", "main", "CI/test", "github:42", 2}},
		{map[string]string{"GITLAB_CI": "true", "CI_COMMIT_SHA": "def", "CI_COMMIT_REF_NAME": "dev", "CI_JOB_NAME": "unit", "CI_PIPELINE_ID": "7", "CI_JOB_ID": "99"},
			ciRun{"gitlab", "def", "dev", "unit", "gitlab:7/99", 0}},
		{map[string]string{"BUILDKITE": "true", "BUILDKITE_COMMIT": "123", "BUILDKITE_BRANCH": "b", "BUILDKITE_LABEL": ":go: test", "BUILDKITE_BUILD_ID": "u-1", "BUILDKITE_RETRY_COUNT": "1"},
			ciRun{"buildkite", "123", "b", ":go: test", "buildkite:u-1", 2}},
		{map[string]string{"JENKINS_URL": "http://j", "GIT_COMMIT": "9f", "GIT_BRANCH": "origin/main", "JOB_NAME": "app", "BUILD_NUMBER": "15"},
			ciRun{"jenkins", "9f", "main", "app", "jenkins:app#15", 0}},
		{map[string]string{}, ciRun{}},
	}
	for _, c := range cases {
		if got := ciEnv(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %+v, want %+v", c.env, got, c.want)
		}
	}
}

// -keep 3 keeps the newest three runs, -keep 10d those at most ten days
// before the newest (the planted month's runs are spread over 30 days:
// histsim's step, 30 days over the runs); what is kept reads as before.
func TestRecordKeep(t *testing.T) {
	_, paths, fgs := plantedRuns(t, 30)
	for _, p := range paths {
		mustCLI(t, "record", "-store", fgs, p)
	}
	out := mustCLI(t, "record", "-store", fgs, "-keep", "10d")
	// Days 20..29 are within ten days of day 29, inclusive: 11 runs.
	if st := scan(t, fgs); st.Entries != 11 || !strings.Contains(out, "dropped 19 old runs") {
		t.Fatalf("-keep 10d: %d entries, %q", st.Entries, out)
	}
	mustCLI(t, "record", "-store", fgs, "-keep", "3")
	want := mustCLI(t, "history", "-json", paths[27], paths[28], paths[29])
	if got := mustCLI(t, "history", "-json", fgs); got != want {
		t.Fatalf("after -keep 3 the store's history differs from the last three reports'")
	}
}
