package page

import (
	"bytes"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/share"
)

// MaxShareFragment is the longest state, in bytes of fragment, that the
// page puts in a link (share.MaxFragment).
const MaxShareFragment = share.MaxFragment

// AAShare is the shareable state of an A/A view (share.AAState); the page
// encodes and decodes it with package share, as the CLI and the API do.
type AAShare = share.AAState

// EncodeAAShare is share.EncodeAA: the text of an "aa=" fragment value.
func EncodeAAShare(s AAShare) (string, error) { return share.EncodeAA(s) }

// maxShareJSON is share.MaxJSON, the most JSON a shared state unpacks to.
const maxShareJSON = share.MaxJSON

// unpackShare is share.Unpack.
func unpackShare(text string) ([]byte, error) { return share.Unpack(text) }

// packShare is share.Pack.
func packShare(v any) (string, error) { return share.Pack(v) }

// DecodeAAShare is share.DecodeAA.
func DecodeAAShare(text string) (AAShare, error) { return share.DecodeAA(text) }

// ParseAAShareJSON is share.ParseAAJSON: the uncompressed JSON form of a
// share (the file the page offers when a link would be too long).
func ParseAAShareJSON(raw []byte) (AAShare, error) { return share.ParseAAJSON(raw) }

// ShareJSON is the indented JSON of s, for download.
func ShareJSON(s AAShare) []byte {
	s.Version = 1
	var b bytes.Buffer
	core.WriteJSON(&b, s)
	return b.Bytes()
}
