package core

import (
	"encoding/json"
	"io"
)

// WriteJSON writes v as the contract's JSON: two-space indentation, no HTML
// escaping, a trailing newline. Every surface (CLI -json, API, calculator
// exports) writes results through it, so the same result is the same bytes
// everywhere. Floats use Go's shortest round-trip form.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
