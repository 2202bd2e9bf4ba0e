package main

import (
	"fmt"
	"io"
	"reflect"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/jsonscan"
)

// storedClaim is what freeze -record reads: the freeze result freeze -json
// wrote (its claim under "claim"), or the claim's own fields alone.
type storedClaim struct {
	gate.FreezeResult
	gate.Claim
}

// readRecord reads a stored claim by the rules of every JSON input
// (jsonscan.Decode: exact keys, none twice, no unknown field), its
// errors with line, column and path.
func readRecord(e *env, name string) (*gate.Claim, error) {
	return readFile(e, name, func(r io.Reader) (*gate.Claim, error) {
		b, err := io.ReadAll(io.LimitReader(r, 1<<20))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", displayName(name), err)
		}
		return parseRecord(b, displayName(name))
	})
}

// parseRecord reads the stored claim b, the file shown as name.
func parseRecord(b []byte, name string) (*gate.Claim, error) {
	var doc storedClaim
	if err := jsonscan.Decode(b, "claim", &doc); err != nil {
		return nil, fmt.Errorf("%s:%v", name, err)
	}
	c := doc.FreezeResult.Claim
	if doc.Claim != (gate.Claim{}) {
		if !reflect.ValueOf(doc.FreezeResult).IsZero() {
			return nil, fmt.Errorf("%s: not a stored claim: a freeze result's fields beside a claim's own", name)
		}
		c = doc.Claim
	}
	if c.Trials == 0 {
		return nil, fmt.Errorf("%s: not a stored claim: no trials", name)
	}
	return &c, nil
}
