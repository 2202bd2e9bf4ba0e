package static

import (
	"strconv"
	"strings"
)

// Encoding is a content coding the handler serves from a compressed copy
// written beside a file: "web/app.wasm.br" is the brotli coding of
// "web/app.wasm".
type Encoding struct {
	Name   string // the coding's name in Accept-Encoding and Content-Encoding
	Suffix string // appended to the file's name to name the copy
}

// Encodings are the codings of the compressed copies, in the order they
// are preferred when a client accepts several equally (brotli's copy of
// app.wasm is about a fifth smaller than gzip's).
var Encodings = []Encoding{{"br", ".br"}, {"gzip", ".gz"}}

// Identity is the coding of the file itself.
const Identity = "identity"

// Negotiate chooses the coding to send, among offered (names from
// Encodings, in order of preference) and the file itself, for the values
// of a request's Accept-Encoding fields (RFC 9110, section 12.5.3):
//
//   - no field at all, or an empty one: the file itself;
//   - a coding is acceptable when listed with a weight (q) above 0, or
//     when "*" is listed with a weight above 0 and the coding is not
//     listed; names are compared without regard to case, "x-gzip" is
//     "gzip", parameters other than q are ignored, and an element whose q
//     is not a number from 0 to 1 with at most three decimals is ignored;
//   - among acceptable offered codings the highest weight wins, ties going
//     to the earlier in offered;
//   - the file itself is sent when no offered coding is acceptable, also
//     when the field refuses it ("identity;q=0"): a server that has
//     nothing else to send may send it (section 12.5.3 allows 406 or the
//     file; a browser always accepts the file).
//
// The file itself is not weighed against the codings: a listed coding
// with any weight above 0 is preferred to it, as in common servers
// (nginx, Apache), since the client can decode it.
func Negotiate(fields []string, offered []string) string {
	if len(offered) == 0 {
		return Identity
	}
	weight := map[string]int{} // in thousandths
	star := -1
	for _, f := range fields {
		for _, el := range strings.Split(f, ",") {
			name, q, ok := parseCoding(el)
			if !ok {
				continue
			}
			if name == "*" {
				star = q
				continue
			}
			weight[name] = q
		}
	}
	best, bestQ := Identity, 0
	for _, c := range offered {
		q, listed := weight[c]
		if !listed {
			q = max(star, 0)
		}
		if q > bestQ {
			best, bestQ = c, q
		}
	}
	return best
}

// parseCoding reads one element of Accept-Encoding: a coding name and its
// weight in thousandths (1000 when no q is given). ok is false for an
// empty element or a malformed weight.
func parseCoding(el string) (name string, q int, ok bool) {
	params := strings.Split(el, ";")
	name = strings.ToLower(strings.TrimSpace(params[0]))
	if name == "" || !token(name) {
		return "", 0, false
	}
	if name == "x-gzip" {
		name = "gzip"
	}
	q = 1000
	for _, p := range params[1:] {
		k, v, found := strings.Cut(strings.TrimSpace(p), "=")
		if !found || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		w, good := parseQ(strings.TrimSpace(v))
		if !good {
			return "", 0, false
		}
		q = w
	}
	return name, q, true
}

// parseQ reads a weight as RFC 9110 spells it ("0", "0.5", "1.000": 0 or
// 1, then up to three decimals; at most 1) in thousandths.
func parseQ(v string) (int, bool) {
	if v == "" || len(v) > 5 || (v[0] != '0' && v[0] != '1') {
		return 0, false
	}
	if len(v) == 1 {
		return int(v[0]-'0') * 1000, true
	}
	if v[1] != '.' {
		return 0, false
	}
	frac := v[2:]
	for _, c := range frac {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n := 0
	if frac != "" {
		n, _ = strconv.Atoi(frac + strings.Repeat("0", 3-len(frac)))
	}
	if v[0] == '1' {
		if n != 0 {
			return 0, false
		}
		return 1000, true
	}
	return n, true
}

// encodingOf returns the coding whose copy name is, and the file it is a
// copy of ("web/app.wasm.br" → br, "web/app.wasm"); ok is false for a
// name with no coding's suffix.
func encodingOf(name string) (Encoding, string, bool) {
	for _, e := range Encodings {
		if base, ok := strings.CutSuffix(name, e.Suffix); ok && base != "" && !strings.HasSuffix(base, "/") {
			return e, base, true
		}
	}
	return Encoding{}, "", false
}
