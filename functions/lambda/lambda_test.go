//go:build integration

package main

import (
	"bytes"
	"net/http"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/functions/lambda/lambdatest"
)

const (
	root      = "../.."
	corpusDir = "../api/testdata"
)

// startEmulator builds bootstrap and runs it under the emulator until the
// test ends (lambdatest.Start).
func startEmulator(t *testing.T, env ...string) (base string, logs *apitest.Output) {
	t.Helper()
	e, err := lambdatest.Start(root, t.TempDir(), env...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Stop)
	t.Logf("bootstrap (linux/%s, -s -w): %d bytes", runtime.GOARCH, e.Bootstrap)
	return e.URL, e.Logs
}

// event is the case as a Function URL event (lambdatest.Event).
func event(t *testing.T, c apitest.Case, forceBase64 bool) []byte {
	t.Helper()
	ev, err := lambdatest.Event(c, corpusDir, api.LambdaMaxBodyBytes, forceBase64)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// invoke sends an event and returns the compared part of the answer.
func invoke(t *testing.T, name, base string, ev []byte) apitest.Response {
	t.Helper()
	status, hdr, body, err := lambdatest.Invoke(http.DefaultClient, base, ev)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return apitest.Response{Status: status, Header: apitest.Pick(hdr), Body: body}
}

// TestLambdaCorpus runs the real bootstrap under the emulator and sends the
// whole corpus as Function URL events; each answer must equal the
// in-process handler's (with Lambda's options) byte for byte. Text uploads
// are then sent again base64-encoded, as Lambda sends binary bodies.
func TestLambdaCorpus(t *testing.T) {
	base, logs := startEmulator(t)
	cases, err := apitest.Load(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(api.LambdaOptions())
	sentBase64 := 0
	for _, c := range cases {
		want, err := apitest.InProcess(h, c, corpusDir, api.LambdaMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		if c.Method == http.MethodHead {
			want.Body = nil // no body in process; lambdaurl streams none either
		}
		for _, b64 := range []bool{false, true} {
			if b64 && (c.Method != http.MethodPost || c.Oversize) {
				continue
			}
			ev := event(t, c, b64)
			if bytes.Contains(ev, []byte(`"isBase64Encoded":true`)) {
				sentBase64++
			}
			got := invoke(t, c.Name, base, ev)
			if c.Method == http.MethodHead && len(got.Body) == 0 {
				got.Body = nil
			}
			if d := apitest.Diff(want, got); d != "" {
				t.Errorf("%s (base64 %v): %s", c.Name, b64, d)
			}
		}
	}
	if sentBase64 < 10 {
		t.Errorf("only %d base64-encoded events sent", sentBase64)
	}
	// The emulator reports the cold start once.
	out := logs.String()
	if m := regexp.MustCompile(`INIT REPORT\(durationMs: ([0-9.]+)\)`).FindStringSubmatch(out); m != nil {
		t.Logf("cold start under the emulator: INIT REPORT %s ms", m[1])
	} else {
		t.Errorf("no INIT REPORT in the emulator's log")
	}
	if m := regexp.MustCompile(`Init Duration: ([0-9.]+) ms`).FindStringSubmatch(out); m != nil {
		t.Logf("first REPORT line: Init Duration %s ms", m[1])
	}
	if strings.Contains(out, "panic") {
		t.Errorf("the function panicked:\n%s", out)
	}
}
