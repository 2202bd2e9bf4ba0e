package app

import (
	"encoding/hex"
	"math/rand/v2"
)

// newID returns a random version 4 UUID in its text form, for the device
// id and a tab's broadcast id. It draws from math/rand/v2 (ChaCha8, seeded
// by the runtime from the system's or the browser's entropy) instead of
// github.com/google/uuid, whose crypto/rand, crypto/md5 and crypto/sha1
// (and Go's FIPS module behind them) were a few hundred KB of app.wasm.
func newID() string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		v := rand.Uint64()
		for j := 0; j < 8; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 9562 variant
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}
