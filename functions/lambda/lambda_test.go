//go:build integration

package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"

	"github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/functions/api/apitest"
)

const (
	root      = "../.."
	corpusDir = "../api/testdata"
	invokeURL = "/2015-03-31/functions/function/invocations"
)

// startEmulator builds bootstrap for this machine (as `make lambda` does for
// arm64) and runs it under the AWS Lambda Runtime Interface Emulator on a
// free loopback port.
func startEmulator(t *testing.T) (base string, logs *apitest.Output) {
	t.Helper()
	rie, err := filepath.Abs(filepath.Join(root, "bin", "tools", "aws-lambda-rie"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(rie); err != nil {
		t.Fatalf("aws-lambda-rie is not installed at %s: run `make tools-functions` (or `make rie`)", rie)
	}
	dir := t.TempDir()
	bootstrap := filepath.Join(dir, "bootstrap")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-tags", "lambda.norpc", "-o", bootstrap, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH, "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building bootstrap: %v\n%s", err, out)
	}
	if st, err := os.Stat(bootstrap); err == nil {
		t.Logf("bootstrap (linux/%s, -s -w): %d bytes", runtime.GOARCH, st.Size())
	}
	port := apitest.FreePort(t)
	logs = &apitest.Output{}
	cmd := exec.Command(rie, "--runtime-interface-emulator-address", fmt.Sprintf("127.0.0.1:%d", port), bootstrap)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logs, logs
	cmd.Env = append(os.Environ(), "AWS_LAMBDA_FUNCTION_NAME=flakegate", "AWS_REGION=us-east-1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	base = fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return base, logs
		}
		if time.Now().After(deadline) {
			t.Fatalf("the emulator did not listen within 20s: %s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// event turns a corpus case into the event a Function URL would send: the
// headers lower-cased, and binary or multipart bodies base64-encoded, as
// Lambda does.
func event(t *testing.T, c apitest.Case, forceBase64 bool) []byte {
	t.Helper()
	body, implied, err := c.Payload(corpusDir, api.LambdaMaxBodyBytes)
	if err != nil {
		t.Fatal(err)
	}
	hdr := c.Headers(implied)
	path, query, _ := strings.Cut(c.URL, "?")
	ev := events.LambdaFunctionURLRequest{
		Version:        "2.0",
		RawPath:        path,
		RawQueryString: query,
		Headers:        map[string]string{"host": "abc.lambda-url.us-east-1.on.aws"},
		RequestContext: events.LambdaFunctionURLRequestContext{
			DomainName: "abc.lambda-url.us-east-1.on.aws",
			HTTP: events.LambdaFunctionURLRequestContextHTTPDescription{
				Method: c.Method, Path: path, SourceIP: "127.0.0.1",
			},
		},
	}
	for k, v := range hdr {
		ev.Headers[strings.ToLower(k)] = strings.Join(v, ",")
	}
	if len(body) > 0 && !c.Chunked {
		ev.Headers["content-length"] = fmt.Sprint(len(body))
	}
	ct := hdr.Get("Content-Type")
	if forceBase64 || strings.HasPrefix(ct, "multipart/") || !utf8.Valid(body) {
		ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
	} else {
		ev.Body = string(body)
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// invoke posts an event and splits the streamed answer: a JSON prelude with
// status and headers, eight NUL bytes, then the body.
func invoke(t *testing.T, name, base string, ev []byte) apitest.Response {
	t.Helper()
	resp, err := http.Post(base+invokeURL, "application/json", bytes.NewReader(ev))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	prelude, body, ok := bytes.Cut(raw, make([]byte, 8))
	if !ok {
		t.Fatalf("%s: no 8-NUL separator in the answer (HTTP %d): %q", name, resp.StatusCode, clip(raw))
	}
	var p struct {
		StatusCode int               `json:"statusCode"`
		Headers    map[string]string `json:"headers"`
	}
	if err := json.Unmarshal(prelude, &p); err != nil {
		t.Fatalf("prelude %q: %v", prelude, err)
	}
	h := http.Header{}
	for k, v := range p.Headers {
		h.Set(k, v)
	}
	return apitest.Response{Status: p.StatusCode, Header: apitest.Pick(h), Body: body}
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
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
