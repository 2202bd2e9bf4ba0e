package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
)

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
		var ev struct {
			Action, Test, Output string
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Action != "output" && ev.Action != "build-output" || ev.Test != "" {
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
