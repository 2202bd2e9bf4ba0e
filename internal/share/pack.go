package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"sync"

	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/param"
)

// MaxFragment is the longest fragment, in bytes, a link holds. Longer
// states are left out of the link (the page offers them as a file): some
// chat tools and browsers truncate longer URLs.
const MaxFragment = 8 << 10

// AAState is the shareable state of an A/A view: the sufficient statistics
// of the baseline and, optionally, the candidate. aa.Check on these gives
// every figure of the view exactly; the raw CSV is not needed.
type AAState struct {
	Version   int      `json:"v"` // format version, 1 or AAVersion
	Baseline  *aa.Side `json:"baseline"`
	Candidate *aa.Side `json:"candidate,omitempty"`
	// Options is the text of the check's options by param.AA's keys
	// (AAOptionsText), in version 2; nil in version 1, whose links were
	// opened with the options of aaFirstFormat.
	Options map[string]string `json:"options,omitempty"`
}

// LedgerState is the shareable state of a ledger dropped on the decide
// view: its summary, from which core gives every test's verdict exactly as
// from the trials.
type LedgerState struct {
	Version int            `json:"v"` // format version, 1
	Ledger  ledger.Summary `json:"ledger"`
}

// Written is s as a link or a file writes it: of AAVersion, and with
// today's default options (param.AA's) when it has none.
func (s AAState) Written() AAState {
	s.Version = AAVersion
	if s.Options == nil {
		s.Options = AAOptionsText(param.AA.Default())
	}
	return s
}

// EncodeAA is the fragment value ("aa=" + it) of s, of AAVersion:
// Pack(s), with the JSON written by appendAAState. A state without
// options is written with today's defaults (param.AA's), the options of
// statistics dropped on the page.
func EncodeAA(s AAState) (string, error) {
	s = s.Written()
	buf := rawBufs.Get().(*[]byte)
	raw := appendAAState((*buf)[:0], &s)
	text, err := deflateText(raw)
	if cap(raw) <= maxPooledRaw {
		*buf = raw
		rawBufs.Put(buf)
	}
	return text, err
}

// EncodeLedger is the fragment value ("ledger=" + it) of a ledger's
// summary, version 1.
func EncodeLedger(s *ledger.Summary) (string, error) {
	return Pack(LedgerState{Version: 1, Ledger: *s})
}

// Pack is the fragment text of v: compact JSON, DEFLATE at best
// compression, base64url without padding. Its characters need no escaping
// in a URL fragment or a query value.
func Pack(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return deflateText(raw)
}

// deflateText is Pack's text of the JSON raw.
func deflateText(raw []byte) (string, error) {
	var b bytes.Buffer
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&b)
	w.Write(raw) // a bytes.Buffer does not fail
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b.Bytes()), nil
}

// deflaters holds compressors at BestCompression for Pack. A new one
// allocates about 1 MB of tables, which an API answer would otherwise pay
// for each link it builds; Reset makes a used one equivalent to a new one,
// so the bytes are the same.
var deflaters = sync.Pool{New: func() any {
	w, err := flate.NewWriter(nil, flate.BestCompression)
	if err != nil { // only for a level out of range
		panic(err)
	}
	return w
}}
