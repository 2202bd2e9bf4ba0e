//go:build js && wasm

package bridge

import (
	"net/http"
	"strings"
	"syscall/js"
)

// Header returns the fields of a JavaScript Headers object as an
// http.Header, each value as the Headers object holds it.
//
// A Headers object has already joined the lines of a repeated field into
// one value with ", " (the Fetch standard's "combine"), which RFC 9110
// (section 5.3) allows for any list-valued field, so the value is kept
// whole: splitting it at commas would cut values that hold commas of their
// own, such as a quoted multipart boundary, a date or a list of requested
// header names, and Header.Get would see only the first piece. Set-Cookie,
// which cannot be combined, comes out of entries() one value at a time and
// is kept so.
func Header(headers js.Value) http.Header {
	// One string across, not a value per name and per field: each value
	// that crosses from JavaScript costs more than the whole join. Neither
	// names nor values can hold a newline (the Fetch standard refuses them).
	flat := array.Call("from", headers.Call("entries")).Call("flat").Call("join", "\n").String()
	h := http.Header{}
	for flat != "" {
		name, rest, _ := strings.Cut(flat, "\n")
		value, rest, _ := strings.Cut(rest, "\n")
		h.Add(name, value)
		flat = rest
	}
	return h
}

var array = js.Global().Get("Array")
