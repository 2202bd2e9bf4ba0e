package api

import "github.com/flakegate/flakegate/core/jsonscan"

// jsonShape is what a walk of a JSON text finds before any tree of it is
// built: enough to refuse a body whose tree would be large, while the body
// is still only bytes. The quarantine registry's reader builds a tree of
// the whole file, a hundred bytes or more per value: 4 MiB of "0," would
// be 2 million values and hundreds of MB.
type jsonShape struct {
	// Marks counts the '{', '[', ',' and ':' of the text: at least the
	// number of values and member names, less one.
	Marks int
	// Members counts the members of all objects (their ':').
	Members int
	// Entries counts the objects that open two levels down, such as the
	// entries of {"tests": [{...}, {...}]}.
	Entries int
}

// scanJSON walks b with the core's scanner, keeping nothing but counts
// (not even an object's keys: a repeated one passes here). It never fails:
// it counts up to the first mistake, and the reader that follows says what
// is wrong with a text that is not JSON.
func scanJSON(b []byte) jsonShape {
	var sh jsonShape
	var s jsonscan.Scanner
	s.Reset(b, 1, "body")
	s.AllowRepeats() // no key held: the reader that follows looks for repeats
	var value func(depth int) error
	value = func(depth int) error {
		k, err := s.Kind()
		if err != nil {
			return err
		}
		switch k {
		case jsonscan.Object:
			sh.Marks++
			if depth == 2 {
				sh.Entries++
			}
			n := 0
			return s.Object(func([]byte) error {
				sh.Members++
				sh.Marks += 1 + min(n, 1) // the ':', and the ',' before all but the first
				n++
				return value(depth + 1)
			})
		case jsonscan.Array:
			sh.Marks++
			return s.Array(func(i int) error {
				sh.Marks += min(i, 1)
				return value(depth + 1)
			})
		}
		return s.Skip()
	}
	value(0)
	return sh
}
