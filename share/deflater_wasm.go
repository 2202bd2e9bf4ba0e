//go:build wasm

package share

import "compress/flate"

// newDeflater is compress/flate's compressor at BestCompression. In a
// browser a link is packed now and then, and app.wasm links
// compress/flate's compressor anyway; share/internal/deflate (the same
// bytes) would add 100 KB to it.
func newDeflater() deflater {
	w, err := flate.NewWriter(nil, flate.BestCompression)
	if err != nil { // only for a level out of range
		panic(err)
	}
	return w
}
