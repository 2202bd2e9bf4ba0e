package jsonscan_test

import (
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core/jsonscan"
)

// A reader keeps the fields it knows, skips the others, and refuses a
// field it has no place for with the key's position and the object's path.
func Example() {
	line := []byte(`{"run": "b1", "arm": "baseline", "extra": [1, {"x": null}], "results": [{"ok": true, "okay": 1}]}`)
	var s jsonscan.Scanner
	s.Reset(line, 3, "line") // the third line of a file
	var run string
	err := s.Object(func(key []byte) error {
		switch string(key) {
		case "run":
			var err error
			run, err = s.Text()
			return err
		case "results":
			return s.Array(func(int) error {
				return s.Object(func(key []byte) error {
					if string(key) != "ok" {
						return s.KeyErrorf("unknown field %q", key)
					}
					return s.Skip()
				})
			})
		}
		return s.Skip()
	})
	fmt.Println(run)
	fmt.Println(err)
	// Output:
	// b1
	// 3:86: results[0]: unknown field "okay"
}

// A stream is read a piece at a time: a long value the reader skips takes
// no more memory than the limit, while one it keeps may not exceed it.
func ExampleScanner_ResetReader() {
	report := strings.NewReader(`{"title": "checkout", "log": "` + strings.Repeat("x", 10000) + `", "title": "again"}`)
	var s jsonscan.Scanner
	s.ResetReader(report, 1024, "report")
	err := s.Object(func(key []byte) error {
		if string(key) == "title" {
			title, err := s.Text()
			fmt.Println(title)
			return err
		}
		return s.Skip()
	})
	fmt.Println(err)
	// Output:
	// checkout
	// 1:10034: field "title" appears twice
}

// Check holds a text to the grammar before another reader maps it.
func ExampleCheck() {
	fmt.Println(jsonscan.Check([]byte(`{"rate": NaN}`), "claim"))
	fmt.Println(jsonscan.Check([]byte(`{"rate": 0.5}`), "claim"))
	// Output:
	// 1:10: rate: malformed JSON: NaN and Infinity are not JSON numbers
	// <nil>
}

// Decode maps a text onto a struct by its json tags, exactly: a key in
// another case is no member, and the error says where it is.
func ExampleDecode() {
	var claim struct {
		Passed int64   `json:"passed"`
		Trials int64   `json:"trials"`
		Rate   float64 `json:"rate"`
	}
	fmt.Println(jsonscan.Decode([]byte(`{"passed": 57, "trials": 60, "rate": 0.95}`), "claim", &claim), claim)
	fmt.Println(jsonscan.Decode([]byte(`{"passed": 57,
 "Trials": 60}`), "claim", &claim))
	// Output:
	// <nil> {57 60 0.95}
	// 2:2: unknown field "Trials"
}
