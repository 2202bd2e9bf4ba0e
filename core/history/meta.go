package history

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core"
)

// metaBytes is how much of a report's head ReportMeta sees.
const metaBytes = 64 << 10

// What reports carry about their run, found in the first metaBytes of the
// file by plain search (no regular expression: ReportMeta runs once per
// run, on every run of a history).
var (
	commitKeys = []string{"commit", "commitHash", "commitSha", "gitCommit", "revision"}
	branchKeys = []string{"branchName", "branch", "gitBranch"}
	jobKeys    = []string{"buildName", "jobName", "job"}
)

// ReportMeta is what the head of a report says about its run: its start
// time (TRX's Times start, JUnit's testsuite timestamp and NUnit 3's
// test-run start-time, the first go test -json event's Time, Playwright's
// first startTime, CTRF's summary start and Jest's startTime in
// milliseconds, in that order), and for JSON reports that carry them
// (CTRF's environment, Playwright's metadata) the commit (commit,
// commitHash, commitSha, gitCommit, revision), branch (branchName, branch,
// gitBranch) and job (buildName, jobName, job). A time without a zone is
// taken as UTC. What is not found stays empty; nothing here is an error.
func ReportMeta(head []byte) RunMeta {
	var m RunMeta
	candidates := []func() string{
		func() string { return xmlAttr(head, []string{"<Times"}, []string{"start"}) },
		func() string {
			return xmlAttr(head, []string{"<testsuites", "<testsuite", "<test-run"}, []string{"timestamp", "start-time"})
		},
		func() string { return jsonValue(head, "Time", false) },
		func() string { return jsonValue(head, "startTime", false) },
		func() string { return jsonValue(head, "start", true) },
		func() string { return jsonValue(head, "startTime", true) },
	}
	for _, c := range candidates {
		if v := c(); v != "" {
			if t, ok := parseTime(v); ok {
				m.Time = t
				break
			}
		}
	}
	first := func(keys []string) string {
		for _, k := range keys {
			if v := jsonValue(head, k, false); v != "" {
				return v
			}
		}
		return ""
	}
	m.Commit, m.Branch, m.Job = first(commitKeys), first(branchKeys), first(jobKeys)
	return m
}

// jsonValue is the value of the first member "key" in head whose value is
// a string (number false) or a whole number of 12 or 13 digits,
// milliseconds since 1970 (number true); "" when there is none.
func jsonValue(head []byte, key string, number bool) string {
	pat := []byte(`"` + key + `"`)
	for off := 0; ; {
		i := bytes.Index(head[off:], pat)
		if i < 0 {
			return ""
		}
		j := off + i + len(pat)
		off = j
		for j < len(head) && (head[j] == ' ' || head[j] == '\t' || head[j] == '\n' || head[j] == '\r') {
			j++
		}
		if j >= len(head) || head[j] != ':' {
			continue
		}
		j++
		for j < len(head) && (head[j] == ' ' || head[j] == '\t' || head[j] == '\n' || head[j] == '\r') {
			j++
		}
		if j >= len(head) {
			return ""
		}
		if !number {
			if head[j] != '"' {
				continue
			}
			end := bytes.IndexAny(head[j+1:], "\"\\\n")
			if end <= 0 || head[j+1+end] != '"' {
				continue
			}
			return string(head[j+1 : j+1+end])
		}
		k := j
		for k < len(head) && head[k] >= '0' && head[k] <= '9' {
			k++
		}
		if n := k - j; (n == 12 || n == 13) && (k == len(head) || head[k] < '0' || head[k] > '9') {
			return string(head[j:k])
		}
	}
}

// xmlAttr is the first of attrs on the first element whose tag is one of
// tags (followed by a space), "" when there is none.
func xmlAttr(head []byte, tags, attrs []string) string {
	for _, tag := range tags {
		pat := []byte(tag)
		for off := 0; ; {
			i := bytes.Index(head[off:], pat)
			if i < 0 {
				break
			}
			j := off + i + len(pat)
			off = j
			if j >= len(head) || (head[j] != ' ' && head[j] != '\t' && head[j] != '\n' && head[j] != '\r') {
				continue
			}
			end := bytes.IndexByte(head[j:], '>')
			if end < 0 {
				end = len(head) - j
			}
			el := head[j : j+end]
			for _, a := range attrs {
				ap := []byte(" " + a + `="`)
				if k := bytes.Index(el, ap); k >= 0 {
					v := el[k+len(ap):]
					if q := bytes.IndexByte(v, '"'); q >= 0 {
						return string(v[:q])
					}
				}
			}
			break
		}
	}
	return ""
}

// parseTime reads RFC 3339 (with or without fractions and zone), a bare
// date, or milliseconds since 1970.
func parseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	if s[0] >= '0' && s[0] <= '9' && !strings.ContainsAny(s, "-:") {
		ms, err := strconv.ParseInt(s, 10, 64)
		if err != nil || ms < 0 || ms > 1<<50 {
			return time.Time{}, false
		}
		return time.UnixMilli(ms).UTC(), true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// Manifest is a CSV that says, per report file, which run it is: a header
// naming the columns file (required), run, commit, branch, time and job,
// in any order (others are ignored), then one row per file. Time is RFC
// 3339, a date, or milliseconds since 1970.
type Manifest struct {
	Rows  []RunMeta      // in the order of the file; File is the file column
	index map[string]int // file -> row
}

// MaxManifestBytes bounds a manifest.
const MaxManifestBytes = 64 << 20

// ReadManifest reads a manifest. Errors name the line and column; a file
// listed twice is an error.
func ReadManifest(r io.Reader) (*Manifest, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxManifestBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxManifestBytes {
		return nil, &core.Error{Kind: core.TooLarge, Msg: "the manifest is over 64 MiB"}
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	tab := core.NewCSVTable(bytes.NewReader(data), false)
	if err := tab.ReadHeader(); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &core.Error{Kind: core.Invalid, Line: 1, Column: 1, Msg: "the manifest is empty: want a header file,run,commit,branch,time,job"}
		}
		return nil, csvErr(err)
	}
	tab.Cols = map[string]int{}
	for i, h := range tab.Header {
		name := strings.ToLower(strings.TrimSpace(h))
		if _, dup := tab.Cols[name]; dup && name != "" {
			return nil, &core.Error{Kind: core.Invalid, Line: 1, Msg: "the manifest names the column " + strconv.Quote(name) + " twice"}
		}
		tab.Cols[name] = i
	}
	if _, ok := tab.Cols["file"]; !ok {
		return nil, &core.Error{Kind: core.Invalid, Line: 1, Column: 1, Msg: "the manifest has no file column: want a header file,run,commit,branch,time,job"}
	}
	m := &Manifest{index: map[string]int{}}
	for line, err := range tab.Rows() {
		if err != nil {
			return nil, csvErr(err)
		}
		get := tab.Field
		file, fc := get("file")
		if file == "" {
			return nil, &core.Error{Kind: core.Invalid, Line: line, Column: max(fc, 1), Msg: "the file column is empty"}
		}
		if _, dup := m.index[file]; dup {
			return nil, &core.Error{Kind: core.Invalid, Line: line, Column: fc, Msg: "the manifest lists " + strconv.Quote(file) + " twice"}
		}
		meta := RunMeta{File: file}
		meta.Name, _ = get("run")
		meta.Commit, _ = get("commit")
		meta.Branch, _ = get("branch")
		meta.Job, _ = get("job")
		if ts, tc := get("time"); ts != "" {
			t, ok := parseTime(ts)
			if !ok {
				return nil, &core.Error{Kind: core.Invalid, Line: line, Column: tc, Msg: "time must be RFC 3339 (2026-12-01T09:30:00Z), a date or milliseconds since 1970, got " + strconv.Quote(ts)}
			}
			meta.Time = t
		}
		m.index[file] = len(m.Rows)
		m.Rows = append(m.Rows, meta)
	}
	return m, nil
}

// Lookup returns the manifest's row for a file: the row whose file column
// is the name exactly, or failing that the name's last path elements (a
// manifest may list "r1.xml" for "artifacts/r1.xml").
func (m *Manifest) Lookup(name string) (RunMeta, bool) {
	if m == nil {
		return RunMeta{}, false
	}
	name = strings.ReplaceAll(name, "\\", "/")
	for {
		if i, ok := m.index[name]; ok {
			return m.Rows[i], true
		}
		_, rest, ok := strings.Cut(name, "/")
		if !ok {
			return RunMeta{}, false
		}
		name = rest
	}
}

func csvErr(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &core.Error{Kind: core.Invalid, Line: pe.Line, Column: pe.Column, Msg: "the manifest is not valid CSV: " + pe.Err.Error()}
	}
	return err
}
