// Package testfile reads the files tests compare against (testdata,
// goldens, documents): a file a test cannot read fails that test. It is
// imported by tests only, of every layer; it imports nothing of ours.
package testfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// Rows is the lines of the text file at path, each split into its fields
// at sep ("" splits at runs of white space, as strings.Fields does),
// without the lines that are blank or start with "#". A line of other than
// n fields fails t and stops there; n < 0 takes any number.
func Rows(t testing.TB, path, sep string, n int) [][]string {
	t.Helper()
	var rows [][]string
	for i, line := range strings.Split(string(Read(t, path)), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if sep != "" {
			fs = strings.Split(strings.TrimSuffix(line, "\r"), sep)
		}
		if n >= 0 && len(fs) != n {
			t.Fatalf("%s:%d: %d fields, want %d: %q", path, i+1, len(fs), n, line)
		}
		rows = append(rows, fs)
	}
	return rows
}

// Counts reads a file of counts (a sample's .expect): per line a name, its
// passes and its trials, separated by tabs. It is name -> {passes, trials}.
func Counts(t testing.TB, path string) map[string][2]int64 {
	t.Helper()
	out := map[string][2]int64{}
	for _, fs := range Rows(t, path, "\t", 3) {
		var c [2]int64
		for i, s := range fs[1:] {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("%s: %s of %s: %v", path, []string{"passes", "trials"}[i], fs[0], err)
			}
			c[i] = v
		}
		out[fs[0]] = c
	}
	return out
}

// Golden holds got to the golden file at path: where they differ, t fails
// and shows got. With update it writes got there instead, making the
// folder when needed; flagName is the test flag that sets update, named
// in the message when the file is missing.
func Golden(t testing.TB, path string, got []byte, update bool, flagName string) {
	t.Helper()
	if update {
		err := os.MkdirAll(filepath.Dir(path), 0o755)
		if err == nil {
			err = os.WriteFile(path, got, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run '%s' %s to write it)", err, t.Name(), flagName)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output:\n%s", path, got)
	}
}
