//go:build integration

package ci

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core/store"
)

// The action's record and triage commands with the store on a data branch,
// run as GitHub runs them for 60 simulated days of CI: a bare repository is
// the remote, every job is a fresh shallow clone of it (as actions/checkout
// makes one), and the jobs of a workflow run record at the same time, so
// their pushes to the data branch race. This file needs git and bash, hence
// the integration tag.

// The simulation's size: 60 days × 1 push to main a day × 3 parallel jobs
// = 180 job runs, plus the reruns of failed jobs. (Each job run is a dozen
// git processes and a flakegate record, a few seconds on a busy 2-core
// machine: more runs a day would add minutes and test nothing new, since
// the three jobs of every run already race to push.)
const (
	simDays       = 60
	simRunsPerDay = 1
	simSeed       = 20261206
)

// simTest is one test of a job's package: its failure rate (a planted
// flake), or 0 for a test that passes unless broken or in an outage.
type simTest struct {
	name string
	rate float64 // failure rate in [0,1]
}

// simJob is one job of the workflow: the package its tests are in.
type simJob struct {
	name  string // GITHUB_JOB
	pkg   string
	tests []simTest
}

var simJobs = []simJob{
	{"unit", "example.com/widgets/unit", []simTest{{"TestAdd", 0}, {"TestSub", 0}, {"TestParse", 0}, {"TestFormat", 0}, {"TestFlakyNet", 0.05}}},
	{"integration", "example.com/widgets/store", []simTest{{"TestOpen", 0}, {"TestLogin", 0}, {"TestQueue", 0}, {"TestFlakyTimer", 0.03}}},
	{"e2e", "example.com/widgets/e2e", []simTest{{"TestHome", 0}, {"TestSearch", 0}, {"TestCheckout", 0}, {"TestFlakyDisk", 0.01}, {"TestFlakyRender", 0.02}}},
}

// The planted incidents, by push to main (0-based) and day: a breakage of
// store.TestLogin from the push after day 20's first until the fix in day
// 26's first, and an outage all of day 40 that fails every test of the
// integration and e2e jobs (their service is down; reruns fail too).
const (
	breakFrom  = 20*simRunsPerDay + 1
	breakUntil = 26 * simRunsPerDay
	outageDay  = 40
)

// simRepo is the remote, a bare repository, and the developer's clone that
// pushes to main.
type simRepo struct {
	dir, bare, dev string
}

func git(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitEnv fixes the identity and keeps the machine's git configuration out.
var gitEnv = []string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	"GIT_AUTHOR_NAME=dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=dev", "GIT_COMMITTER_EMAIL=dev@example.com"}

func newSimRepo(t *testing.T, dir string) *simRepo {
	r := &simRepo{dir: dir, bare: filepath.Join(dir, "remote.git"), dev: filepath.Join(dir, "dev")}
	git(t, dir, gitEnv, "init", "--quiet", "--bare", "--initial-branch=main", r.bare)
	git(t, dir, gitEnv, "clone", "--quiet", "file://"+r.bare, r.dev)
	git(t, r.dev, gitEnv, "checkout", "--quiet", "-b", "main")
	return r
}

// push commits a change to main at the simulated time and returns its SHA.
func (r *simRepo) push(t *testing.T, n int, at time.Time) string {
	date := at.Format(time.RFC3339)
	env := append(gitEnv[:len(gitEnv):len(gitEnv)], "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	git(t, r.dev, env, "commit", "--quiet", "--allow-empty", "-m", fmt.Sprintf("change %d", n))
	git(t, r.dev, env, "push", "--quiet", "origin", "main")
	return git(t, r.dev, env, "rev-parse", "HEAD")
}

// simRun is one job's run: what GitHub sets for it.
type simRun struct {
	job     simJob
	runID   int64
	number  int
	attempt int
	sha     string
	event   string // push or pull_request
	ref     string // GITHUB_REF
	refName string // GITHUB_REF_NAME
	at      time.Time
}

// key is the run's identity as flakegate record takes it from GitHub's
// variables: the run id prefixed with "github:", the attempt, and the job
// as workflow/job.
func (s simRun) key() string {
	return fmt.Sprintf("github:%d/%d/CI/%s", s.runID, s.attempt, s.job.name)
}

// report writes the job's go test -json report: every test once, those in
// failed failing, the others passing.
func (s simRun) report(failed map[string]bool) []byte {
	var b strings.Builder
	at := s.at
	line := func(action, test, extra string) {
		fmt.Fprintf(&b, `{"Time":%q,"Action":%q,"Package":%q`, at.Format(time.RFC3339Nano), action, s.job.pkg)
		if test != "" {
			fmt.Fprintf(&b, `,"Test":%q`, test)
		}
		b.WriteString(extra + "}\n")
		at = at.Add(150 * time.Millisecond)
	}
	pkgFailed := false
	for _, tc := range s.job.tests {
		line("run", tc.name, "")
		if failed[tc.name] {
			line("output", tc.name, fmt.Sprintf(`,"Output":"    %s_test.go:12: unexpected answer\n"`, strings.ToLower(tc.name)))
			line("fail", tc.name, `,"Elapsed":0.15`)
			pkgFailed = true
		} else {
			line("pass", tc.name, `,"Elapsed":0.15`)
		}
	}
	if pkgFailed {
		line("fail", "", `,"Elapsed":1.2`)
	} else {
		line("pass", "", `,"Elapsed":1.2`)
	}
	return []byte(b.String())
}

// outcome draws which of the job's tests fail in run n (the n-th push to
// main, 0-based) on day d.
func outcome(rng *rand.Rand, job simJob, n, d int) map[string]bool {
	failed := map[string]bool{}
	for _, tc := range job.tests {
		switch {
		case d == outageDay && job.name != "unit":
			failed[tc.name] = true
		case tc.rate > 0 && rng.Float64() < tc.rate:
			failed[tc.name] = true
		case job.name == "integration" && tc.name == "TestLogin" && n >= breakFrom && n < breakUntil:
			failed[tc.name] = true
		}
	}
	return failed
}

// jobStep is what one run of the action's step left: its exit status,
// output, summary and outputs.
type jobStep struct {
	code    int
	stdout  string
	stderr  string
	summary string
	outputs map[string]string
}

// newRunner makes a job's workspace as actions/checkout does (a fresh
// repository, origin the remote, the commit fetched at depth 1 and checked
// out detached) and its RUNNER_TEMP, under dir.
func newRunner(t *testing.T, r *simRepo, dir, sha string) (work, temp string) {
	work, temp = filepath.Join(dir, "work"), filepath.Join(dir, "temp")
	if err := os.MkdirAll(temp, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, gitEnv, "init", "--quiet", work)
	git(t, work, gitEnv, "remote", "add", "origin", "file://"+r.bare)
	git(t, work, gitEnv, "fetch", "--quiet", "--no-tags", "--depth=1", "origin", sha)
	git(t, work, gitEnv, "checkout", "--quiet", "--detach", "FETCH_HEAD")
	return work, temp
}

// runJobStep runs the action's step as job run s in the workspace work:
// the report written to test-results/, the GITHUB_* and RUNNER_* variables
// set as GitHub sets them, a fresh step summary and outputs file; extra
// variables (NAME=value) override those.
func runJobStep(t *testing.T, bin, work, temp string, s simRun, failed map[string]bool, command string, extra ...string) jobStep {
	script, err := filepath.Abs("../../action/run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(work, "test-results"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "test-results", s.job.name+".json"), s.report(failed), 0o644); err != nil {
		t.Fatal(err)
	}
	summary, outputs := filepath.Join(temp, "step_summary"), filepath.Join(temp, "output")
	os.Remove(summary)
	os.Remove(outputs)
	cmd := exec.Command("bash", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), gitEnv...)
	cmd.Env = append(cmd.Env,
		"FLAKEGATE="+bin, "FLAKEGATE_OUT="+filepath.Join(temp, "flakegate"), "FLAKEGATE_BACKOFF_MS=200",
		"INPUT_COMMAND="+command, "INPUT_REPORTS=test-results/*.json", "INPUT_STORE=history/flakegate.store", "INPUT_STORE_BRANCH=flakegate-data",
		"CI=true", "GITHUB_ACTIONS=true", "GITHUB_SERVER_URL=https://github.com", "GITHUB_API_URL=https://api.github.com",
		"GITHUB_REPOSITORY=acme/widgets", "GITHUB_REPOSITORY_OWNER=acme", "GITHUB_WORKFLOW=CI", "GITHUB_WORKFLOW_REF=acme/widgets/.github/workflows/ci.yml@"+s.ref,
		"GITHUB_JOB="+s.job.name, "GITHUB_RUN_ID="+fmt.Sprint(s.runID), "GITHUB_RUN_NUMBER="+fmt.Sprint(s.number),
		"GITHUB_RUN_ATTEMPT="+fmt.Sprint(s.attempt), "GITHUB_SHA="+s.sha, "GITHUB_REF="+s.ref, "GITHUB_REF_NAME="+s.refName,
		"GITHUB_REF_TYPE=branch", "GITHUB_EVENT_NAME="+s.event, "GITHUB_ACTOR=dev", "GITHUB_WORKSPACE="+work,
		"GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+outputs, "RUNNER_TEMP="+temp, "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
		"GITHUB_ACTION_PATH="+filepath.Dir(filepath.Dir(script)))
	if s.event == "pull_request" {
		cmd.Env = append(cmd.Env, "GITHUB_HEAD_REF=feature", "GITHUB_BASE_REF=main")
	} else {
		cmd.Env = append(cmd.Env, "GITHUB_HEAD_REF=", "GITHUB_BASE_REF=")
	}
	cmd.Env = append(cmd.Env, extra...)
	var st jobStep
	st.stdout, st.stderr, st.code = runCmd(t, cmd)
	raw, _ := os.ReadFile(summary)
	st.summary = string(raw)
	st.outputs = map[string]string{}
	raw, _ = os.ReadFile(outputs)
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			st.outputs[k] = v
		}
	}
	return st
}

var pushedAt = regexp.MustCompile(`pushed at attempt (\d+)\)`)

// TestActionDataBranch60Days is the simulation: every job run records its
// report on the data branch, failed jobs are rerun once (attempt 2, same
// run, same commit), one job's record step runs twice, and at the end the
// data branch's store holds every job run exactly once, with one commit
// for each, though the pushes raced.
func TestActionDataBranch60Days(t *testing.T) {
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	repo := newSimRepo(t, tmp)
	rng := rand.New(rand.NewPCG(simSeed, 1))
	start := time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC)

	// One workspace per job and run of the day, checked out once: a job's
	// step reads only its report and the data branch, never the checked-out
	// commit, so a fresh checkout per run would add git's time and test
	// nothing more (the pull request's triage below runs in a fresh one).
	runners := map[string][2]string{}
	slot := func(s simRun) string { return fmt.Sprintf("%s-%d", s.job.name, s.number%simRunsPerDay) }
	first := repo.push(t, -1, start.Add(-time.Hour))
	for r := range simRunsPerDay {
		for _, job := range simJobs {
			name := slot(simRun{job: job, number: r})
			w, tmpDir := newRunner(t, repo, filepath.Join(tmp, "runner-"+name), first)
			runners[name] = [2]string{w, tmpDir}
		}
	}
	var (
		recorded []string // every job run's key, in the order recorded
		retried  int      // pushes refused because another job pushed first
		reruns   int
		// flakeFails counts the recorded runs each planted flake failed,
		// outside the outage day: the history triage judges by.
		flakeFails = map[string]int{}
	)
	record := func(runs []simRun, fails []map[string]bool) {
		steps := make([]jobStep, len(runs))
		var wg sync.WaitGroup
		for i := range runs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := runners[slot(runs[i])]
				steps[i] = runJobStep(t, bin, r[0], r[1], runs[i], fails[i], "record")
			}()
		}
		wg.Wait()
		for i, st := range steps {
			if st.code != 0 || st.outputs["verdict"] != "recorded" {
				t.Fatalf("record %s: exit %d, outputs %v\nstdout:\n%s\nstderr:\n%s", runs[i].key(), st.code, st.outputs, st.stdout, st.stderr)
			}
			m := pushedAt.FindStringSubmatch(st.summary)
			if m == nil {
				t.Fatalf("record %s: the summary does not say it pushed:\n%s", runs[i].key(), st.summary)
			}
			var k int
			fmt.Sscan(m[1], &k)
			retried += k - 1
			recorded = append(recorded, runs[i].key())
			for _, tc := range runs[i].job.tests {
				if tc.rate > 0 && fails[i][tc.name] && (runs[i].job.name == "unit" || (runs[i].number-1)/simRunsPerDay != outageDay) {
					flakeFails[runs[i].job.pkg+"."+tc.name]++
				}
			}
		}
	}

	for d := range simDays {
		// The day's pushes to main, each a workflow run of every job; the
		// runs of a day overlap, so all their jobs record at once.
		var runs []simRun
		var fails []map[string]bool
		for r := range simRunsPerDay {
			n := d*simRunsPerDay + r
			at := start.AddDate(0, 0, d).Add(time.Duration(r) * 3 * time.Hour)
			sha := repo.push(t, n, at)
			for _, job := range simJobs {
				runs = append(runs, simRun{job: job, runID: 9000000000 + int64(n), number: n + 1, attempt: 1, sha: sha,
					event: "push", ref: "refs/heads/main", refName: "main", at: at})
				fails = append(fails, outcome(rng, job, n, d))
			}
		}
		record(runs, fails)
		// "Re-run failed jobs": the same run and commit, attempt 2.
		var again []simRun
		var againFails []map[string]bool
		for i, s := range runs {
			if len(fails[i]) > 0 {
				s.attempt, s.at = 2, s.at.Add(30*time.Minute)
				again = append(again, s)
				againFails = append(againFails, outcome(rng, s.job, s.number-1, d))
			}
		}
		reruns += len(again)
		if len(again) > 0 {
			record(again, againFails)
		}
		if d == 30 {
			// A record step run twice for the same job run (a retried
			// step): the store counts it once and nothing is pushed.
			r := runners[slot(runs[0])]
			st := runJobStep(t, bin, r[0], r[1], runs[0], fails[0], "record")
			if st.code != 0 || !strings.Contains(st.summary, "which held them already") || st.outputs["store-commit"] == "" {
				t.Fatalf("recording %s again: exit %d, summary %q, outputs %v\n%s", runs[0].key(), st.code, st.summary, st.outputs, st.stderr)
			}
		}
		if testing.Verbose() && d%10 == 9 {
			t.Logf("day %d: %d job runs recorded, %d pushes retried", d+1, len(recorded), retried)
		}
	}
	t.Logf("%d job runs recorded (%d reruns); %d pushes refused because another job had pushed first", len(recorded), reruns, retried)
	if retried == 0 {
		t.Errorf("no push raced another: the simulation did not exercise the data branch's retry")
	}

	// The data branch: one commit per job run, and the store holding each
	// job run exactly once.
	check := filepath.Join(tmp, "check")
	git(t, tmp, gitEnv, "clone", "--quiet", "--branch", "flakegate-data", "file://"+repo.bare, check)
	if got := git(t, check, gitEnv, "rev-list", "--count", "HEAD"); got != fmt.Sprint(len(recorded)) {
		t.Errorf("the data branch has %s commits, want one per job run: %d", got, len(recorded))
	}
	got := storeRuns(t, filepath.Join(check, "history", "flakegate.store"))
	want := append([]string(nil), recorded...)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the store holds %d runs, want each of the %d job runs once; missing or extra:\n%s", len(got), len(want), diffKeys(got, want))
	}

	// A pull request: its merge commit, the unit job failing the planted
	// flake (it failed flakeFails times on main) and TestParse, which never
	// failed: triage reads the data branch and blocks on the new failure
	// alone. The same job with only the flake failing passes.
	flake, broke := "example.com/widgets/unit.TestFlakyNet", "example.com/widgets/unit.TestParse"
	if flakeFails[flake] == 0 {
		t.Fatalf("the seed planted no failure of %s on main: no known flake to triage", flake)
	}
	t.Logf("%s failed %d times on main", flake, flakeFails[flake])
	git(t, repo.dev, gitEnv, "commit", "--quiet", "--allow-empty", "-m", "feature")
	git(t, repo.dev, gitEnv, "push", "--quiet", "origin", "HEAD:refs/pull/42/merge")
	prSHA := git(t, repo.dev, gitEnv, "rev-parse", "HEAD")
	pr := simRun{job: simJobs[0], runID: 9100000000, number: simDays*simRunsPerDay + 1, attempt: 1, sha: prSHA,
		event: "pull_request", ref: "refs/pull/42/merge", refName: "42/merge", at: start.AddDate(0, 0, simDays)}
	for _, c := range []struct {
		failed  map[string]bool
		code    int
		verdict string
		classes map[string]string // test → class
	}{
		{map[string]bool{"TestFlakyNet": true, "TestParse": true}, 1, "block", map[string]string{flake: "known-flake", broke: "new"}},
		{map[string]bool{"TestFlakyNet": true}, 0, "pass", map[string]string{flake: "known-flake"}},
	} {
		w, tmpDir := newRunner(t, repo, filepath.Join(tmp, fmt.Sprintf("pr-%d", len(c.failed))), prSHA)
		st := runJobStep(t, bin, w, tmpDir, pr, c.failed, "triage")
		if st.code != c.code || st.outputs["verdict"] != c.verdict || st.outputs["store-commit"] == "" {
			t.Errorf("triage of %v: exit %d, outputs %v; want exit %d, verdict %s\nstdout:\n%s\nstderr:\n%s", c.failed, st.code, st.outputs, c.code, c.verdict, st.stdout, st.stderr)
			continue
		}
		raw, err := os.ReadFile(st.outputs["json"])
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			PastRuns int `json:"past_runs"`
			Failures []struct {
				Test   string `json:"test"`
				Class  string `json:"class"`
				Blocks bool   `json:"blocks"`
			} `json:"failures"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatalf("triage's JSON: %v\n%s", err, raw)
		}
		classes := map[string]string{}
		for _, f := range res.Failures {
			classes[f.Test] = f.Class
			if f.Blocks != (f.Class == "new") {
				t.Errorf("%s (%s) blocks: %v", f.Test, f.Class, f.Blocks)
			}
		}
		if fmt.Sprint(classes) != fmt.Sprint(c.classes) {
			t.Errorf("triage of %v: classes %v, want %v\n%s", c.failed, classes, c.classes, st.summary)
		}
		if !strings.Contains(st.summary, flake) {
			t.Errorf("the step summary does not name %s:\n%s", flake, st.summary)
		}
	}
}

// diffKeys lists the keys only in got (+) or only in want (-), sorted.
func diffKeys(got, want []string) string {
	count := map[string]int{}
	for _, k := range got {
		count[k]++
	}
	for _, k := range want {
		count[k]--
	}
	var out []string
	for k, c := range count {
		switch {
		case c > 0:
			out = append(out, fmt.Sprintf("+%s ×%d", k, c))
		case c < 0:
			out = append(out, fmt.Sprintf("-%s ×%d", k, -c))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// storeRuns reads every record of a store with package store's reader
// (duplicates included: Each would fold them) and returns each record's
// run as run id/attempt/job, sorted.
func storeRuns(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, err := store.NewReader(f, file)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for {
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("reading the store: %v", err)
		}
		metas, _ := e.Report.Runs()
		if len(metas) != 1 {
			t.Fatalf("a record of %d runs, want each job's one report as one run", len(metas))
		}
		keys = append(keys, fmt.Sprintf("%s/%d/%s", e.RunID, e.Attempt, metas[0].Job))
	}
	sort.Strings(keys)
	return keys
}
