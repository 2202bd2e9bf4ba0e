package report

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Every line of the real go test -json samples takes the fast path and
// decodes as encoding/json decodes it.
func TestScanGoTestEventSamples(t *testing.T) {
	files, _ := filepath.Glob("testdata/reports/gotest/*.json")
	lines := 0
	for _, path := range files {
		if strings.Contains(path, "utf16") {
			continue // the UTF-16 sample is the same stream as multi_buildfail.json
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, MaxGoTestLineBytes)
		for sc.Scan() {
			lines++
			got, ok := scanGoTestEvent(sc.Bytes())
			var want goTestEvent
			if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			if !ok || got != want {
				t.Errorf("%s: %q: fast %v %+v, want %+v", path, sc.Text(), ok, got, want)
			}
		}
		f.Close()
	}
	if lines < 100 {
		t.Fatalf("only %d lines", lines)
	}
}

// FuzzScanGoTestEvent: whenever the fast scanner accepts a line,
// encoding/json accepts it too and decodes the same fields.
func FuzzScanGoTestEvent(f *testing.F) {
	for _, s := range []string{
		`{"Time":"2026-12-01T20:20:01.78Z","Action":"pass","Package":"p","Test":"T","Elapsed":0}`,
		`{"Action":"output","Output":"a\"b\n"}`,
		`{"action":"pass"}`,
		`{"Action":null,"X":[1,{"y":-0.5e+3},true,false,null],"Test":"T"}`,
		`{"Action":"run","Action":"pass"}`,
		`{"Action":7}`,
		`{}`, ` { } `, `{"A":01}`, `{"A":1.}`, `{"A":"\u00e9"}`, `{"Test":"\ud800"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // the reader rejects invalid UTF-8 before either decoder
		}
		got, ok := scanGoTestEvent([]byte(s))
		if !ok {
			return
		}
		var want goTestEvent
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("fast path accepted %q, encoding/json: %v", s, err)
		}
		if got != want {
			t.Fatalf("%q: fast %+v, encoding/json %+v", s, got, want)
		}
	})
}
