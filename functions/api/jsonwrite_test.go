package api

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/testfile"
)

// The expected bytes come from core.WriteJSON, i.e. encoding/json's own
// Encoder with SetIndent, which the API's contract names.

func wantJSON(t testing.TB, v any) ([]byte, error) {
	t.Helper()
	var b bytes.Buffer
	err := core.WriteJSON(&b, v)
	return b.Bytes(), err
}

func checkAppendJSON(t testing.TB, name string, v any) {
	t.Helper()
	want, werr := wantJSON(t, v)
	got, gerr := appendJSON([]byte("kept"), v)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%s: error %v, core.WriteJSON's %v", name, gerr, werr)
	}
	if werr != nil {
		return
	}
	if !bytes.HasPrefix(got, []byte("kept")) || !bytes.Equal(got[4:], want) {
		t.Fatalf("%s: appendJSON wrote\n%s\ncore.WriteJSON\n%s", name, got, want)
	}
}

// TestAppendJSON: the same bytes as core.WriteJSON for every JSON file the
// repository's tests hold (as raw messages, so their key order and string
// escapes stay), for the answers of several routes, and for the edges:
// empty and nested brackets, escapes, HTML characters, deep nesting, a bare
// number, and a value encoding/json refuses.
func TestAppendJSON(t *testing.T) {
	files, _ := filepath.Glob("../../*/*/testdata/*.json")
	more, _ := filepath.Glob("../../*/*/testdata/*/*.json")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("only %d JSON files found", len(files))
	}
	for _, f := range files {
		b := testfile.Read(t, f)
		if json.Valid(b) {
			checkAppendJSON(t, f, json.RawMessage(b))
		}
	}
	deep := strings.Repeat(`{"a":[`, 50) + `1,{},[],"x"` + strings.Repeat(`]}`, 50)
	for i, s := range []string{
		`{}`, `[]`, `[[],{},[{}],{"a":{}}]`, `{"a":[],"b":{},"c":[1,2,{"d":[]}]}`,
		`"a\"b\\"`, `["\\",",",":","{","[","]","}","\"{"]`, `{"k\"":"v\\\"","<&>":"é\u2028"}`,
		`-1.5e-7`, `true`, `null`, `[null,false,0]`, deep,
	} {
		if !json.Valid([]byte(s)) {
			t.Fatalf("case %d is not JSON: %s", i, s)
		}
		checkAppendJSON(t, s, json.RawMessage(s))
	}
	checkAppendJSON(t, "a struct with HTML", struct {
		A string   `json:"a"`
		B []int    `json:"b"`
		C []string `json:"c"`
		D *int     `json:"d"`
	}{A: "<a href=\"x\">&</a>", B: []int{}})
	checkAppendJSON(t, "NaN", math.NaN())
}

// FuzzAppendJSON: for any valid JSON, appendJSON of it as a raw message
// is core.WriteJSON's bytes.
func FuzzAppendJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[1,{"a":[]}]`, `"\"\\"`, `{"a":{"b":[{},[]]}}`, ` [ 1 , 2 ] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if json.Valid(b) {
			checkAppendJSON(t, string(b), json.RawMessage(b))
		}
	})
}

// BenchmarkAppendJSON: the answer to the A/A upload of the tests, written
// by appendJSON and by core.WriteJSON (its peer).
func BenchmarkAppendJSON(b *testing.B) {
	csv, err := os.ReadFile("testdata/aa_baseline.csv")
	if err != nil {
		b.Fatal(err)
	}
	rec := serve(New(LocalOptions()), "POST", "/v1/aa", "text/csv", string(csv))
	if rec.Code != 200 {
		b.Fatal(rec.Code, rec.Body)
	}
	v := json.RawMessage(rec.Body.Bytes())
	b.Run("appendJSON", func(b *testing.B) {
		var dst []byte
		for b.Loop() {
			dst, _ = appendJSON(dst[:0], v)
		}
	})
	b.Run("core.WriteJSON", func(b *testing.B) {
		for b.Loop() {
			var buf bytes.Buffer
			core.WriteJSON(&buf, v)
		}
	})
}
