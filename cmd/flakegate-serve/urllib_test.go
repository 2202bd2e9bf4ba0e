//go:build integration

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

// sendWithURLLib posts the file at path to url with Python's urllib, which
// sends the whole body before it reads a byte of the answer, and returns
// what the script prints: the status and the problem's detail, or the
// exception that ended it (a connection reset, a broken pipe).
const sendWithURLLib = `
import json, sys, urllib.error, urllib.request
url, path = sys.argv[1], sys.argv[2]
with open(path, "rb") as f:
    data = f.read()
req = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "text/csv"})
try:
    with urllib.request.urlopen(req, timeout=300) as resp:
        print(resp.status)
except urllib.error.HTTPError as e:
    print(e.code, e.headers.get("Content-Type"), json.loads(e.read())["detail"])
`

// TestURLLibGetsEarlyAnswers: the real local server answers Python's
// urllib (python3, as a user runs it) with the 413 of a declared length
// over the limit and the 400 of a large upload wrong at its first line,
// where it used to close the connection and urllib saw a reset.
func TestURLLibGetsEarlyAnswers(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to send as urllib does: %v", err)
	}
	base := startServer(t, t.TempDir())
	dir := t.TempDir()
	script := filepath.Join(dir, "send.py")
	if err := os.WriteFile(script, []byte(sendWithURLLib), 0o644); err != nil {
		t.Fatal(err)
	}
	over := apitest.Oversize(api.DefaultMaxBodyBytes + 8<<20)
	wrongFirstLine := append([]byte("nonsense header\n"), over[:30<<20]...)
	for _, tc := range []struct {
		name string
		body []byte
		want string
	}{
		{"declared-over-limit", over, "413 application/problem+json the request body is over this server's limit of 32 MiB"},
		{"wrong-first-line", wrongFirstLine, "400 application/problem+json baseline:1:1:"},
	} {
		path := filepath.Join(dir, tc.name+".csv")
		if err := os.WriteFile(path, tc.body, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(python, script, base+"/v1/aa", path).CombinedOutput()
		got := strings.TrimSpace(string(out))
		t.Logf("%s (%d bytes): %s", tc.name, len(tc.body), got)
		if err != nil || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: urllib got %q (%v), want %q...", tc.name, got, err, tc.want)
		}
	}
}
