package testfile

import (
	"fmt"
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

// TestRows: comments and blank lines are skipped, fields split at the
// separator or at white space; Counts parses each line's two numbers.
func TestRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.tsv")
	text := "# a comment\nTestA\t3\t5\n\n  \nTestB/sub one\t0\t2\r\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%q", Rows(t, path, "\t", 3))
	if want := `[["TestA" "3" "5"] ["TestB/sub one" "0" "2"]]`; got != want {
		t.Errorf("Rows(tab, 3) = %s, want %s", got, want)
	}
	got = fmt.Sprintf("%q", Rows(t, path, "", -1))
	if want := `[["TestA" "3" "5"] ["TestB/sub" "one" "0" "2"]]`; got != want {
		t.Errorf("Rows(white space) = %s, want %s", got, want)
	}
	c := Counts(t, path)
	if len(c) != 2 || c["TestA"] != [2]int64{3, 5} || c["TestB/sub one"] != [2]int64{0, 2} {
		t.Errorf("Counts = %v", c)
	}
}

// TestGolden: with update the file is written, folder and all; without,
// the same bytes pass.
func TestGolden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "a.golden")
	Golden(t, path, []byte("{}\n"), true, "-update")
	if got := string(Read(t, path)); got != "{}\n" {
		t.Fatalf("update wrote %q", got)
	}
	Golden(t, path, []byte("{}\n"), false, "-update")
}
