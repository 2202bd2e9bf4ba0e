// Package testfile reads the files tests compare against (testdata,
// goldens, documents), and writes the small trees of files tests serve or
// read: a file a test cannot read or write fails that test. It is imported
// by tests only, of every layer; it imports nothing of ours.
package testfile

import (
	"os"
	"testing"
)

// Read is the bytes of the file at path; when it cannot be read, t fails
// and stops there.
func Read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
