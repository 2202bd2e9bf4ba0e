package quarantine

import (
	"bytes"
	"errors"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/testfile"
)

// FuzzParse: any bytes either read as a registry that Validate accepts and
// that writes, reads and writes again to the same bytes, or give a
// *core.Error with a line and column (or, past a limit, TooLarge). Never a
// panic, never another error.
func FuzzParse(f *testing.F) {
	valid := testfile.Read(f, "testdata/registry.json")
	f.Add(valid)
	f.Add([]byte(`{"version": 1, "tests": []}`))
	f.Add([]byte(`{"version": 2, "tests": []}`))
	f.Add([]byte(`{"version": 1, "tests": [{"test": "a", "owner": "b"}]}`))
	f.Add([]byte(`[1, 2.5e3, -0, "\u00e9\ud83d\ude00", true, false, null]`))
	f.Add([]byte("\xef\xbb\xbf{\"version\": 1,\r\n\"tests\": []}"))
	f.Add(bytes.Replace(valid, []byte(`"lower": 0.6395811352592431`), []byte(`"lower": 0.6`), 1))
	f.Add(bytes.Replace(valid, []byte(`"tests": [`), []byte(`"counted": [{"run": "b0", "date": "2026-11-24"}, {"run": "a1", "date": "2026-11-23"}], "tests": [`), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		reg, err := Parse(data, today)
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) {
				t.Fatalf("%T is not a *core.Error: %v", err, err)
			}
			if e.Kind != core.TooLarge && (e.Line < 1 || e.Column < 1) {
				t.Fatalf("no position: %v", err)
			}
			return
		}
		if err := Validate(reg, today); err != nil {
			t.Fatalf("read, then refused: %v", err)
		}
		var once, twice bytes.Buffer
		if err := Write(&once, reg); err != nil {
			t.Fatal(err)
		}
		again, err := Parse(once.Bytes(), today)
		if err != nil {
			t.Fatalf("written, then refused: %v\n%s", err, once.Bytes())
		}
		if err := Write(&twice, again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(once.Bytes(), twice.Bytes()) {
			t.Fatalf("not stable:\n%s\n---\n%s", once.Bytes(), twice.Bytes())
		}
	})
}
