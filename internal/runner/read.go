package runner

import (
	"fmt"
	"io"
	"os"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// ReadLedger reads the committed part of the ledger at path (not a torn
// tail) into a ledger, for the verdicts, and returns its State. The run
// records are read as report.ReadLedger reads them: no trials; their notes
// and the errors of runs never done are the ledger's warnings.
func ReadLedger(path string) (*ledger.Ledger, *State, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("ledger %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	st, err := Scan(f, path)
	if err != nil {
		return nil, nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, err
	}
	l := ledger.New()
	if err := report.ReadLedger(io.LimitReader(f, st.Size), l); err != nil {
		return nil, nil, core.WithFile(err, path)
	}
	return l, st, nil
}
