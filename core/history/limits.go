package history

import (
	"path"
	"slices"
	"strings"
)

// Limits of one bounded read of a history: what a request of the API or a
// drop on the page may hold, beside the bytes it sends. A History keeps two
// bits per result and a few dozen bytes per run and test, so the memory of
// the largest such read is a few MB. The CLI has no such limit.
const (
	MaxReadResults       = 2_000_000 // test results read (a test in a run)
	MaxReadRuns          = 10_000    // runs (report files)
	MaxReadTests         = 20_000    // distinct test names
	MaxReadUnzippedBytes = 64 << 20  // what zip archives unpack to, over the read
	MaxReadRunCells      = 50_000    // (run, test) pairs in one report file
)

// ReportExts are the names of the files a folder or a zip archive
// contributes to a history: the report formats' usual extensions.
var ReportExts = []string{".xml", ".json", ".jsonl", ".ndjson", ".trx", ".tap", ".eval"}

// IsReportName reports whether a file in a folder or a zip archive is read
// as a run: it has one of ReportExts and is not hidden (its base name does
// not start with a dot).
func IsReportName(name string) bool {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	return !strings.HasPrefix(base, ".") && slices.Contains(ReportExts, strings.ToLower(path.Ext(base)))
}
