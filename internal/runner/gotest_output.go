package runner

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/flakegate/flakegate/core/jsonscan"
)

// goTestEvent is what goTestCause reads of one line of a go test -json
// stream: test2json's TestEvent and the go command's BuildEvent (go doc
// cmd/test2json; go doc cmd/go, "BuildEvent"). Keys match exactly; other
// keys, such as a field a later Go adds, are left unread, as
// core/report's go test reader leaves them.
type goTestEvent struct {
	Action string
	Test   string
	Output string
}

// readGoTestEvent reads one line into ev in one pass; ok is false when the
// line is not one JSON object or one of the three fields is not a string.
func readGoTestEvent(line []byte, ev *goTestEvent) (ok bool) {
	var s jsonscan.Scanner
	s.Reset(line, 1, "line")
	if k, err := s.Kind(); err != nil || k != jsonscan.Object {
		return false
	}
	err := s.Object(func(key []byte) error {
		var dst *string
		switch string(key) {
		case "Action":
			dst = &ev.Action
		case "Test":
			dst = &ev.Test
		case "Output":
			dst = &ev.Output
		default:
			return s.Skip()
		}
		return s.Decode(dst)
	})
	return err == nil && s.End() == nil
}

// goTestCause is what a go test -json stream says in its own words about
// a package that failed before any test reported: the first lines the test
// binary or the go command printed (a mistyped flag's "flag provided but
// not defined: -cont", a build error, a panic in init), without the usage
// listing, the exit status and the FAIL line that follow them. ok is false
// when data is not a go test -json stream or holds no such line.
func goTestCause(data []byte) (string, bool) {
	t := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf")
	if len(t) == 0 || t[0] != '{' || !bytes.Contains(t[:min(len(t), 4096)], []byte(`"Action"`)) {
		return "", false
	}
	var lines []string
	size := 0
	sc := bufio.NewScanner(bytes.NewReader(t))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	skipping := false
	for sc.Scan() && len(lines) < 3 && size < 300 {
		var ev goTestEvent
		if !readGoTestEvent(sc.Bytes(), &ev) || ev.Action != "output" && ev.Action != "build-output" || ev.Test != "" {
			continue
		}
		line := strings.TrimRight(ev.Output, "\r\n")
		switch {
		case strings.HasPrefix(line, "Usage of "):
			skipping = true // the test binary's flag listing
			continue
		case skipping && (strings.HasPrefix(line, "  -") || strings.HasPrefix(line, "    \t")):
			continue
		}
		skipping = false
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "exit status ") || strings.HasPrefix(trimmed, "FAIL\t") ||
			strings.HasPrefix(trimmed, "FAIL ") || trimmed == "FAIL" || strings.HasPrefix(trimmed, "# ") {
			continue
		}
		lines = append(lines, trimmed)
		size += len(trimmed)
	}
	if len(lines) == 0 {
		return "", false
	}
	return strings.ToValidUTF8(strings.Join(lines, " | "), "?"), true
}

// goTestWarnings are the caveats of arms that run go test: without -json
// (and without -report naming the file a run writes) its standard output
// is not a report flakegate reads, so every run would fail; without
// -count, go test may replay cached results, which are not trials, and
// flakegate refuses such a run. An arm whose command is the same as an
// earlier one's is not warned about twice.
func goTestWarnings(arms []PlanArm, reportPattern string) []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range arms {
		args, ok := goTestArgs(a.Command)
		if !ok || seen[a.Command] {
			continue
		}
		seen[a.Command] = true
		who := "the " + a.Name + " arm's go test"
		if len(arms) > 1 && arms[0].Command == arms[len(arms)-1].Command {
			who = "go test"
		}
		var hasJSON, hasCount bool
		for _, f := range args {
			name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
			if !strings.HasPrefix(f, "-") {
				continue
			}
			switch name {
			case "json":
				hasJSON = true
			case "count", "test.count":
				hasCount = true
			}
		}
		if !hasJSON && reportPattern == "" {
			out = append(out, who+" has no -json: its standard output is not a report flakegate reads, so every run would fail; add -json (or name the report file a run writes with -report)")
		}
		if !hasCount {
			out = append(out, who+" has no -count=1: go test may replay cached results, which are not trials, and such a run is refused; add -count=1")
		}
	}
	return out
}

// goTestArgs finds "go test" in a command line (split on blanks; a shell
// line with quotes is split roughly, which is enough to find flags) and
// returns the words after it, up to the end of that command (a ;, &&, ||
// or |).
func goTestArgs(command string) ([]string, bool) {
	words := strings.Fields(command)
	for i := 0; i+1 < len(words); i++ {
		if (words[i] == "go" || strings.HasSuffix(words[i], "/go")) && words[i+1] == "test" {
			var args []string
			for _, w := range words[i+2:] {
				if w == ";" || w == "&&" || w == "||" || w == "|" {
					break
				}
				args = append(args, strings.Trim(w, `'"`))
			}
			return args, true
		}
	}
	return nil, false
}
