package page

import (
	"bytes"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/share"
)

// MaxShareFragment is the longest state, in bytes of fragment, that the
// page puts in a link (share.MaxFragment).
const MaxShareFragment = share.MaxFragment

// AAShare is the shareable state of an A/A view (share.AAState); the page
// encodes and decodes it with package share, as the CLI and the API do.
type AAShare = share.AAState

// ShareJSON is the indented JSON of s, for download.
func ShareJSON(s AAShare) []byte {
	var b bytes.Buffer
	core.WriteJSON(&b, s.Written())
	return b.Bytes()
}
