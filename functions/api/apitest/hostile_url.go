package apitest

import (
	"io"
	"net"
	"net/url"
	"testing"
	"time"
)

// RunRawHostileAt is RunRawHostile on fresh TCP connections (10 s to
// connect) to the server at the base URL base ("http://127.0.0.1:8787").
func RunRawHostileAt(t *testing.T, runtime, base string, cases []RawHostile, again ...RawAgain) {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	RunRawHostile(t, runtime, u.Host, cases, func() (io.ReadWriteCloser, error) {
		return net.DialTimeout("tcp", u.Host, 10*time.Second)
	}, again...)
}
