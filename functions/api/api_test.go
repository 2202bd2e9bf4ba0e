package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/internal/testfile"
)

func serve(h http.Handler, method, target, contentType, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// loadCorpus is the corpus of requests (testdata), for tests and fuzz
// targets.
func loadCorpus(t testing.TB) []apitest.Case {
	t.Helper()
	cs, err := apitest.Load("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// corpusCases are the corpus's cases by name.
func corpusCases(t testing.TB) map[string]apitest.Case {
	cases := map[string]apitest.Case{}
	for _, c := range loadCorpus(t) {
		cases[c.Name] = c
	}
	return cases
}

// TestCorpus serves every request of the corpus in process and holds the
// status to the case and the whole answer to its golden file
// (testdata/golden/NAME.txt; rewrite with -update after checking the diff).
func TestCorpus(t *testing.T) {
	h := New(Options{})
	for _, c := range loadCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			got, err := apitest.InProcess(h, c, "testdata", DefaultMaxBodyBytes)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != c.Status {
				t.Errorf("status %d, want %d; body %s", got.Status, c.Status, got.Body)
			}
			if got.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("no CORS header on a %d", got.Status)
			}
			if got.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("no X-Content-Type-Options: nosniff on a %d", got.Status)
			}
			switch {
			case c.Method == http.MethodHead || got.Status == http.StatusNoContent:
				if len(got.Body) != 0 {
					t.Errorf("%s answered with a body of %d bytes", c.Method, len(got.Body))
				}
			case got.Status >= 400:
				checkProblem(t, got)
			default:
				if ct := got.Header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type %q", ct)
				}
				if !json.Valid(got.Body) {
					t.Errorf("invalid JSON body %q", got.Body)
				}
			}
			golden := filepath.Join("testdata", "golden", c.Name+".txt")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, got.Golden(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got.Golden(), want) {
				t.Errorf("answer differs from %s (check, then rewrite with -update): %s", golden, firstDiff(got.Golden(), want))
			}
		})
	}
}

// firstDiff names the first line where got and want part.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, gl, wl)
		}
	}
	return "no line differs"
}

func checkProblem(t *testing.T, got apitest.Response) {
	t.Helper()
	if ct := got.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	var p problem
	dec := json.NewDecoder(bytes.NewReader(got.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		t.Fatalf("problem body %q: %v", got.Body, err)
	}
	if p.Status != got.Status || p.Title != http.StatusText(got.Status) || p.Type != "about:blank" || p.Detail == "" {
		t.Errorf("problem %+v does not match status %d", p, got.Status)
	}
	if got.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("an error may be cached: Cache-Control %q", got.Header.Get("Cache-Control"))
	}
	if got.Status == 405 && got.Header.Get("Allow") == "" {
		t.Error("405 without Allow")
	}
	if len(got.Body) > 2000 {
		t.Errorf("a problem of %d bytes: echoed input must be clipped", len(got.Body))
	}
}

// TestProblemClipsEchoes: a problem quotes the input at fault, clipped; a
// 900 KB value gets an answer of a few hundred bytes, wherever it was sent.
func TestProblemClipsEchoes(t *testing.T) {
	h := New(Options{})
	long := strings.Repeat("x", 900_000)
	for _, w := range []*httptest.ResponseRecorder{
		serve(h, "POST", "/v1/decide", "application/json", `{"baseline":"10/20","patched":"17/20","property":"`+long+`"}`),
		serve(h, "GET", "/v1/decide?baseline=10/20&patched=17/20&property="+long, "", ""),
		serve(h, "GET", "/v1/budget?"+long+"=1", "", ""),
		serve(h, "GET", "/v1/freeze?claim=1/2&date="+long, "", ""),
		serve(h, "POST", "/v1/budget", "application/x-www-form-urlencoded", "rates="+long),
		serve(h, "POST", "/v1/aa", "text/csv", "scenario,run,passed\ns,r1,"+long+"\n"),
	} {
		if w.Code != 400 || w.Body.Len() > 1500 || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("status %d, %d bytes, nosniff %q: %.300s", w.Code, w.Body.Len(), w.Header().Get("X-Content-Type-Options"), w.Body)
		}
		var p problem
		if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || !strings.Contains(p.Detail, "xxxx") {
			t.Errorf("the detail does not quote the input at all: %v %q", err, p.Detail)
		}
	}
	if got := clipEchoes(`property: must be passed, got "` + strings.Repeat("é", 100) + `"`); !strings.HasSuffix(got, `…"`) || !utf8.ValidString(got) {
		t.Errorf("clipEchoes: %q", got)
	}
}

// TestCorpusCovers holds the corpus to its purpose: every route answered
// with success and with an error, and every status the API can give a
// client exercised.
func TestCorpusCovers(t *testing.T) {
	ok, bad, statuses := map[string]bool{}, map[string]bool{}, map[int]bool{}
	for _, c := range loadCorpus(t) {
		path, _, _ := strings.Cut(c.URL, "?")
		if c.Status < 300 {
			ok[path] = true
		} else {
			bad[path] = true
		}
		statuses[c.Status] = true
	}
	for p := range Routes() {
		if !ok[p] {
			t.Errorf("no successful request to %s in the corpus", p)
		}
		if !bad[p] {
			t.Errorf("no failing request to %s in the corpus", p)
		}
	}
	for _, s := range []int{200, 204, 400, 404, 405, 413, 415, 422} {
		if !statuses[s] {
			t.Errorf("no case answered %d", s)
		}
	}
}

// TestSameQuestionSameBytes: a question asked as a query, a JSON body or a
// form, or an upload sent as CSV or multipart, gets the same bytes.
func TestSameQuestionSameBytes(t *testing.T) {
	h := New(Options{})
	byName := corpusCases(t)
	for _, group := range [][]string{
		{"budget-get-worked-example", "budget-post-json", "budget-post-json-strings", "budget-post-form", "budget-get-cost-seconds-alias", "budget-post-json-gzip"},
		{"decide-get-no-change", "decide-post-json", "decide-post-json-bom"},
		{"aa-csv", "aa-multipart-baseline-only", "aa-csv-gzip"},
		{"aa-multipart", "aa-multipart-candidate-first"},
		{"ledger-jsonl", "ledger-multipart"},
	} {
		var first []byte
		for _, name := range group {
			got, err := apitest.InProcess(h, byName[name], "testdata", DefaultMaxBodyBytes)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != 200 {
				t.Fatalf("%s: status %d: %s", name, got.Status, got.Body)
			}
			if first == nil {
				first = got.Body
			} else if !bytes.Equal(first, got.Body) {
				t.Errorf("%s differs from %s:\n%s\n%s", name, group[0], got.Body, first)
			}
		}
	}
}

// TestBodyIsTheCoreContract: the API's body is core.WriteJSON of the core's
// result, byte for byte, as the CLI's -json prints it.
func TestBodyIsTheCoreContract(t *testing.T) {
	cost := 8.0
	in := gate.DefaultBudgetInput
	in.CostSeconds, in.Observed, in.Rates = &cost, &core.Count{Passed: 1, Trials: 120}, []float64{0.05, 0.02}
	res, err := gate.Budget(in)
	if err != nil {
		t.Fatal(err)
	}
	// The API adds the link of the calculator view on its own origin
	// (httptest's example.com), as a query link.
	res.Link = "http://example.com/?cap=3&confidence=0.95&cost=8&observe=1%2F120&rates=0.05%2C0.02&target=0.95&v=2"
	var want bytes.Buffer
	core.WriteJSON(&want, res)
	got := serve(New(Options{}), "GET", "/v1/budget?cost=8&cap=3&observe=1/120&rates=0.05,0.02", "", "")
	if !bytes.Equal(got.Body.Bytes(), want.Bytes()) {
		t.Errorf("API body\n%s\ncore.WriteJSON\n%s", got.Body, want.Bytes())
	}
	if cc := got.Header().Get("Cache-Control"); cc != cacheGET {
		t.Errorf("GET result Cache-Control %q, want %q", cc, cacheGET)
	}
}

// The API's check of the week's third night is the CLI's, byte for byte:
// flakegate quarantine check -json on the same registry and report wrote
// cmd/flakegate/testdata/quarantine/night3.json.
func TestQuarantineCheckIsTheCLIs(t *testing.T) {
	want := testfile.Read(t, "../../cmd/flakegate/testdata/quarantine/night3.json")
	c := corpusCases(t)["quarantine-check-reports"]
	// Without a link: the CLI's golden was made without -site.
	got, err := apitest.InProcess(New(Options{NoLinks: true}), c, "testdata", DefaultMaxBodyBytes)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != 200 || !bytes.Equal(got.Body, want) {
		t.Errorf("status %d; the body differs from the CLI's:\n%s", got.Status, got.Body)
	}
}

// TestVerifiedNumbers reads the figures docs/STATISTICS.md lists (the budget
// table, the Wilson intervals, the trials per arm) back out of the API's
// answers.
func TestVerifiedNumbers(t *testing.T) {
	h := New(Options{})
	var b gate.BudgetResult
	decode(t, serve(h, "GET", "/v1/budget?rates=0.05,0.02,0.01,0.005,0.001", "", ""), &b)
	wantReruns := []int64{59, 149, 299, 598, 2995}
	wantAtCap := []float64{0.143, 0.059, 0.030, 0.015, 0.003} // power at 3 reruns, to 0.1 points
	for i, row := range b.Rows {
		if row.Reruns == nil || *row.Reruns != wantReruns[i] {
			t.Errorf("rate %v: reruns %v, want %d", row.Rate, row.Reruns, wantReruns[i])
		}
		if math.Abs(row.PowerAtCap-wantAtCap[i]) > 0.0005 {
			t.Errorf("rate %v: power at cap %v, want %v ± 0.0005", row.Rate, row.PowerAtCap, wantAtCap[i])
		}
	}
	decode(t, serve(h, "GET", "/v1/budget?observe=1/120", "", ""), &b)
	if o := b.Observed; o == nil || math.Abs(o.Lower-0.00147) > 5e-6 || math.Abs(o.Upper-0.04570) > 5e-6 {
		t.Errorf("observed 1/120: %+v, want Wilson [0.00147, 0.04570] ± 5e-6", b.Observed)
	}
	var d gate.DecideResult
	decode(t, serve(h, "GET", "/v1/decide?baseline=10/20&patched=17/20", "", ""), &d)
	if math.Abs(d.Baseline.Lower-0.2993) > 5e-5 || math.Abs(d.Patched.Upper-0.9476) > 5e-5 || d.Verdict != core.VerdictNoChange {
		t.Errorf("decide 10/20 vs 17/20: %+v", d)
	}
	for _, tc := range []struct {
		q    string
		want int64
	}{{"baseline=0.5&patched=0.85", 28}, {"baseline=0.9&patched=0.95", 427}, {"baseline=0.5&patched=0.6", 381}} {
		var s gate.SizeResult
		decode(t, serve(h, "GET", "/v1/size?"+tc.q, "", ""), &s)
		if s.TrialsPerArm == nil || *s.TrialsPerArm != tc.want {
			t.Errorf("size %s: %v, want %d", tc.q, s.TrialsPerArm, tc.want)
		}
	}
}

func decode(t *testing.T, w *httptest.ResponseRecorder, v any) {
	t.Helper()
	if w.Code != 200 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
		t.Fatal(err)
	}
}

// TestRecover: a panic below the handler is a 500 problem+json, a log line,
// and a handler that keeps serving.
func TestRecover(t *testing.T) {
	var logs bytes.Buffer
	opt := Options{Log: log.New(&logs, "", 0)}
	boom := recoverer(opt, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Half-Done", "1")
		panic("boom in a calculator")
	}))
	w := serve(boom, "GET", "/v1/budget?rates=0.05", "", "")
	if w.Code != 500 || w.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("status %d, Content-Type %q", w.Code, w.Header().Get("Content-Type"))
	}
	if w.Header().Get("X-Half-Done") != "" || w.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("headers after a panic: %v", w.Header())
	}
	var p problem
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || p.Status != 500 || strings.Contains(p.Detail, "boom") {
		t.Errorf("problem %+v (%v): must be a 500 that does not leak the panic", p, err)
	}
	line := logs.String()
	if strings.Count(line, "\n") != 1 || !strings.Contains(line, "boom in a calculator") || !strings.Contains(line, "GET /v1/budget") {
		t.Errorf("log = %q, want one line naming the request and the panic", line)
	}
	// A panic after the status went out cannot change it; it must not crash.
	late := recoverer(opt, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.Write([]byte("{"))
		panic("late")
	}))
	if w := serve(late, "GET", "/", "", ""); w.Code != 200 || w.Body.String() != "{" {
		t.Errorf("late panic: %d %q", w.Code, w.Body)
	}
	// http.ErrAbortHandler is net/http's way to abort; it passes through.
	func() {
		defer func() {
			if v := recover(); v != http.ErrAbortHandler {
				t.Errorf("recovered %v, want http.ErrAbortHandler re-panicked", v)
			}
		}()
		serve(recoverer(opt, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })), "GET", "/", "", "")
	}()
}

// TestLimits: the 413's detail states the limit, a platform note rides
// along, and nothing past the limit is read.
func TestLimits(t *testing.T) {
	opt := LambdaOptions()
	h := New(opt)
	body := string(apitest.Oversize(LambdaMaxBodyBytes + 1))
	for _, chunked := range []bool{false, true} {
		r := httptest.NewRequest("POST", "/v1/aa", nil)
		cr := &countingReader{r: strings.NewReader(body)}
		r.Body = cr
		r.ContentLength = int64(len(body))
		if chunked {
			r.ContentLength = -1
		}
		r.Header.Set("Content-Type", "text/csv")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != 413 {
			t.Fatalf("chunked=%v: status %d: %s", chunked, w.Code, w.Body)
		}
		var p problem
		json.Unmarshal(w.Body.Bytes(), &p)
		if !strings.Contains(p.Detail, "6 MB") || !strings.Contains(p.Detail, "4.5 MB") || p.Kind != core.TooLarge {
			t.Errorf("detail %q kind %q: want the 6 MB limit and the base64 note", p.Detail, p.Kind)
		}
		if cr.n > LambdaMaxBodyBytes+64<<10 {
			t.Errorf("chunked=%v: read %d bytes of a body over a %d limit", chunked, cr.n, LambdaMaxBodyBytes)
		}
	}
	// Parameter bodies have their own small limit.
	w := serve(New(Options{}), "POST", "/v1/budget", "application/json", `{"rates": [`+strings.Repeat("0.05,", 300_000)+`0.05]}`)
	if w.Code != 413 || !strings.Contains(w.Body.String(), "1 MiB") {
		t.Errorf("large JSON parameters: %d %s", w.Code, w.Body)
	}
	for n, want := range map[int64]string{32 << 20: "32 MiB", 6_000_000: "6 MB", 1 << 20: "1 MiB", 4096: "4 KiB", 1000: "1000 bytes"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
	// /v1/health reports the limit in force.
	var hl Health
	decode(t, serve(h, "GET", "/v1/health", "", ""), &hl)
	if hl.MaxBodyBytes != LambdaMaxBodyBytes || hl.Status != "ok" {
		t.Errorf("health %+v", hl)
	}
}

type countingReader struct {
	r *strings.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func (c *countingReader) Close() error { return nil }

// TestStatusOf: the one mapping from errors to statuses.
func TestStatusOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{&core.Error{Kind: core.Invalid}, 400},
		{&core.Error{Kind: core.Unusable}, 422},
		{&core.Error{Kind: core.TooLarge}, 413},
		{core.WithFile(&core.Error{Kind: core.Unusable, Line: 3}, "baseline"), 422},
		{&httpError{status: 415}, 415},
		{os.ErrClosed, 500},
	} {
		if got := statusOf(tc.err).Status; got != tc.want {
			t.Errorf("statusOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
	p := statusOf(core.WithFile(&core.Error{Kind: core.Invalid, Line: 3, Column: 7, Field: "x", Msg: "bad"}, "candidate"))
	if p.File != "candidate" || p.Line != 3 || p.Column != 7 || p.Field != "x" {
		t.Errorf("position lost: %+v", p)
	}
	if p := statusOf(os.ErrClosed); strings.Contains(p.Detail, "closed") {
		t.Errorf("a server error leaks its cause: %q", p.Detail)
	}
}
