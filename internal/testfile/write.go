package testfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes files (slash-separated paths below dir, and their text)
// under dir, making the folders on the way; a file that cannot be written
// fails t and stops there.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
