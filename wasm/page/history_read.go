package page

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/core/report"
	"github.com/flakegate/flakegate/core/store"
	"github.com/flakegate/flakegate/internal/share"
)

// HistoryShare is the shareable state of a history (share.HistoryState);
// a link carries it as "history=" + base64url(DEFLATE(JSON)).
type HistoryShare = share.HistoryState

// historyFile is one dropped file: its name and a function that reads it
// whole (at most max bytes, else an error).
type historyFile struct {
	name string
	read func(max int64) ([]byte, error)
}

// readHistory reads dropped reports (each one run), zip archives (each
// report file in them one run, in the order of their names, as flakegate
// history reads an archive) and history stores (their recorded runs) into
// a history, within history's bounded-read limits, the ones /v1/history
// applies.
func readHistory(files []historyFile, format string) (*history.History, error) {
	h, _, err := readHistoryFiles(files, format)
	return h, err
}

// readHistoryFiles is readHistory, and when every file was a store, the
// replay of their runs the picture is drawn from (else nil).
func readHistoryFiles(files []historyFile, format string) (*history.History, runReplay, error) {
	h := history.New()
	h.SetLimits(history.MaxReadTests, history.MaxReadRunCells)
	left := int64(history.MaxReadUnzippedBytes) // report bytes, over the drop
	tooLarge := func(name string) error {
		return &core.Error{Kind: core.TooLarge, File: name,
			Msg: fmt.Sprintf("the reports dropped at once are over %d MiB: run the CLI (flakegate history), which has no such limit", history.MaxReadUnzippedBytes>>20)}
	}
	tooManyRuns := func(name string) error {
		return &core.Error{Kind: core.TooLarge, File: name,
			Msg: fmt.Sprintf("over %s runs: run the CLI (flakegate history), which has no such limit", "10,000")}
	}
	// bound checks the runs and results read so far.
	bound := func(name string) error {
		if h.Runs() > history.MaxReadRuns {
			return tooManyRuns(name)
		}
		if h.Results() > history.MaxReadResults {
			return &core.Error{Kind: core.TooLarge, File: name,
				Msg: "over 2,000,000 test results (a test in a run): run the CLI (flakegate history), which has no such limit"}
		}
		return nil
	}
	run := func(name string, data []byte) error {
		if h.Runs() >= history.MaxReadRuns {
			return tooManyRuns(name)
		}
		meta := history.RunMeta{Name: name, File: name}
		if err := h.ReadRun(meta, bytes.NewReader(data), report.Options{Format: format}); err != nil {
			return core.WithFile(err, name)
		}
		return bound(name)
	}
	var storeNames []string
	var stores [][]byte
	others := 0
	for _, f := range files {
		data, err := f.read(left)
		if err != nil {
			return nil, nil, err
		}
		if store.IsStore(data) {
			left -= int64(len(data))
			if err := readStoreRuns(h, f.name, data, bound); err != nil {
				return nil, nil, err
			}
			storeNames, stores = append(storeNames, f.name), append(stores, data)
			continue
		}
		others++
		if !bytes.HasPrefix(data, []byte("PK\x03\x04")) {
			left -= int64(len(data))
			if err := run(f.name, data); err != nil {
				return nil, nil, err
			}
			continue
		}
		z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, nil, &core.Error{Kind: core.Invalid, File: f.name, Msg: history.ZipProblem(err)}
		}
		for _, e := range history.ReportEntries(z) {
			name := f.name + ":" + e.Name
			if e.UncompressedSize64 > uint64(left) {
				return nil, nil, tooLarge(name)
			}
			rc, err := e.Open()
			if err != nil {
				return nil, nil, &core.Error{Kind: core.Invalid, File: name, Msg: history.ZipProblem(err)}
			}
			b, err := io.ReadAll(io.LimitReader(rc, left+1))
			rc.Close()
			switch {
			case err != nil && history.IsZipError(err) || errors.Is(err, io.ErrUnexpectedEOF):
				return nil, nil, &core.Error{Kind: core.Invalid, File: name, Msg: history.ZipProblem(err)}
			case err != nil:
				return nil, nil, err
			case int64(len(b)) > left:
				return nil, nil, tooLarge(name)
			}
			left -= int64(len(b))
			if err := run(name, b); err != nil {
				return nil, nil, err
			}
		}
	}
	if h.Runs() == 0 {
		return nil, nil, &core.Error{Kind: core.Invalid, Msg: "no report files: drop the runs' reports (" + strings.Join(history.ReportExts, ", ") + ") or a zip archive of them"}
	}
	var replay runReplay
	if others == 0 {
		replay = storesReplay(storeNames, stores)
	}
	return h, replay, nil
}
