package testfile

import (
	"bytes"
	"os"
	"testing"
)

// Golden holds got to the golden file at path: with update (the test's
// -update flag) it first writes got there. A golden file that differs, or
// that cannot be read, fails t and names the file.
func Golden(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want := Read(t, path); !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file %s (go test -update rewrites it; read the diff):\n%s", t.Name(), path, got)
	}
}
