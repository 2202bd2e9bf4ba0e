package share

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core/aa"
)

// An A/A answer of the API carries a link, and the link's JSON is the
// side's tallies: for 200 scenarios, json.Marshal spent as long on it as
// the rest of the answer's JSON. appendAAState writes the same bytes
// directly; a test checks it against json.Marshal, and fails when AAState,
// aa.Side or aa.Tally gain a field this writer does not know.

// appendAAState appends json.Marshal(s) to dst.
func appendAAState(dst []byte, s *AAState) []byte {
	dst = append(dst, `{"v":`...)
	dst = strconv.AppendInt(dst, int64(s.Version), 10)
	dst = append(dst, `,"baseline":`...)
	dst = appendSide(dst, s.Baseline)
	if s.Candidate != nil { // omitempty
		dst = append(dst, `,"candidate":`...)
		dst = appendSide(dst, s.Candidate)
	}
	if s.Options != nil { // omitempty
		dst = append(dst, `,"options":`...)
		dst = appendTextMap(dst, s.Options)
	}
	return append(dst, '}')
}

// appendTextMap appends json.Marshal(m): its keys sorted.
func appendTextMap(dst []byte, m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		dst = appendString(dst, m[k])
	}
	return append(dst, '}')
}

func appendSide(dst []byte, s *aa.Side) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, `{"scenarios":`...)
	dst = appendTallies(dst, s.Scenarios)
	dst = append(dst, `,"runs":`...)
	dst = appendTallies(dst, s.Runs)
	dst = append(dst, `,"rows":`...)
	dst = strconv.AppendInt(dst, s.Rows, 10)
	dst = append(dst, `,"duplicates":`...)
	dst = strconv.AppendInt(dst, s.Duplicates, 10)
	return append(dst, '}')
}

func appendTallies(dst []byte, ts []aa.Tally) []byte {
	if ts == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, t := range ts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"id":`...)
		dst = appendString(dst, t.ID)
		dst = append(dst, `,"passed":`...)
		dst = strconv.AppendInt(dst, t.Passed, 10)
		dst = append(dst, `,"total":`...)
		dst = strconv.AppendInt(dst, t.Total, 10)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendString appends json.Marshal(s): quoted as it is when every byte is
// printable ASCII that encoding/json leaves alone (it escapes " and \, and
// < > & for HTML); otherwise encoding/json's own encoding.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string always encodes
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// rawBufs holds the JSON of links being packed; one that grew past
// maxPooledRaw is dropped after use.
var rawBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledRaw = 256 << 10
