package page

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/stat"
	"github.com/flakegate/flakegate/core/store"
	"github.com/flakegate/flakegate/internal/testfile"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// storePlan is a planted history: which tests fail in which runs,
// numbered 1..30 in time order. The runs are recorded out of time order
// (run k+1 of the recording is run (7k mod 30)+1 in time), so the picture
// must sort them as history does.
var storePlan = struct {
	runs   int
	stable int
	fails  map[string][]int
	outage int   // the run in which s00..s11 and flaky_a fail at once
	order  []int // time numbers in the order recorded
}{
	runs:   30,
	stable: 20,
	fails: map[string][]int{
		"pkg/flaky_a": {3, 7, 12, 15, 20},
		"pkg/flaky_b": {5, 25},
		"pkg/g1":      {9, 18},
		"pkg/g2":      {9, 18},
		"pkg/broken":  {26, 27, 28, 29, 30},
	},
	outage: 15,
}

func init() {
	for k := range storePlan.runs {
		storePlan.order = append(storePlan.order, 7*k%storePlan.runs+1)
	}
}

var planStart = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// planRun is run n (in time order) of the plan: its meta and results.
func planRun(n int) (history.RunMeta, []history.TestResult) {
	meta := history.RunMeta{Name: fmt.Sprintf("run-%02d.xml", n), File: fmt.Sprintf("run-%02d.xml", n),
		Commit: fmt.Sprintf("c0ffee%02d", n), Branch: "main", Job: "ci/test", Time: planStart.Add(time.Duration(n) * time.Hour)}
	var res []history.TestResult
	for i := range storePlan.stable {
		name := fmt.Sprintf("pkg/s%02d", i)
		failed := n == storePlan.outage && i < 12
		res = append(res, history.TestResult{Test: name, Passed: map[bool]int64{true: 0, false: 1}[failed], Trials: 1})
	}
	names := make([]string, 0, len(storePlan.fails))
	for name := range storePlan.fails {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		failed := slices.Contains(storePlan.fails[name], n)
		res = append(res, history.TestResult{Test: name, Passed: map[bool]int64{true: 0, false: 1}[failed], Trials: 1})
	}
	return meta, res
}

// plantedStore records the plan's runs into a store, as flakegate record
// appends them (one recording per run), and returns its bytes and the
// result of the same runs added to a history directly: the reference.
func plantedStore(t testing.TB) ([]byte, *history.Result) {
	st := store.NewState()
	ref := history.New()
	var file []byte
	for _, n := range storePlan.order {
		meta, res := planRun(n)
		b, ok := st.Add(store.Entry{RunID: "github:" + strconv.Itoa(n), Report: history.NewParsed(meta.File, []history.RunMeta{meta}, [][]history.TestResult{res}, nil, nil)})
		if !ok {
			t.Fatalf("run %d recorded twice", n)
		}
		file = append(file, b...)
		if err := ref.AddRun(meta, res); err != nil {
			t.Fatal(err)
		}
	}
	want, err := ref.Result(history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return file, want
}

// storeTimeline reads a store as the page does and works out its picture.
func storeTimeline(t testing.TB, data []byte) (*history.Result, *Timeline) {
	h, replay, err := readHistoryFiles([]historyFile{memFile("runs.fgs", data)}, "")
	if err != nil {
		t.Fatal(err)
	}
	if replay == nil {
		t.Fatal("a store read without a replay for the picture")
	}
	res, err := h.Result(history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := buildTimeline(res, replay)
	if err != nil {
		t.Fatal(err)
	}
	return res, tl
}

var cellTitle = regexp.MustCompile(`<rect class="hm-fail([^"]*)"[^>]*><title>([^ ]+) ([^<]*?) in run #(\d+) · `)

// failureCells are the picture's failure cells: test -> run numbers, and
// the class of each ("" plain, " hm-group", " hm-broken").
func failureCells(svg string) (map[string][]int, map[string]string) {
	cells, class := map[string][]int{}, map[string]string{}
	for _, m := range cellTitle.FindAllStringSubmatch(svg, -1) {
		n, _ := strconv.Atoi(m[4])
		cells[m[2]] = append(cells[m[2]], n)
		class[m[2]+"#"+m[4]] = m[1]
	}
	return cells, class
}

// TestTimelineCellsFromStore: a store of the planted runs reads as the
// same history as the runs added directly, and its picture has exactly
// the planted failures of the flaky and broken tests drawn, each in its
// run's time-order column, the outage and the group's runs marked, and
// the hover titles naming each run's commit, time and job. The expected
// cells are the plan's, not the code's: a test planted to fail in runs 3
// and 7 has a cell in those runs and no other.
func TestTimelineCellsFromStore(t *testing.T) {
	data, want := plantedStore(t)
	res, tl := storeTimeline(t, data)
	if got, w := string(jsonOf(t, res)), string(jsonOf(t, want)); got != w {
		t.Fatalf("the store reads as\n%s\nthe runs themselves as\n%s", got, w)
	}
	// The plan: flaky_a (4 of 29 runs outside the outage) then flaky_b
	// (2 of 29: the outage run is no run of theirs either), g1 and g2 a group, broken a broken test, run 15 an outage.
	var rows []string
	for _, r := range tl.Rows {
		rows = append(rows, fmt.Sprintf("%s broken=%v %d/%d", r.Test, r.Broken, r.Failures, r.Ran))
	}
	if w := []string{"pkg/flaky_a broken=false 4/29", "pkg/flaky_b broken=false 2/29", "pkg/broken broken=true 5/29"}; !slices.Equal(rows, w) {
		t.Errorf("rows %q, want %q", rows, w)
	}
	svg := TimelinePlot(tl, RunPlotWide)
	cells, class := failureCells(svg)
	for _, test := range []string{"pkg/flaky_a", "pkg/flaky_b", "pkg/broken"} {
		if !slices.Equal(cells[test], storePlan.fails[test]) {
			t.Errorf("%s: cells in runs %v, planted failures in %v", test, cells[test], storePlan.fails[test])
		}
	}
	if len(cells) != 3 {
		t.Errorf("cells of %d tests, want the 3 rows'", len(cells))
	}
	if class["pkg/broken#26"] != " hm-broken" || class["pkg/flaky_a#3"] != "" {
		t.Errorf("classes: broken %q, flaky %q", class["pkg/broken#26"], class["pkg/flaky_a#3"])
	}
	// The outage: one shaded column and one strip mark, at run 15; the
	// group's runs 9 and 18 marked in the strip (its tests are not rows).
	// Run 15 is at 09:00 + 15 h: 2026-11-03T00:00:00Z.
	if n := strings.Count(svg, `class="hm-col hm-outage"`); n != 1 || !strings.Contains(svg, "<title>Run #15 (an outage) · run-15.xml · commit c0ffee15 on main · 2026-11-03T00:00:00Z · job ci/test</title>") {
		t.Errorf("%d outage columns, want 1; or run 15's title is not its commit, time and job", n)
	}
	marks := regexp.MustCompile(`<rect class="hm-mark ([a-z-]+)"[^>]*><title>Run #(\d+):`).FindAllStringSubmatch(svg, -1)
	var got []string
	for _, m := range marks {
		got = append(got, m[1]+" "+m[2])
	}
	if w := []string{"hm-group 9", "hm-outage-mark 15", "hm-group 18"}; !slices.Equal(got, w) {
		t.Errorf("strip marks %q, want %q", got, w)
	}
	if !strings.Contains(svg, "tests that fail only together failed (pkg/g1, pkg/g2)") {
		t.Error("the group's mark does not name its tests")
	}
	if !strings.Contains(svg, "<title>pkg/flaky_a failed in run #7 · run-07.xml · commit c0ffee07 on main · 2026-11-02T16:00:00Z · job ci/test</title>") {
		t.Error("no hover title of flaky_a's failure in run 7 with its commit, time and job")
	}
	if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") || strings.Contains(svg, "style=") {
		t.Error("the picture has a NaN, an Inf or an inline style")
	}
	testfile.Golden(t, filepath.Join("testdata", "timeline.svg"), []byte(svg), *update, "-update")
	// The phone's picture has the same marks.
	narrow := TimelinePlot(tl, RunPlotNarrow)
	if nc, _ := failureCells(narrow); fmt.Sprint(nc) != fmt.Sprint(cells) {
		t.Errorf("the phone's picture has marks %v, the wide one %v", nc, cells)
	}
	testfile.Golden(t, filepath.Join("testdata", "timeline-narrow.svg"), []byte(narrow), *update, "-update")
}

// TestTimelineRates: the moving window is 10 runs (30 runs / 10, at least
// 10); flaky_a's counted runs leave out the outage (run 15). At run 20 its
// last 10 counted runs are 10-14 and 16-20, in which it failed in 12 and
// 20: 2/10, with the Wilson interval of 2 in 10 at 95%. Before its 10th
// counted run (run 10) there is no rate. The broken test has no rate line.
func TestTimelineRates(t *testing.T) {
	data, _ := plantedStore(t)
	_, tl := storeTimeline(t, data)
	if tl.Window != 10 || tl.First != 1 || len(tl.Cols) != 30 {
		t.Fatalf("window %d, first %d, %d columns; want 10, 1, 30", tl.Window, tl.First, len(tl.Cols))
	}
	a := tl.Rows[0]
	lo, hi := stat.Wilson(2, 10, stat.Z(0.95))
	if k := 20 - 1; a.Rate[k] != 0.2 || a.Lower[k] != lo || a.Upper[k] != hi {
		t.Errorf("run 20: rate %v [%v, %v], want 0.2 [%v, %v]", a.Rate[k], a.Lower[k], a.Upper[k], lo, hi)
	}
	// Run 10: its 10th counted run, 1-10 with failures in 3 and 7: 2/10.
	if !math.IsNaN(a.Rate[8]) || a.Rate[9] != 0.2 {
		t.Errorf("runs 9 and 10: rates %v and %v, want none and 0.2", a.Rate[8], a.Rate[9])
	}
	// Run 30: counted runs 21-30 (none left out), no failure: 0.
	if a.Rate[29] != 0 {
		t.Errorf("run 30: rate %v, want 0", a.Rate[29])
	}
	for k, r := range tl.Rows[2].Rate {
		if !math.IsNaN(r) {
			t.Fatalf("the broken test has a rate at run %d", k+1)
		}
	}
}

// TestTimelineBounds: past maxPicCols runs the latest are drawn, past
// maxPicFlakes flaky tests the most often failing are, and a sentence
// says what is left out. Planted: 300 runs of 15 flaky tests, test k
// failing in runs 10, 100 and 250+k, and test 0 also in 299.
func TestTimelineBounds(t *testing.T) {
	h := history.New()
	var metas []history.RunMeta
	var runs [][]history.TestResult
	for n := 1; n <= 300; n++ {
		meta := history.RunMeta{Name: fmt.Sprintf("r%d", n), Time: planStart.Add(time.Duration(n) * time.Minute)}
		var res []history.TestResult
		for k := range 15 {
			failed := n == 10 && k < 1 || n == 100+k || n == 250+k || k == 0 && n == 299
			res = append(res, history.TestResult{Test: fmt.Sprintf("t%02d", k), Passed: map[bool]int64{true: 0, false: 1}[failed], Trials: 1})
		}
		metas, runs = append(metas, meta), append(runs, res)
		if err := h.AddRun(meta, res); err != nil {
			t.Fatal(err)
		}
	}
	res, err := h.Result(history.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := buildTimeline(res, func(add func(history.RunMeta, []history.TestResult) error) error {
		for i := range metas {
			if err := add(metas[i], runs[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Flaky != 15 || len(tl.Rows) != maxPicFlakes || tl.First != 61 || len(tl.Cols) != maxPicCols {
		t.Fatalf("%d flaky, %d rows, first run %d, %d columns; want 15, %d, 61, %d", res.Flaky, len(tl.Rows), tl.First, len(tl.Cols), maxPicFlakes, maxPicCols)
	}
	cells, _ := failureCells(TimelinePlot(tl, RunPlotWide))
	// t00 fails in 10 (left out), 100, 250 and 299: the first most often.
	if tl.Rows[0].Test != "t00" || !slices.Equal(cells["t00"], []int{100, 250, 299}) {
		t.Errorf("first row %s, cells %v; want t00 in 100, 250, 299", tl.Rows[0].Test, cells["t00"])
	}
	if w := "The picture leaves out the first 60 runs (the latest 240 are drawn) and 3 flaky tests failing less often than those drawn; the tables below list every test."; tl.LeftOut() != w {
		t.Errorf("left out: %q\nwant %q", tl.LeftOut(), w)
	}
	// A replay that gives other runs than the result's is refused.
	if _, err := buildTimeline(res, func(add func(history.RunMeta, []history.TestResult) error) error { return add(metas[0], runs[0]) }); err == nil {
		t.Error("a replay of 1 run drew a picture of a result of 300")
	}
}

// TestHistoryPageReadsStore: the history page given a store (as a drop
// hands it over) shows the answer, the worst test's sentence and the
// picture, whose cells are the planted failures; a damaged store is
// refused with where, and one over MaxStoreBytes with the limit named.
func TestHistoryPageReadsStore(t *testing.T) {
	data, want := plantedStore(t)
	h := &historyT{}
	e := load(t, h)
	hist, replay, err := readHistoryFiles([]historyFile{memFile("runs.fgs", data)}, "")
	h.name, h.replay = "runs.fgs", replay
	h.compute(hist, err)
	h.writeURL(h.ctx)
	settle(e, h.ctx)
	html := app.HTMLString(h)
	for _, w := range []string{
		`id="answer-text">2 of 25 tests are flaky in 30 runs; 1 outage (run 15, 13 or more tests failing at once) and 1 group of tests failing only together were kept out.</p>`,
		`id="answer-worst">The worst, pkg/flaky_a, fails 13.8% of its runs (4/29; 95% interval`,
		`<figure id="timeline">`,
		`<title>pkg/flaky_b failed in run #25 · run-25.xml · commit c0ffee25 on main · 2026-11-03T10:00:00Z · job ci/test</title>`,
	} {
		if !strings.Contains(html, w) {
			t.Errorf("the page lacks %s", w)
		}
	}
	if h.Result() == nil || string(jsonOf(t, h.Result())) != string(jsonOf(t, want)) {
		t.Error("the page's result is not the runs' own")
	}
	// A store link keeps its address as the page's link.
	h.storeAddr = "https://ci.example/runs.fgs"
	h.writeURL(h.ctx)
	if got := fragmentOf(h.ctx.Page().URL()); got != "store=https%3A%2F%2Fci.example%2Fruns.fgs" || storeAddrOf(got) != h.storeAddr {
		t.Errorf("store link %q reads back as %q", got, storeAddrOf(got))
	}

	// Damage: a flipped byte in the last record's checksum.
	bad := slices.Clone(data)
	bad[len(bad)-1] ^= 1
	if _, _, err := readHistoryFiles([]historyFile{memFile("runs.fgs", bad)}, ""); err == nil || !strings.Contains(err.Error(), "runs.fgs: damaged at byte") {
		t.Errorf("a damaged store: %v", err)
	}
	big := append(store.Header(), make([]byte, MaxStoreBytes)...)
	if _, _, err := readHistoryFiles([]historyFile{memFile("big.fgs", big)}, ""); core.ErrorKind(err) != core.TooLarge || !strings.Contains(err.Error(), "over 16 MiB") {
		t.Errorf("a store over the limit: %v", err)
	}
	for _, addr := range []string{"ftp://x/runs.fgs", "runs.fgs", "https:///runs.fgs", "//evil.example/runs.fgs", "javascript:alert(1)"} {
		if checkStoreURL(addr) == nil {
			t.Errorf("store address %q taken", addr)
		}
	}
	for _, addr := range []string{"https://ci.example/runs.fgs", "/data/runs.fgs"} {
		if err := checkStoreURL(addr); err != nil {
			t.Error(err)
		}
	}
	if storeName("/data/runs.fgs") != "runs.fgs" || storeName("https://ci.example/") != "https://ci.example/" {
		t.Errorf("store names %q, %q", storeName("/data/runs.fgs"), storeName("https://ci.example/"))
	}
}

// FuzzReadStoreDrop: any bytes after a store's header, dropped on the
// page, are read or refused without a panic; what is read draws a picture
// whose every row has a cell per drawn run.
func FuzzReadStoreDrop(f *testing.F) {
	data, _ := plantedStore(f)
	f.Add(data[store.HeaderSize:])
	f.Add(data[store.HeaderSize : len(data)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		file := append(store.Header(), b...)
		h, replay, err := readHistoryFiles([]historyFile{memFile("runs.fgs", file)}, "")
		if err != nil {
			return
		}
		res, err := h.Result(history.DefaultOptions)
		if err != nil {
			return
		}
		tl, err := buildTimeline(res, replay)
		if err != nil {
			t.Fatalf("a store read draws no picture: %v", err)
		}
		for _, r := range tl.Rows {
			if len(r.Cells) != len(tl.Cols) || len(r.Rate) != len(tl.Cols) {
				t.Fatalf("%s: %d cells, %d rates for %d runs", r.Test, len(r.Cells), len(r.Rate), len(tl.Cols))
			}
		}
		if svg := TimelinePlot(tl, RunPlotNarrow); strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
			t.Fatal("the picture has a NaN or an Inf")
		}
	})
}
