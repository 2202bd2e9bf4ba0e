package ci

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionStepRun drives flakegate run through the action's step: the
// trial loop in a workflow. Each arm's directory holds a script that writes
// one go test -json run of ex.TestA (passing in base/, failing in broken/),
// so the verdicts are known by hand: 5/5 against 5/5 passes; 5/5 against
// 0/5 blocks (Wilson 95% intervals [56.6%, 100%] and [0%, 43.4%] do not
// overlap); a trial budget of 4 stops the 10 planned runs after 4 (exit 3,
// verdict stopped); -n 0 is bad input. The action's flags must land before
// the "--": after it they would be the test command's arguments, and the
// script would print them.
func TestActionStepRun(t *testing.T) {
	tmp := t.TempDir()
	bin := buildCLI(t, tmp)
	work := filepath.Join(tmp, "work")
	emit := func(dir, action string) {
		if err := os.MkdirAll(filepath.Join(work, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		// "$@" is echoed to standard error: an argument there is a flag
		// that went to the wrong side of "--".
		script := `[ $# -eq 0 ] || { echo "unexpected arguments: $*" >&2; exit 9; }
printf '%s\n' '{"Action":"run","Package":"ex","Test":"TestA"}' '{"Action":"` + action + `","Package":"ex","Test":"TestA"}'
`
		if err := os.WriteFile(filepath.Join(work, dir, "emit.sh"), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	emit("base", "pass")
	emit("broken", "fail")

	for _, c := range []struct {
		name    string
		command string
		code    int
		verdict string
		blocks  string
		answer  string // the summary starts so
		stop    string // the JSON result's stop
		notes   []string
	}{
		{"the patch changes nothing", "run -n 5 -min-trials 5 -ledger pass.jsonl -baseline-dir base -patched-dir base -- sh emit.sh",
			0, "pass", "false", "**The gate passes: its one test does not block, over 5 baseline runs and 5 patched runs.**", "", nil},
		{"the patch breaks the test", "run -n 5 -min-trials 5 -ledger block.jsonl -baseline-dir base -patched-dir broken -- sh emit.sh",
			1, "block", "true", "**The gate blocks: 1 of 1 test blocks, over 5 baseline runs and 5 patched runs.**", "",
			[]string{"::error file=block.jsonl,title=flakegate%3A ex.TestA::The gate blocks the patch: the pass rate fell from 5/5 (100.0%25) to 0/5 (0.0%25)"}},
		{"a trial budget stops the runs", "run -n 5 -min-trials 5 -max-trials 4 -ledger stop.jsonl -baseline-dir base -patched-dir broken -- sh emit.sh",
			3, "stopped", "false", "**flakegate run stopped early: the trial budget of 4 is reached: the ledger holds 4 trials and a run of the baseline arm adds up to 1.** The verdict below is of the runs the ledger holds; the next start goes on from it.\n\n**The gate blocks: 1 of 1 test blocks, over 2 baseline runs and 2 patched runs.**", "trial-budget",
			[]string{"::warning title=flakegate run stopped early::The trial budget of 4 is reached"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := runStep(t, bin, work, map[string]string{"COMMAND": c.command})
			if s.code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", s.code, c.code, s.stdout, s.stderr)
			}
			if strings.Contains(s.stderr, "unexpected arguments") {
				t.Errorf("the action's flags reached the test command:\n%s", s.stderr)
			}
			if !strings.HasPrefix(s.summary, c.answer) || !strings.Contains(s.summary, "each a fresh process; this start ran") {
				t.Errorf("summary:\n%s\nwant it to start %q", s.summary, c.answer)
			}
			if s.outputs["verdict"] != c.verdict || s.outputs["blocks"] != c.blocks {
				t.Errorf("outputs %v, want verdict %s, blocks %s", s.outputs, c.verdict, c.blocks)
			}
			raw, err := os.ReadFile(s.outputs["json"])
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Stop   string `json:"stop"`
				Blocks bool   `json:"blocks"`
				Gate   string `json:"gate"`
			}
			if err := json.Unmarshal(raw, &res); err != nil {
				t.Fatalf("output json: %v\n%s", err, raw)
			}
			if res.Stop != c.stop || res.Gate != "ledger" || res.Blocks != strings.Contains(c.answer, "The gate blocks") {
				t.Errorf("JSON result: stop %q, gate %q, blocks %v", res.Stop, res.Gate, res.Blocks)
			}
			for _, a := range c.notes {
				if !strings.Contains(s.stdout, a) {
					t.Errorf("no annotation %q in:\n%s", a, s.stdout)
				}
			}
			for _, line := range strings.Split(s.stdout, "\n") {
				if strings.HasPrefix(line, "::") && !annotationLine.MatchString(line) {
					t.Errorf("not a workflow command GitHub reads: %q", line)
				}
			}
		})
	}

	t.Run("bad input", func(t *testing.T) {
		s := runStep(t, bin, work, map[string]string{"COMMAND": "run -n 0 -baseline-dir base -patched-dir base -- sh emit.sh"})
		want := "::error title=flakegate could not run::flakegate run: -n: runs per arm must be at least 1, got 0%0Arun 'flakegate run -h' for usage"
		if s.code != 2 || !strings.Contains(s.stdout, want) || s.outputs["verdict"] != "error" || s.outputs["json"] != "" {
			t.Errorf("exit %d, outputs %v, stdout:\n%s\nwant exit 2, verdict error and %q", s.code, s.outputs, s.stdout, want)
		}
	})
}
