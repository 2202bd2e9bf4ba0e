//go:build !calculator

package store

import (
	"crypto/sha256"
	"hash"
)

// newIdentityHash is the hash of Identity: SHA-256. The calculator's
// app.wasm (-tags calculator, mk/web.mk) only reads stores, and
// crypto/sha256 would bring Go's FIPS module into it (identity_hash_calculator.go).
func newIdentityHash() hash.Hash { return sha256.New() }
