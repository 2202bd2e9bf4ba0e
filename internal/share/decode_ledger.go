package share

import (
	"fmt"

	"github.com/flakegate/flakegate/core/ledger"
)

// DecodeLedger reverses EncodeLedger and refuses a summary no
// ledger could give (ledger.Summary.Check).
func DecodeLedger(text string) (*ledger.Summary, error) {
	raw, err := Unpack(text)
	if err != nil {
		return nil, err
	}
	s, err := ReadLedgerJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("share data: %w", err)
	}
	if s.Version != 1 {
		return nil, fmt.Errorf("share data: unknown version %d", s.Version)
	}
	if err := s.Ledger.Check(); err != nil {
		return nil, fmt.Errorf("share data: %w", err)
	}
	return &s.Ledger, nil
}

// ReadLedgerJSON reads a LedgerState's JSON with the rules of ReadAAJSON;
// whatever it accepts, encoding/json decodes to the same share
// (FuzzLedgerShareJSON).
func ReadLedgerJSON(raw []byte) (LedgerState, error) {
	var s LedgerState
	err := readState(raw, &s)
	return s, err
}
