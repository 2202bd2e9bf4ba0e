package testfile

import (
	"os"
	"path/filepath"
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
