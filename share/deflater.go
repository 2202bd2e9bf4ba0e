//go:build !wasm

package share

import "github.com/flakegate/flakegate/share/internal/deflate"

// newDeflater is compress/flate's compressor at BestCompression, from
// share/internal/deflate, whose Reset does not clear 640 KB of tables: the
// same bytes, cheaper for a server that packs a link for every answer.
func newDeflater() deflater { return deflate.NewWriter(nil) }
