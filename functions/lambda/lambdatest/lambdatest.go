// Package lambdatest runs the Lambda bootstrap under the AWS Lambda Runtime
// Interface Emulator and talks to it as a Function URL would: requests
// become events, streamed answers become responses. The Lambda tests and
// the limits benchmark use it.
package lambdatest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"

	"github.com/flakegate/flakegate/functions/api/apitest"
)

const invokeURL = "/2015-03-31/functions/function/invocations"

// Emulator is the bootstrap running under aws-lambda-rie.
type Emulator struct {
	URL       string          // http://127.0.0.1:port, the emulator's invoke endpoint's base
	Logs      *apitest.Output // the emulator's and the function's output
	Bootstrap int64           // the binary's size in bytes
	cmd       *exec.Cmd
}

// Start builds bootstrap from the module under root for this machine (as
// `make lambda` does for arm64) into dir, and runs it under the emulator
// (StartBinary).
func Start(root, dir string, env ...string) (*Emulator, error) {
	bootstrap := filepath.Join(dir, "bootstrap")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-tags", "lambda.norpc", "-o", bootstrap, "./functions/lambda")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH, "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building bootstrap: %v\n%s", err, out)
	}
	return StartBinary(root, bootstrap, env...)
}

// StartBinary runs the built bootstrap under the emulator installed at
// root/bin/tools/aws-lambda-rie on a free loopback port, in bootstrap's
// directory, with env (KEY=value: AWS_LAMBDA_FUNCTION_TIMEOUT=1 for a
// one-second timeout) added to its environment. It returns once the
// emulator listens.
func StartBinary(root, bootstrap string, env ...string) (*Emulator, error) {
	rie, err := filepath.Abs(filepath.Join(root, "bin", "tools", "aws-lambda-rie"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(rie); err != nil {
		return nil, fmt.Errorf("aws-lambda-rie is not installed at %s: run `make tools-functions` (or `make rie`)", rie)
	}
	e := &Emulator{Logs: &apitest.Output{}}
	if st, err := os.Stat(bootstrap); err == nil {
		e.Bootstrap = st.Size()
	}
	// Both of the emulator's ports are free ones: the invocations' and the
	// Runtime API's, which the function polls. The Runtime API's default,
	// 127.0.0.1:9001, is taken by any other emulator on the machine (another
	// checkout's tests), and the function then talks to
	// that one: every invocation here was refused.
	port, err := apitest.Port()
	if err != nil {
		return nil, err
	}
	apiPort, err := apitest.Port()
	if err != nil {
		return nil, err
	}
	e.cmd = exec.Command(rie, "--runtime-interface-emulator-address", fmt.Sprintf("127.0.0.1:%d", port),
		"--runtime-api-address", fmt.Sprintf("127.0.0.1:%d", apiPort), bootstrap)
	e.cmd.Dir = filepath.Dir(bootstrap)
	e.cmd.Stdout, e.cmd.Stderr = e.Logs, e.Logs
	e.cmd.Env = append(append(os.Environ(), "AWS_LAMBDA_FUNCTION_NAME=flakegate", "AWS_REGION=us-east-1"), env...)
	if err := e.cmd.Start(); err != nil {
		return nil, err
	}
	e.URL = fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return e, nil
		}
		if time.Now().After(deadline) {
			e.Stop()
			return nil, fmt.Errorf("the emulator did not listen within 20s: %s", e.Logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Pid is the emulator's process id; the function runs as its child.
func (e *Emulator) Pid() int { return e.cmd.Process.Pid }

// Stop ends the emulator and the function.
func (e *Emulator) Stop() {
	e.cmd.Process.Kill()
	e.cmd.Wait()
}

// Event turns a case into the event a Function URL would send: headers
// lower-cased, and binary or multipart bodies (or all of them, with
// forceBase64) base64-encoded, as Lambda does. dir holds the case's files;
// limit is the body limit an Oversize case goes past.
func Event(c apitest.Case, dir string, limit int64, forceBase64 bool) ([]byte, error) {
	body, implied, err := c.Payload(dir, limit)
	if err != nil {
		return nil, err
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
	return json.Marshal(ev)
}

// Invoke posts an event and splits the streamed answer: a JSON prelude with
// status and headers, eight NUL bytes, then the body.
func Invoke(client *http.Client, base string, ev []byte) (status int, hdr http.Header, body []byte, err error) {
	resp, err := client.Post(base+invokeURL, "application/json", bytes.NewReader(ev))
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	prelude, body, ok := bytes.Cut(raw, make([]byte, 8))
	if !ok {
		return 0, nil, nil, fmt.Errorf("no 8-NUL separator in the answer (HTTP %d): %q", resp.StatusCode, clip(raw))
	}
	var p struct {
		StatusCode int               `json:"statusCode"`
		Headers    map[string]string `json:"headers"`
	}
	if err := json.Unmarshal(prelude, &p); err != nil {
		return 0, nil, nil, fmt.Errorf("prelude %q: %v", clip(prelude), err)
	}
	if p.StatusCode == 0 {
		return 0, nil, nil, errors.New("the prelude has no status")
	}
	hdr = http.Header{}
	for k, v := range p.Headers {
		hdr.Set(k, v)
	}
	return p.StatusCode, hdr, body, nil
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
