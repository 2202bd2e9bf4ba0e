package runner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// stopGrace is how long a stopped run has between SIGTERM and SIGKILL.
const stopGrace = 2 * time.Second

// errStopped says a run was stopped before it ended (an interrupt or the
// time budget); it leaves no record.
var errStopped = errors.New("the run was stopped")

// runEnv is the environment of one run: the parent's, without the names
// flakegate sets, then those names.
func (r *runner) runEnv(slot Slot, tmp string) []string {
	set := map[string]string{
		"FLAKEGATE_ARM":    slot.Arm,
		"FLAKEGATE_RUN":    slot.ID(),
		"FLAKE_ARM":        slot.Arm,
		"FLAKE_RUN":        slot.ID(),
		"FLAKE_LEDGER":     filepath.Join(tmp, "flake.jsonl"),
		"FLAKEGATE_TMPDIR": tmp,
		"TMPDIR":           tmp,
	}
	base := r.cfg.Env
	if base == nil {
		base = os.Environ()
	}
	env := make([]string, 0, len(base)+len(set))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := set[k]; !ok {
			env = append(env, kv)
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+set[k])
	}
	return env
}

// runDir makes the run's own directory: under Keep when the outputs are
// kept (a rerun of the same run replaces them), else a fresh temporary one.
func (r *runner) runDir(slot Slot) (string, error) {
	if r.cfg.Keep != "" {
		dir := filepath.Join(r.cfg.Keep, slot.ID())
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
		return dir, os.MkdirAll(dir, 0o755)
	}
	return os.MkdirTemp(r.cfg.TempDir, "flakegate-"+slot.ID()+"-")
}

// runOne runs one slot and returns its record and the rows to append (the
// record last). The error is errStopped when ctx ended the run, or a fault
// of flakegate's own (no temporary directory); the command's failures are
// records with OutcomeError.
func (r *runner) runOne(ctx context.Context, a *armRun, slot Slot, seq int) (*Record, []byte, error) {
	tmp, err := r.runDir(slot)
	if err != nil {
		return nil, nil, fmt.Errorf("the run's directory: %w", err)
	}
	if r.cfg.Keep == "" {
		defer os.RemoveAll(tmp)
	}
	rec := &Record{Run: slot.ID(), Arm: slot.Arm, When: WhenRun, Seq: seq, Exit: -1, Command: a.command, Commit: a.commit}
	stdoutPath, stderrPath := filepath.Join(tmp, "stdout"), filepath.Join(tmp, "stderr")
	fout, err := os.Create(stdoutPath)
	if err != nil {
		return nil, nil, fmt.Errorf("the run's output file: %w", err)
	}
	defer fout.Close()
	ferr, err := os.Create(stderrPath)
	if err != nil {
		return nil, nil, fmt.Errorf("the run's output file: %w", err)
	}
	defer ferr.Close()

	env := r.runEnv(slot, tmp)
	var cmd *exec.Cmd
	if a.Shell != "" {
		cmd = exec.Command("sh", "-c", a.Shell)
	} else {
		cmd = exec.Command(a.Argv[0], a.Argv[1:]...)
	}
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = a.dir, env, fout, ferr
	newGroup(cmd)
	before := r.existingReports(a, env)
	start := time.Now()
	finish := func(outcome string) (*Record, []byte, error) {
		rec.Outcome = outcome
		rec.TS = unixSeconds(time.Now())
		return rec, nil, nil
	}
	if err := cmd.Start(); err != nil {
		rec.Seconds = roundMilli(time.Since(start).Seconds())
		rec.Error = "the command could not start: " + startErr(err)
		rec.CannotStart = true
		return finish(OutcomeError)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var timeout <-chan time.Time
	if r.cfg.RunTimeout > 0 {
		t := time.NewTimer(r.cfg.RunTimeout)
		defer t.Stop()
		timeout = t.C
	}
	timedOut := false
	select {
	case <-waited:
	case <-ctx.Done():
		stop(cmd, waited)
		return nil, nil, errStopped
	case <-timeout:
		stop(cmd, waited)
		timedOut = true
	}
	kill(cmd) // what the run left behind in its group goes with it
	rec.Seconds = roundMilli(time.Since(start).Seconds())
	rec.Exit = cmd.ProcessState.ExitCode()
	tail := func() string { return outputTail(stderrPath, stdoutPath) }
	if timedOut {
		rec.Error = fmt.Sprintf("the run took longer than the run timeout of %s and was killed%s", r.cfg.RunTimeout, tail())
		return finish(OutcomeError)
	}
	files, err := r.reportFiles(a, env, before, stdoutPath)
	if err == nil {
		err = r.readRun(files, rec)
	}
	if err != nil {
		status := fmt.Sprintf("the command exited with status %d", rec.Exit)
		switch {
		case rec.Exit < 0:
			status = "the command was killed by a signal"
		case a.Shell != "" && (rec.Exit == 127 || rec.Exit == 126) && len(files) == 0:
			// sh -c's own statuses: the command was not found (127) or
			// cannot be executed (126), and it wrote no report.
			rec.CannotStart = true
			what := "was not found"
			if rec.Exit == 126 {
				what = "cannot be executed"
			}
			rec.Error = fmt.Sprintf("the command %s (the shell's exit status %d)%s", what, rec.Exit, tail())
			return finish(OutcomeError)
		}
		if data, rerr := os.ReadFile(stdoutPath); rerr == nil {
			if cause, ok := goTestCause(data); ok {
				// The cause in go test's own words first: a mistyped flag,
				// a build error, a panic in init.
				rec.Error = fmt.Sprintf("go test said %q (%s): %v", cause, status, err)
				return finish(OutcomeError)
			}
		}
		rec.Error = fmt.Sprintf("%v (%s)%s", err, status, tail())
		return finish(OutcomeError)
	}
	if r.cfg.Keep != "" && r.cfg.Report != "" {
		keepReports(files, tmp)
	}
	rec.Outcome = OutcomeDone
	rec.TS = unixSeconds(time.Now())
	var b bytes.Buffer
	for i := range r.rows {
		r.rows[i].TS = rec.TS
		if err := appendJSON(&b, &r.rows[i]); err != nil {
			return nil, nil, err
		}
	}
	return rec, b.Bytes(), nil
}

// stop ends a run that must not finish: SIGTERM to its group, SIGKILL
// after stopGrace.
func stop(cmd *exec.Cmd, waited <-chan error) {
	terminate(cmd)
	select {
	case <-waited:
	case <-time.After(stopGrace):
		kill(cmd)
		<-waited
	}
	kill(cmd)
}

// startErr says why a command did not start, without Go's wrapping.
func startErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Path + ": " + pe.Err.Error()
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		if errors.Is(ee.Err, exec.ErrNotFound) {
			return ee.Name + ": not found in PATH"
		}
		return ee.Name + ": " + ee.Err.Error()
	}
	return err.Error()
}

// reportPattern is the report pattern of a run: its environment expanded,
// relative to the arm's directory.
func (r *runner) reportPattern(a *armRun, env []string) string {
	pattern := expandEnv(r.cfg.Report, env)
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(a.dir, pattern)
	}
	return pattern
}

// existingReports notes the modification times of the files that match the
// report pattern before a run starts: those the run does not write again
// are not its report.
func (r *runner) existingReports(a *armRun, env []string) map[string]time.Time {
	if r.cfg.Report == "" {
		return nil
	}
	matches, _ := filepath.Glob(r.reportPattern(a, env))
	out := make(map[string]time.Time, len(matches))
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil {
			out[m] = fi.ModTime()
		}
	}
	return out
}

// reportFiles returns the run's report files: its standard output, or the
// files matching the report pattern that the run wrote (new, or modified
// since before it started: an older file is another run's report).
func (r *runner) reportFiles(a *armRun, env []string, before map[string]time.Time, stdoutPath string) ([]string, error) {
	if r.cfg.Report == "" {
		if fi, err := os.Stat(stdoutPath); err != nil || fi.Size() == 0 {
			return nil, errors.New("the command wrote nothing to its standard output, where its report was expected")
		}
		return []string{stdoutPath}, nil
	}
	pattern := r.reportPattern(a, env)
	matches, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("report pattern %s: %w", pattern, err)
	}
	var files []string
	stale := 0
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if t, ok := before[m]; ok && t.Equal(fi.ModTime()) {
			stale++
			continue
		}
		files = append(files, m)
	}
	if len(files) == 0 {
		msg := "no report matches " + pattern
		if stale > 0 {
			msg += fmt.Sprintf(" that this run wrote (%s from before it, unchanged)", core.Nouns(stale, "older file"))
		}
		return nil, errors.New(msg)
	}
	return files, nil
}

// expandEnv expands $NAME and ${NAME} in s from env, the run's environment.
func expandEnv(s string, env []string) string {
	return os.Expand(s, func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if name, v, ok := strings.Cut(env[i], "="); ok && name == k {
				return v
			}
		}
		return ""
	})
}

// readRun reads the run's report files as one run of its arm and turns
// each test into one trial row in r.rows; rec gets the counts and notes.
func (r *runner) readRun(files []string, rec *Record) error {
	l := ledger.New()
	for _, name := range files {
		shown := name
		if filepath.Base(name) == "stdout" && r.cfg.Report == "" {
			shown = "standard output"
		}
		if pkgs := cachedPackages(name); len(pkgs) > 0 {
			return fmt.Errorf("go test replayed cached results of %s instead of running the tests: add -count=1 to the go test command", strings.Join(pkgs, ", "))
		}
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("report %s: %w", shown, unwrapPath(err))
		}
		err = report.Read(f, report.Options{Format: r.cfg.Format, Arm: rec.Arm, Run: rec.Run}, l)
		f.Close()
		if err != nil {
			return fmt.Errorf("the report could not be read: %w", core.WithFile(err, shown))
		}
	}
	s := l.Summary()
	r.rows = r.rows[:0]
	rec.Failed = nil
	for _, t := range s.Tests {
		mine, other := t.Baseline, t.Patched
		sides, otherSides := t.Sides.Baseline, t.Sides.Patched
		if rec.Arm == ledger.ArmPatched {
			mine, other, sides, otherSides = other, mine, otherSides, sides
		}
		if other.Trials > 0 || otherSides != (ledger.SideFailures{}) {
			return fmt.Errorf("the report's rows are of the other arm (test %s): a seed ledger's arm must be the run's, %s", t.NodeID, rec.Arm)
		}
		row := trialRow{Run: rec.Run, Arm: rec.Arm, NodeID: t.NodeID}
		if mine.Trials > 0 {
			row.When, row.Outcome = "call", "passed"
			if mine.Passed < mine.Trials {
				row.Outcome = "failed"
				rec.Failed = append(rec.Failed, t.NodeID)
			} else {
				rec.Passed++
			}
			if mine.Trials > 1 {
				row.Executions, row.Failures = mine.Trials, mine.Trials-mine.Passed
			}
			rec.Trials++
			r.rows = append(r.rows, row)
		}
		for _, side := range []struct {
			when string
			n    int64
		}{{"setup", sides.Setup}, {"teardown", sides.Teardown}} {
			for range side.n {
				r.rows = append(r.rows, trialRow{Run: rec.Run, Arm: rec.Arm, NodeID: t.NodeID, When: side.when, Outcome: "failed"})
			}
		}
	}
	if rec.Trials == 0 {
		return errors.New("the report has no trials: no test ran to a pass or a failure")
	}
	rec.Notes = s.Notes
	var again []string
	for _, row := range r.rows {
		if row.Executions > 1 {
			again = append(again, row.NodeID)
		}
	}
	if len(again) > 0 {
		rec.Notes = append(rec.Notes, fmt.Sprintf("run %s: %s ran more than once in the run (go test -count, a rerun plugin): "+
			"the run counts each test once, passed only when every execution passed (%s)", rec.Run, core.Nouns(len(again), "test"), shortNames(again)))
	}
	return nil
}

// cachedPackages names the packages whose results a go test -json stream
// replayed from the test cache ("ok  pkg (cached)"): a replay is not a run.
func cachedPackages(name string) []string {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	if head, _ := br.Peek(64 << 10); report.DetectFormat(head) != report.FormatGoTest {
		return nil
	}
	var pkgs []string
	long := false // inside a line longer than the buffer: an output line, not a package's result
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = true
			continue
		}
		if !long && bytes.Contains(line, []byte(`\t(cached)`)) && bytes.Contains(line, []byte(`"Action":"output"`)) &&
			!bytes.Contains(line, []byte(`"Test":`)) {
			if _, rest, ok := bytes.Cut(line, []byte(`"Package":"`)); ok {
				if pkg, _, ok := bytes.Cut(rest, []byte(`"`)); ok {
					pkgs = append(pkgs, string(pkg))
				}
			}
		}
		long = false
		if err != nil {
			return pkgs
		}
	}
}

// outputTail is the end of a run's error output (or, when empty, its
// standard output), for an error message: at most 5 lines, 400 bytes.
func outputTail(paths ...string) string {
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		data = bytes.TrimSpace(data)
		if len(data) == 0 {
			continue
		}
		if len(data) > 400 {
			data = data[len(data)-400:]
		}
		lines := strings.Split(strings.ToValidUTF8(string(data), "?"), "\n")
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		return "; it ended with: " + strings.Join(lines, " | ")
	}
	return ""
}

// keepReports copies a run's report files that are not in its directory
// already into dir/reports.
func keepReports(files []string, dir string) {
	for _, f := range files {
		if rel, err := filepath.Rel(dir, f); err == nil && filepath.IsLocal(rel) {
			continue
		}
		if os.MkdirAll(filepath.Join(dir, "reports"), 0o755) != nil {
			return
		}
		if data, err := os.ReadFile(f); err == nil {
			os.WriteFile(filepath.Join(dir, "reports", filepath.Base(f)), data, 0o644)
		}
	}
}

// roundMilli rounds seconds to the millisecond, as the ledger keeps them.
func roundMilli(s float64) float64 { return math.Round(s*1000) / 1000 }

// shortNames shows up to three names and how many more there are.
func shortNames(names []string) string {
	if len(names) <= 3 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:3], ", "), len(names)-3)
}
