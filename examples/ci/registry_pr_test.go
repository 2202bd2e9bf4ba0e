//go:build integration

package ci

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/quarantine"
)

// The registry kept by the action: command triage with registry-pr opens
// a pull request holding the registry's change (the flaky tests beyond the
// gate's reruns added, the entries proven fixed released), its branch
// made from the base branch with git alone, and gh, here a fake on PATH
// that records its arguments, opening the pull request. Needs git and
// bash, hence the integration tag.

// registryJob is the simulated job: two stable tests, a flake at 20%
// (beyond the cap of 3 reruns: they catch it 1 − 0.8³ = 49% of the time,
// short of 95%), and TestFixed, quarantined on the second day (so the
// store holds a run from before: triage counts its runs since only then),
// failing 30% of its runs from then until the fix pushed before run
// registryFix, then never.
var registryJob = simJob{"unit", "example.com/widgets/unit", []simTest{{"TestAdd", 0}, {"TestSub", 0}, {"TestFlakyCache", 0.2}, {"TestFixed", 0}}}

const (
	registryFix  = 10 // runs of main before the fix
	registryRate = 0.3
	fixedID      = "example.com/widgets/unit.TestFixed"
	flakyID      = "example.com/widgets/unit.TestFlakyCache"
)

// registryRelease is TestFixed's entry's rule: below 10% at 95%.
var registryRelease = quarantine.Release{Below: 0.1, Confidence: 0.95}

// fakeGH is gh for the test: it appends its arguments to $GH_LOG, copies
// the --body-file to $GH_LOG.body, and opens a pull request once (a
// second pr create answers, as gh does, that it exists already).
const fakeGH = `#!/usr/bin/env bash
printf '%s\n' "$*" >>"$GH_LOG"
prev=
for a in "$@"; do
	[ "$prev" = --body-file ] && cp "$a" "$GH_LOG.body"
	prev=$a
done
if [ -e "$GH_LOG.opened" ]; then
	echo 'a pull request for branch "flakegate-registry/main" into branch "main" already exists:' >&2
	echo 'https://github.com/acme/widgets/pull/7' >&2
	exit 1
fi
touch "$GH_LOG.opened"
echo 'https://github.com/acme/widgets/pull/7'
`

// TestActionRegistryPR plants the history: runs of main recorded into a
// store (the action's record with a store file, pushed to the data branch
// as record leaves it), main holding quarantine.json with TestFixed's
// entry. Then, as a nightly triage would, three triages of main:
//
//  1. before the fix is proven (the rule, quarantine.ReleaseProven, on
//     TestFixed's runs since its opening, counted from the planted
//     outcomes, says not yet): the pull request adds TestFlakyCache and
//     keeps TestFixed;
//  2. once the clean runs after the fix prove it (as many as
//     quarantine.CleanRunsToRelease says, and two more): the same branch,
//     force-pushed, also removes TestFixed; gh answers that the pull
//     request exists, and the summary says it was updated;
//  3. without GH_TOKEN: the diff is in the job's summary and nothing is
//     pushed or opened.
//
// Each time the branch's commit sits on main's tip, changes quarantine.json
// alone, and holds exactly main's file with the step's diff applied by
// git apply.
func TestActionRegistryPR(t *testing.T) {
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	repo := newSimRepo(t, tmp)
	start := time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC)
	opened := start.AddDate(0, 0, 1).Format(time.DateOnly)

	// main's registry: TestFixed quarantined on the second day.
	reg := &quarantine.Registry{Version: quarantine.Version, Tests: []quarantine.Entry{
		quarantine.NewEntry(fixedID, "@widgets", "fails when the cache is cold", opened, "2027-06-30",
			core.Count{Passed: 7, Trials: 10}, 0.95, registryRelease)}}
	var rb bytes.Buffer
	if err := quarantine.Write(&rb, reg); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo.dev, "quarantine.json"), rb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo.dev, gitEnv, "add", "quarantine.json")
	first := repo.push(t, -1, start.Add(-time.Hour))

	bindir := filepath.Join(tmp, "bin")
	if err := os.MkdirAll(bindir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bindir, "gh"), []byte(fakeGH), 0o755); err != nil {
		t.Fatal(err)
	}
	ghLog := filepath.Join(tmp, "gh.log")

	rng := rand.New(rand.NewPCG(simSeed, 3))
	store := filepath.Join(tmp, "flakegate.store")
	w, temp := newRunner(t, repo, filepath.Join(tmp, "recorder"), first)
	recorded, fixedFails := 0, 0
	recordUntil := func(n int) {
		for ; recorded < n; recorded++ {
			at := start.AddDate(0, 0, recorded)
			failed := map[string]bool{}
			if rng.Float64() < 0.2 {
				failed["TestFlakyCache"] = true
			}
			if recorded > 0 && recorded < registryFix && rng.Float64() < registryRate {
				failed["TestFixed"] = true
				fixedFails++
			}
			// The runs' commits need not exist: record takes GITHUB_SHA as given.
			sha := fmt.Sprintf("%040x", 0xc0ffee+recorded)
			s := simRun{job: registryJob, runID: 9200000000 + int64(recorded), number: recorded + 1, attempt: 1, sha: sha,
				event: "push", ref: "refs/heads/main", refName: "main", at: at}
			st := runJobStep(t, bin, w, temp, s, failed, "record", "INPUT_STORE="+store, "INPUT_STORE_BRANCH=")
			if st.code != 0 {
				t.Fatalf("record %d: exit %d\n%s", recorded, st.code, st.stderr)
			}
		}
		pushStore(t, repo, tmp, store)
	}
	// proven says whether TestFixed's runs since its opening (all but the
	// first), the triaged run (clean) included, prove its release by the
	// registry's rule.
	proven := func() bool {
		return quarantine.ReleaseProven(registryRelease.Below, registryRelease.Confidence, int64(recorded), int64(fixedFails))
	}
	triage := func(name string, extra ...string) (jobStep, string) {
		at := start.AddDate(0, 0, recorded)
		tip := git(t, repo.dev, gitEnv, "rev-parse", "HEAD")
		s := simRun{job: registryJob, runID: 9300000000 + int64(recorded), number: recorded + 1, attempt: 1, sha: tip,
			event: "schedule", ref: "refs/heads/main", refName: "main", at: at}
		w, temp := newRunner(t, repo, filepath.Join(tmp, name), tip)
		env := append([]string{"INPUT_REGISTRY_PR=true", "PATH=" + bindir + string(os.PathListSeparator) + os.Getenv("PATH"), "GH_LOG=" + ghLog}, extra...)
		st := runJobStep(t, bin, w, temp, s, map[string]bool{}, "triage -owner @widgets -today "+at.Format(time.DateOnly), env...)
		if st.code != 0 || st.outputs["verdict"] != "pass" {
			t.Fatalf("%s: exit %d, outputs %v\n%s\n%s", name, st.code, st.outputs, st.stdout, st.stderr)
		}
		return st, w
	}

	// 1. Before the fix is proven.
	recordUntil(registryFix + 5)
	if proven() {
		t.Fatalf("the seed proves TestFixed's release at once (%d failures): nothing to wait for", fixedFails)
	}
	st, w1 := triage("night-1", "GH_TOKEN=fake")
	added, released := registryChangeOf(t, st)
	if fmt.Sprint(added) != "["+flakyID+"]" || len(released) != 0 {
		t.Fatalf("night 1: added %v, released %v; want %s added, nothing released\n%s", added, released, flakyID, st.summary)
	}
	checkRegistryBranch(t, repo, w1, st, []string{fixedID, flakyID})
	calls, _ := os.ReadFile(ghLog)
	body, _ := os.ReadFile(ghLog + ".body")
	if want := "pr create --repo acme/widgets --base main --head flakegate-registry/main --title flakegate: keep the quarantine registry --body-file "; !strings.HasPrefix(string(calls), want) {
		t.Errorf("gh was called with %q, want %q…", calls, want)
	}
	if !strings.Contains(string(body), "#### The quarantine registry (quarantine.json)") || !strings.Contains(string(body), flakyID+": failed ") ||
		!strings.Contains(st.summary, "opened a pull request with the registry's change on branch flakegate-registry/main: https://github.com/acme/widgets/pull/7") ||
		st.outputs["registry-pr"] != "https://github.com/acme/widgets/pull/7" {
		t.Errorf("night 1: the pull request's body:\n%s\nthe summary:\n%s\noutputs %v", body, st.summary, st.outputs)
	}

	// 2. After the fix, once the clean runs prove it.
	need := quarantine.CleanRunsToRelease(registryRelease.Below, registryRelease.Confidence, int64(recorded-1), int64(fixedFails))
	recordUntil(recorded + int(need) + 2)
	if !proven() {
		t.Fatalf("%d runs with %d failures do not prove the release", recorded, fixedFails)
	}
	st, w2 := triage("night-2", "GH_TOKEN=fake")
	added, released = registryChangeOf(t, st)
	if fmt.Sprint(added) != "["+flakyID+"]" || fmt.Sprint(released) != "["+fixedID+"]" {
		t.Fatalf("night 2: added %v, released %v; want %s added, %s released\n%s", added, released, flakyID, fixedID, st.summary)
	}
	checkRegistryBranch(t, repo, w2, st, []string{flakyID})
	if d := git(t, repo.dev, gitEnv, "diff", "main", "origin/flakegate-registry/main"); !strings.Contains(d, `-      "test": "`+fixedID+`",`) {
		t.Errorf("night 2: the branch's diff does not remove %s:\n%s", fixedID, d)
	}
	wantRelease := fmt.Sprintf("%s: %d failures in %d runs since its quarantine on %s prove its failure rate below 10.0%% at 95%% confidence; its entry is removed.",
		fixedID, fixedFails, recorded, opened)
	if !strings.Contains(st.summary, wantRelease) || !strings.Contains(st.summary, "updated the registry's pull request on branch flakegate-registry/main: https://github.com/acme/widgets/pull/7") {
		t.Errorf("night 2: the summary lacks %q or the update:\n%s", wantRelease, st.summary)
	}

	// 3. Without GH_TOKEN: the diff in the summary, nothing pushed.
	tipBefore := git(t, repo.dev, gitEnv, "ls-remote", "origin", "refs/heads/flakegate-registry/main")
	callsBefore, _ := os.ReadFile(ghLog)
	st, _ = triage("night-3", "GH_TOKEN=")
	diff, err := os.ReadFile(st.outputs["registry-diff"])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.summary, "```diff\n"+string(diff)) || st.outputs["registry-pr"] != "" {
		t.Errorf("night 3: the summary does not show the diff:\n%s", st.summary)
	}
	calls, _ = os.ReadFile(ghLog)
	if got := git(t, repo.dev, gitEnv, "ls-remote", "origin", "refs/heads/flakegate-registry/main"); got != tipBefore || !bytes.Equal(calls, callsBefore) {
		t.Errorf("night 3: without GH_TOKEN the branch moved (%s → %s) or gh ran (%q)", tipBefore, got, calls[len(callsBefore):])
	}
}

// pushStore commits the store file as history/flakegate.store on the
// data branch flakegate-data, as record leaves it.
func pushStore(t *testing.T, repo *simRepo, tmp, store string) {
	t.Helper()
	dir := filepath.Join(tmp, "data")
	if _, err := os.Stat(dir); err != nil {
		git(t, tmp, gitEnv, "init", "--quiet", "--initial-branch=flakegate-data", dir)
	}
	raw, err := os.ReadFile(store)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "history"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "history", "flakegate.store"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, gitEnv, "add", "history/flakegate.store")
	git(t, dir, gitEnv, "commit", "--quiet", "-m", "flakegate record")
	git(t, dir, gitEnv, "push", "--quiet", "--force", "file://"+repo.bare, "HEAD:refs/heads/flakegate-data")
}

// registryChangeOf reads the step's JSON: the tests its registry change
// adds and releases.
func registryChangeOf(t *testing.T, st jobStep) (added, released []string) {
	t.Helper()
	raw, err := os.ReadFile(st.outputs["json"])
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Registry struct {
			Added    []string `json:"added"`
			Released []string `json:"released"`
		} `json:"registry"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	return res.Registry.Added, res.Registry.Released
}

// checkRegistryBranch checks the registry's branch on the remote holds
// exactly the step's diff: one commit on main's tip, changing
// quarantine.json alone, whose file is main's with the diff applied by git
// apply (in the step's own checkout, work) and holds the tests want.
func checkRegistryBranch(t *testing.T, repo *simRepo, work string, st jobStep, want []string) {
	t.Helper()
	if st.outputs["registry-branch"] != "flakegate-registry/main" {
		t.Fatalf("the step's outputs %v: no registry branch", st.outputs)
	}
	git(t, repo.dev, gitEnv, "fetch", "--quiet", "origin", "+refs/heads/flakegate-registry/main:refs/remotes/origin/flakegate-registry/main")
	branch := "origin/flakegate-registry/main"
	if parent, tip := git(t, repo.dev, gitEnv, "rev-parse", branch+"^"), git(t, repo.dev, gitEnv, "rev-parse", "main"); parent != tip {
		t.Errorf("the branch's commit sits on %s, main is at %s", parent, tip)
	}
	if files := git(t, repo.dev, gitEnv, "diff", "--name-only", "main", branch); files != "quarantine.json" {
		t.Errorf("the branch changes %q, want quarantine.json alone", files)
	}
	git(t, work, gitEnv, "apply", st.outputs["registry-diff"])
	applied, err := os.ReadFile(filepath.Join(work, "quarantine.json"))
	if err != nil {
		t.Fatal(err)
	}
	onBranch := git(t, repo.dev, gitEnv, "show", branch+":quarantine.json")
	if strings.TrimSpace(string(applied)) != onBranch {
		t.Errorf("the branch's quarantine.json:\n%s\nmain's with the diff applied:\n%s", onBranch, applied)
	}
	reg, err := quarantine.Read(strings.NewReader(onBranch+"\n"), "2099-01-01")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range reg.Tests {
		got = append(got, e.Test)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the branch's registry holds %v, want %v", got, want)
	}
}
