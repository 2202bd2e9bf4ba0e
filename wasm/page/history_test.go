package page

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/history/histsim"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/words"
)

// plantedHistory plants a small history (histsim: 60 runs of 40 stable
// tests, three flaky ones, one outage, one group) and returns each run's
// JUnit report and the result of the same runs added to a history
// directly, without any report or archive in between: the reference the
// page's reading must reproduce. The reference gets what a JUnit report
// carries: the run's time but not its commit, and the test named
// "classname.name" as JUnit readers name it (histsim writes "a/b" as
// classname "a", name "b").
func plantedHistory(t testing.TB) (names []string, reports [][]byte, want *history.Result) {
	ref := history.New()
	c := histsim.Config{Seed: 5, Runs: 60, Stable: 40, Flaky: []float64{0.1, 0.2, 0.3}, Outages: 1, OutageShare: [2]float64{0.5, 0.6},
		Groups: 1, GroupSize: 3, GroupRuns: 3}
	_, err := histsim.Generate(c, func(meta history.RunMeta, results []history.TestResult) error {
		var b bytes.Buffer
		if err := histsim.WriteJUnit(&b, meta, results); err != nil {
			return err
		}
		names = append(names, fmt.Sprintf("run-%03d.xml", len(names)+1))
		reports = append(reports, b.Bytes())
		meta.Name = names[len(names)-1]
		meta.File, meta.Commit, meta.Branch, meta.Job = meta.Name, "", "", ""
		named := make([]history.TestResult, len(results))
		for i, r := range results {
			if k := strings.LastIndexByte(r.Test, '/'); k >= 0 {
				r.Test = r.Test[:k] + "." + r.Test[k+1:]
			}
			named[i] = r
		}
		return ref.AddRun(meta, named)
	})
	if err != nil {
		t.Fatal(err)
	}
	want, err = ref.Result(history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return names, reports, want
}

func memFile(name string, data []byte) historyFile {
	return historyFile{name: name, read: func(max int64) ([]byte, error) {
		if int64(len(data)) > max {
			return nil, errors.New(name + ": too large")
		}
		return data, nil
	}}
}

func zipOf(t testing.TB, names []string, reports [][]byte, extra map[string][]byte) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	add := func(name string, data []byte) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	// In reverse: the page reads an archive in the order of its names.
	for i := len(names) - 1; i >= 0; i-- {
		add("reports/"+names[i], reports[i])
	}
	for n, d := range extra {
		add(n, d)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The page reads the reports, dropped as files or as a zip archive (with
// a README and a hidden file beside them, which flakegate history skips),
// into the figures of the same runs added without reports: the flaky
// tests, their counts and intervals, the incidents.
func TestReadHistoryFilesAndZip(t *testing.T) {
	names, reports, want := plantedHistory(t)
	if want.Flaky != 3 || len(want.Incidents) != 2 {
		t.Fatalf("the planted history: %d flaky, %d incidents; want 3 and 2 (an outage, a group)", want.Flaky, len(want.Incidents))
	}
	var files []historyFile
	for i := range names {
		files = append(files, memFile(names[i], reports[i]))
	}
	z := zipOf(t, names, reports, map[string][]byte{"README.md": []byte("# CI\n"), "reports/.DS_Store": {0, 1}})
	for _, c := range []struct {
		name   string
		files  []historyFile
		prefix string
	}{{"files", files, ""}, {"zip", []historyFile{memFile("ci.zip", z)}, "ci.zip:reports/"}} {
		h, err := readHistory(c.files, "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := h.Result(history.DefaultOptions)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.Runs != want.Runs || got.Tests != want.Tests || got.Results != want.Results || got.Naive != want.Naive {
			t.Errorf("%s: %d runs, %d tests, %d results, naive %d; want %d, %d, %d, %d", c.name, got.Runs, got.Tests, got.Results, got.Naive,
				want.Runs, want.Tests, want.Results, want.Naive)
		}
		if words.HistoryAnswer(got) != words.HistoryAnswer(want) {
			t.Errorf("%s: %q, want %q", c.name, words.HistoryAnswer(got), words.HistoryAnswer(want))
		}
		for i := range want.Flakes {
			g, w := got.Flakes[i], want.Flakes[i]
			if g.Test != w.Test || g.Failures != w.Failures || g.Runs != w.Runs || g.Lower != w.Lower || g.Upper != w.Upper || g.SameCommitFlips != w.SameCommitFlips {
				t.Errorf("%s: flaky test %d: %+v, want %+v", c.name, i, g, w)
			}
		}
		for i := range want.Incidents {
			g, w := got.Incidents[i], want.Incidents[i]
			if g.Kind != w.Kind || g.FailedTests != w.FailedTests || g.PValue != w.PValue || g.Runs[0].Run != c.prefix+w.Runs[0].Run {
				t.Errorf("%s: incident %d: %+v, want %+v", c.name, i, g, w)
			}
		}
	}
}

// A drop is bounded as /v1/history's request is: an archive whose reports
// unpack to more than 64 MiB is refused before they are read, and so is a
// drop with no report in it.
func TestReadHistoryLimits(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("big.xml")
	w.Write(make([]byte, history.MaxReadUnzippedBytes+1)) // zeros: a small archive
	zw.Close()
	_, err := readHistory([]historyFile{memFile("big.zip", b.Bytes())}, "")
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Kind != core.TooLarge || ce.File != "big.zip:big.xml" || !strings.Contains(ce.Msg, "64 MiB") {
		t.Errorf("an archive unpacking past the limit: %v", err)
	}
	_, err = readHistory([]historyFile{memFile("notes.zip", zipOf(t, nil, nil, map[string][]byte{"README.md": []byte("hi")}))}, "")
	if err == nil || !strings.Contains(err.Error(), "no report files") {
		t.Errorf("an archive without reports: %v", err)
	}
	_, err = readHistory([]historyFile{memFile("cut.zip", []byte("PK\x03\x04 cut short"))}, "")
	if err == nil || !strings.Contains(err.Error(), "cut.zip") || !strings.Contains(err.Error(), "not a zip archive flakegate can read") {
		t.Errorf("a damaged archive: %v", err)
	}
}

// A history's link holds its figures: the page shows the same answer,
// tables and Markdown as the result it was made from.
func TestHistoryShareRoundTrip(t *testing.T) {
	_, _, want := plantedHistory(t)
	want.Link = "https://flakegate.example/history#x" // not part of the state
	v, err := share.History(want)
	if err != nil || !v.Linked() || v.Path != share.HistoryPath || !strings.HasPrefix(v.Fragment, "history=") {
		t.Fatalf("%+v %v", v, err)
	}
	got, err := share.DecodeHistory(strings.TrimPrefix(v.Fragment, "history="))
	if err != nil {
		t.Fatal(err)
	}
	want.Link = ""
	if !sameHistory(t, got, want) {
		t.Errorf("the link's result differs:\n%+v\nwant\n%+v", got, want)
	}
	if a, b := words.HistoryMarkdown(got, words.Link{}), words.HistoryMarkdown(want, words.Link{}); a != b {
		t.Errorf("Markdown from the link:\n%s\nwant\n%s", a, b)
	}
}

// A history with too many flaky tests for a link has none, and says so in
// the words the other views use.
func TestHistoryShareTooLong(t *testing.T) {
	_, _, r := plantedHistory(t)
	f := r.Flakes[0]
	for i := range 3000 {
		f.Test = fmt.Sprintf("pkg/module%04d/TestSomethingLong%d", i, i*7919)
		r.Flakes = append(r.Flakes, f)
	}
	r.Flaky = len(r.Flakes)
	v, err := share.History(r)
	if err != nil || v.Linked() || v.Left != share.LeftHistory || v.LeftBytes <= share.MaxFragment || v.URL("https://x.example") != "" {
		t.Fatalf("%+v %v", v, err)
	}
	note := words.LinkOf(v, "https://x.example").Note
	if !strings.Contains(note, "over the 8,192-byte limit") || !strings.Contains(note, words.Count(int64(v.LeftBytes))) {
		t.Errorf("note %q", note)
	}
	if md := words.HistoryMarkdown(r, words.LinkOf(v, "https://x.example")); !strings.Contains(md, "No link: These figures take") {
		t.Errorf("the Markdown does not say why there is no link")
	}
}

// Figures no history gives are refused, not shown.
func TestDecodeHistoryShareRefuses(t *testing.T) {
	_, _, r := plantedHistory(t)
	for name, spoil := range map[string]func(r *history.Result){
		"rate over 1":        func(r *history.Result) { r.Flakes[0].Upper = 1.5 },
		"failures over runs": func(r *history.Result) { r.Flakes[0].Failures = r.Flakes[0].Runs + 1 },
		"no first failure":   func(r *history.Result) { r.Flakes[0].FirstFailure = nil },
		"incident no runs":   func(r *history.Result) { r.Incidents[0].Runs = nil },
		"no runs":            func(r *history.Result) { r.Runs = 0 },
		"flaky miscounted":   func(r *history.Result) { r.Flaky++ },
	} {
		c := *r
		c.Flakes = append([]history.TestHistory(nil), r.Flakes...)
		c.Incidents = append([]history.Incident(nil), r.Incidents...)
		spoil(&c)
		enc, err := share.Pack(HistoryShare{Version: 1, Result: &c})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := share.DecodeHistory(enc); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	enc, _ := share.Pack(map[string]any{"v": 2, "result": r})
	if _, err := share.DecodeHistory(enc); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("version 2: %v", err)
	}
}

// FuzzDecodeHistoryShare: whatever decodes is shown without a panic, and
// re-encodes to a link that decodes to the same result.
func FuzzDecodeHistoryShare(f *testing.F) {
	_, _, r := plantedHistory(f)
	v, _ := share.History(r)
	good := strings.TrimPrefix(v.Fragment, "history=")
	for _, s := range []string{good, "", "***", good[:9], rawEncode(`{"v":1,"result":{"runs":1,"flakes":[{"runs":1,"failures":1}]}}`)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res, err := share.DecodeHistory(text)
		if err != nil {
			return
		}
		md := words.HistoryMarkdown(res, words.Link{})
		for _, inc := range res.Incidents {
			words.IncidentRow(inc)
		}
		v, err := share.History(res)
		if err != nil || !v.Linked() {
			return
		}
		back, err := share.DecodeHistory(strings.TrimPrefix(v.Fragment, "history="))
		if err != nil {
			t.Fatalf("re-encoded link does not decode: %v", err)
		}
		if words.HistoryMarkdown(back, words.Link{}) != md {
			t.Fatal("re-encoded link shows differently")
		}
	})
}

// The example is the planted month its button describes: three flaky
// tests of 63 (60 stable, 3 flaky; the group's tests are among the
// stable), one outage and one group kept out, and it has a link.
func TestHistoryExample(t *testing.T) {
	runs, err := exampleHistory()
	if err != nil {
		t.Fatal(err)
	}
	r, err := runs.Result(history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if r.Runs != 200 || r.Tests != 63 || r.Flaky != 3 || len(r.Incidents) != 2 {
		t.Errorf("%d runs of %d tests, %d flaky, %d incidents: %s", r.Runs, r.Tests, r.Flaky, len(r.Incidents), words.HistoryAnswer(r))
	}
	if v, err := share.History(r); err != nil || !v.Linked() {
		t.Errorf("no link: %+v %v", v, err)
	}
}

// sameHistory reports whether two history results say the same: every
// member of their JSON (the result's contract), which leaves out what a
// result keeps only for reading its History again (triage's Past).
func sameHistory(t *testing.T, got, want *history.Result) bool {
	t.Helper()
	var a, b bytes.Buffer
	if err := core.WriteJSON(&a, got); err != nil {
		t.Fatal(err)
	}
	if err := core.WriteJSON(&b, want); err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(a.Bytes(), b.Bytes())
}
