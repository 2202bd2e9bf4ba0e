package api

// jsonShape is what a scan of a JSON text finds before any of it is
// parsed: enough to refuse a body whose tree would be large, while the
// body is still only bytes. The quarantine registry's reader builds a
// tree of the whole file, a hundred bytes or more per value: 4 MiB of
// "0," would be 2 million values and hundreds of MB.
type jsonShape struct {
	// Marks counts the '{', '[', ',' and ':' outside strings: at least the
	// number of values and member names, less one.
	Marks int
	// Members counts the ':' outside strings: the members of all objects.
	Members int
	// Entries counts the objects that open two levels down, such as the
	// entries of {"tests": [{...}, {...}]}.
	Entries int
}

// scanJSON scans b without parsing it; it never fails, since the parser
// that follows says what is wrong with a text that is not JSON.
func scanJSON(b []byte) jsonShape {
	var s jsonShape
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{':
			if depth == 2 {
				s.Entries++
			}
			depth++
			s.Marks++
		case '[':
			depth++
			s.Marks++
		case '}', ']':
			depth--
		case ':':
			s.Members++
			s.Marks++
		case ',':
			s.Marks++
		}
	}
	return s
}
