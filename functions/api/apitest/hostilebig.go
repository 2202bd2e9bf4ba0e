package apitest

import (
	"bufio"
	"fmt"
)

// Large reports under the local server's and the Worker's 32 MiB body
// limit, for the memory the hostile suite records: 30 MB of Playwright
// JSON and of go test -json, each of a few thousand tests retried many
// times, so that they fit the ledger's cells and are read to the end.

// bigBytes is the size of the large hostile reports.
const bigBytes = 30_000_000

// bigPlaywright writes a Playwright JSON report of bigBytes: 100 spec files
// of 40 tests in two projects, repeated (each repeat more attempts of the
// same tests); tests 0 and 29 of each file fail their first attempt.
func bigPlaywright() func(w *bufio.Writer) {
	return func(w *bufio.Writer) {
		n, _ := w.WriteString(`{"config": {"rootDir": "/home/user/project"}, "suites": [`)
		for i := 0; n < bigBytes; i++ {
			k, _ := fmt.Fprintf(w, `{"title": "spec%03d.spec.js", "specs": [`, i%100)
			n += k
			for t := range 40 {
				results := `{"status": "passed", "retry": 0, "stdout": [{"text": "navigated to /checkout in 120 ms\n"}], "errors": []}`
				if t%29 == 0 {
					results = `{"status": "failed", "retry": 0, "errors": [{"message": "Error: expect(received).toBe(expected)"}]}, ` + results
				}
				for p, project := range []string{"chromium", "firefox"} {
					sep := ","
					if t == 0 && p == 0 {
						sep = ""
					}
					k, _ := fmt.Fprintf(w, `%s{"title": "does thing %d", "tests": [{"expectedStatus": "passed", "projectName": %q, "results": [%s]}]}`, sep, t, project, results)
					n += k
				}
			}
			k, _ = w.WriteString(`]},`)
			n += k
		}
		w.WriteString(`{"title": "last.spec.js", "specs": []}], "errors": []}` + "\n")
	}
}

// bigGoTest writes bigBytes of go test -json: 50 packages of 40 tests, each
// a run, an output line and a pass (a fail one time in 37), repeated.
func bigGoTest() func(w *bufio.Writer) {
	return func(w *bufio.Writer) {
		for i, n := 0, 0; n < bigBytes; i++ {
			action := "pass"
			if i%37 == 0 {
				action = "fail"
			}
			pkg, test := i/40%50, i%40
			k, _ := fmt.Fprintf(w, `{"Action":"run","Package":"example.com/big/pkg%02d","Test":"Test%03d"}
{"Action":"output","Package":"example.com/big/pkg%02d","Test":"Test%03d","Output":"    big_test.go:12: checked %d cases\n"}
{"Action":"%s","Package":"example.com/big/pkg%02d","Test":"Test%03d","Elapsed":0.01}
`, pkg, test, pkg, test, i, action, pkg, test)
			n += k
		}
	}
}
