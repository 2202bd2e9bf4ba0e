// Package deflate is compress/flate's compressor at BestCompression, the
// level share links are packed at, with two changes that keep every output
// byte and make it cheaper to reuse:
//
//   - Reset moves the hash chains' offset past every position stored, which
//     puts them all out of the window, instead of clearing 640 KB of tables
//     (compress/flate clears them on every Reset; for a link of a few KB that
//     was a tenth of the work, and it evicts a request's data from the cache);
//   - match lengths are compared 8 bytes at a time.
//
// The source is Go 1.26's compress/flate (deflate.go, huffman_bit_writer.go,
// huffman_code.go, token.go; BSD license in LICENSE), cut to that one level.
// The tests check its bytes against compress/flate's on every kind of input.
package deflate
