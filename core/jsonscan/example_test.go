package jsonscan_test

import (
	"fmt"

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
