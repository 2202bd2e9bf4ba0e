package app

import "github.com/maxence-charriere/go-app/v10/pkg/errors"

// In the browser, Encrypt, Decrypt and PersistWithEncryption report an
// error: AES-GCM and crypto/rand (with Go's FIPS module behind them)
// would add a few hundred KB to every app.wasm, and the calculator keeps
// no state encrypted. Built natively (crypto.go) they work as upstream's.
var errNoEncryption = errors.New("encrypted values are not available in this build of go-app (third_party/go-app/README.md)")

func encrypt(key string, v []byte) ([]byte, error) { return nil, errNoEncryption }

func decrypt(key string, v []byte) ([]byte, error) { return nil, errNoEncryption }
