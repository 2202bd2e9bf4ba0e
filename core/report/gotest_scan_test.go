package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// stdEvent decodes a line with encoding/json, the reference, matching
// keys exactly as test2json writes them (encoding/json alone would take
// "action" for "Action"; the scanner takes only the key test2json writes).
func stdEvent(line []byte) (goTestEvent, error) {
	var m map[string]*string
	var kinds map[string]json.RawMessage
	if err := json.Unmarshal(line, &kinds); err != nil {
		return goTestEvent{}, err
	}
	kept := map[string]json.RawMessage{}
	for _, k := range []string{"Action", "Package", "Test", "ImportPath", "FailedBuild"} {
		if v, ok := kinds[k]; ok {
			kept[k] = v
		}
	}
	raw, _ := json.Marshal(kept)
	if err := json.Unmarshal(raw, &m); err != nil {
		return goTestEvent{}, err
	}
	get := func(k string) string {
		if m[k] == nil {
			return ""
		}
		return *m[k]
	}
	return goTestEvent{Action: get("Action"), Package: get("Package"), Test: get("Test"), ImportPath: get("ImportPath"), FailedBuild: get("FailedBuild")}, nil
}

// Every line of the real go test -json samples decodes as encoding/json
// decodes it.
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
		var g goTestScanner
		for sc.Scan() {
			lines++
			got, err := g.event(sc.Bytes(), lines)
			want, err2 := stdEvent(sc.Bytes())
			if err2 != nil {
				t.Fatal(err2)
			}
			if err != nil || got != want {
				t.Errorf("%s: %q: %v %+v, want %+v", path, sc.Text(), err, got, want)
			}
		}
		f.Close()
	}
	if lines < 100 {
		t.Fatalf("only %d lines", lines)
	}
}

// FuzzScanGoTestEvent: whenever the scanner accepts a line, encoding/json
// accepts it too and decodes the same fields; whenever it refuses one, its
// error is the reader's, with a line and a column.
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
		var g goTestScanner
		got, err := g.event([]byte(s), 1)
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) || e.Line < 1 || e.Column < 1 || e.Kind != core.Invalid {
				t.Fatalf("%q: error %#v", s, err)
			}
			return
		}
		want, err := stdEvent([]byte(s))
		if err != nil {
			t.Fatalf("accepted %q, encoding/json: %v", s, err)
		}
		if got != want {
			t.Fatalf("%q: scanned %+v, encoding/json %+v", s, got, want)
		}
	})
}
