package testfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRead: the bytes written are the bytes read back.
func TestRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.txt")
	want := "two lines\nof text\n"
	if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := string(Read(t, path)); got != want {
		t.Errorf("Read = %q, want %q", got, want)
	}
}

// recorder is a testing.TB that keeps the errors reported to it.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestGolden: -update writes the golden file, the same bytes then pass,
// and other bytes fail naming the file.
func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.golden")
	r := &recorder{TB: t}
	Golden(r, path, []byte("first\n"), true)
	if got := string(Read(t, path)); got != "first\n" || len(r.errs) != 0 {
		t.Fatalf("with update: the file holds %q, errors %q", got, r.errs)
	}
	Golden(r, path, []byte("first\n"), false)
	if len(r.errs) != 0 {
		t.Errorf("the same bytes fail: %q", r.errs)
	}
	Golden(r, path, []byte("second\n"), false)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], path) {
		t.Errorf("other bytes: errors %q, want one naming %s", r.errs, path)
	}
	if got := string(Read(t, path)); got != "first\n" {
		t.Errorf("without update the file was rewritten: %q", got)
	}
}

// TestWrite: each file is written below the folder, folders made on the
// way, and reads back as written.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"index.html": "home", "web/app.wasm": "\x00asm", "a/b/c.txt": ""}
	Write(t, dir, files)
	for name, want := range files {
		if got := string(Read(t, filepath.Join(dir, filepath.FromSlash(name)))); got != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
	}
}
