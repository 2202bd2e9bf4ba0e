package api

import (
	"bytes"
	"encoding/json"
	"log"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/api/apitest"
)

// fuzzCheck serves one request and fails on anything but a 2xx with JSON or
// a 4xx problem: no panic (the recoverer would log one and answer 500), no
// 500, no body that is not JSON.
func fuzzCheck(t *testing.T, method, target, contentType string, body []byte) {
	var logs bytes.Buffer
	h := New(Options{MaxBodyBytes: 1 << 16, Log: log.New(&logs, "", 0)})
	r := httptest.NewRequest(method, "/", bytes.NewReader(body))
	r.URL.RawQuery = ""
	if path, q, ok := strings.Cut(target, "?"); ok {
		r.URL.Path, r.URL.RawQuery = path, q
	} else {
		r.URL.Path = target
	}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code >= 500 || logs.Len() > 0 {
		t.Fatalf("%s %s (%q, %q): status %d, log %q, body %s", method, target, contentType, body, w.Code, logs.String(), w.Body)
	}
	if w.Code != 204 && !json.Valid(w.Body.Bytes()) {
		t.Fatalf("%s %s: body is not JSON: %q", method, target, w.Body)
	}
	if w.Code >= 400 {
		var p problem
		if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || p.Status != w.Code || p.Detail == "" {
			t.Fatalf("%s %s: status %d with problem %s", method, target, w.Code, w.Body)
		}
	}
}

var paramRoutes = []string{"/v1/budget", "/v1/decide", "/v1/size", "/v1/freeze", "/v1/aa", "/v1/ledger", "/v1/health"}

// FuzzQuery decodes arbitrary query strings on every route.
func FuzzQuery(f *testing.F) {
	for _, c := range loadCorpus(f) {
		if _, q, ok := strings.Cut(c.URL, "?"); ok {
			f.Add(uint8(0), q)
		}
	}
	f.Add(uint8(1), "baseline=10/20&patched=17%2F20&min_trials=99999999999999999999")
	f.Add(uint8(2), "baseline=1e308&patched=-0")
	f.Add(uint8(3), "claim=1/1&date=2026-02-30&comparable=1e-320")
	f.Add(uint8(0), "observe=%20%201%20/%20120%20&rates=,")
	f.Fuzz(func(t *testing.T, route uint8, q string) {
		fuzzCheck(t, "GET", paramRoutes[int(route)%len(paramRoutes)]+"?"+q, "", nil)
	})
}

// FuzzJSONBody decodes arbitrary JSON (and form) bodies on the parameter
// routes.
func FuzzJSONBody(f *testing.F) {
	for _, c := range loadCorpus(f) {
		if c.Body != "" {
			f.Add(uint8(0), false, c.Body)
		}
	}
	f.Add(uint8(1), false, `{"baseline": {"passed": 1e3, "trials": 20}, "patched": {"passed": -1, "trials": 2}}`)
	f.Add(uint8(2), false, `{"baseline": 1e400, "patched": 0.5}`)
	f.Add(uint8(3), false, `{"claim": {"passed": 9223372036854775807, "trials": 9223372036854775807}, "newer": "1/1"}`)
	f.Add(uint8(0), false, `{"rates": [0.5, null], "cap": -0}`)
	f.Add(uint8(0), true, "rates=0.5&cap=3&observe=1/2")
	f.Fuzz(func(t *testing.T, route uint8, form bool, body string) {
		ct := "application/json"
		if form {
			ct = "application/x-www-form-urlencoded"
		}
		fuzzCheck(t, "POST", paramRoutes[int(route)%4], ct, []byte(body))
	})
}

// FuzzMultipart decodes arbitrary multipart bodies (with the corpus's
// boundary) on the upload routes.
func FuzzMultipart(f *testing.F) {
	for _, c := range loadCorpus(f) {
		if c.Parts != nil {
			body, _, err := c.Payload("testdata", 1<<16)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uploadRoute(c.URL), body)
		}
	}
	f.Add(uint8(0), []byte("--"+apitest.Boundary+"\r\nContent-Disposition: form-data; name=\"baseline\"\r\n\r\nscenario,run,passed\r\na,1,1\r\na,2,0\r\n--"+apitest.Boundary+"--\r\n"))
	f.Add(uint8(1), []byte("--"+apitest.Boundary+"\r\nContent-Disposition: form-data; name=\"ledger\"; filename=\"x\"\r\n\r\n{}\r\n--"+apitest.Boundary+"--\r\n"))
	f.Add(uint8(2), []byte("--"+apitest.Boundary+"\r\nContent-Disposition: form-data; name=\"report\"\r\n\r\n<testsuite><testcase name=\"a\"/></testsuite>\r\n--"+apitest.Boundary+"--\r\n"))
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		fuzzCheck(t, "POST", uploadRoutes[int(route)%len(uploadRoutes)], "multipart/form-data; boundary="+apitest.Boundary, body)
	})
}

// FuzzUpload sends arbitrary CSV and JSONL bodies.
func FuzzUpload(f *testing.F) {
	for _, c := range loadCorpus(f) {
		if c.BodyFile != "" {
			body, _, err := c.Payload("testdata", 1<<16)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(strings.Contains(c.URL, "ledger"), body)
		}
	}
	f.Add(false, []byte("scenario,run,passed\n\"a\"\"b\",1,1\na\"b,2,0\n"))
	f.Add(true, []byte("{\"run\":1}\n\xff\n"))
	f.Fuzz(func(t *testing.T, ledger bool, body []byte) {
		route, ct := "/v1/aa", "text/csv"
		if ledger {
			route, ct = "/v1/ledger", "application/x-ndjson"
		}
		fuzzCheck(t, "POST", route, ct, body)
	})
}

var uploadRoutes = []string{"/v1/aa", "/v1/ledger", "/v1/flakes", "/v1/aa?format=auto"}

// uploadRoute is the index in uploadRoutes of a corpus URL's route.
func uploadRoute(url string) uint8 {
	switch {
	case strings.HasPrefix(url, "/v1/ledger"):
		return 1
	case strings.HasPrefix(url, "/v1/flakes"):
		return 2
	case strings.Contains(url, "format="):
		return 3
	}
	return 0
}
