package apitest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// The hostile-input suite: requests a careless or hostile client sends
// (odd paths and methods, bad numbers, repeated keys, broken encodings,
// bodies far over the limits), each with the statuses it may get. Every
// platform runs it: in process (go test), and the local server, Lambda
// under the runtime emulator and the Worker under wrangler dev (the
// integration tests). Raw cases (RawHostile) write bytes on a connection,
// for the platforms that have one.
//
// Whatever the request, every answer must also: be under 6 MiB; carry
// X-Content-Type-Options: nosniff and the CORS origin; if an error, be
// application/problem+json of at most 2 KB (echoed input clipped) that
// says what went wrong; to HEAD, have no body; and never be a 5xx.

// Hostile is one hostile request and the statuses it may get.
type Hostile struct {
	Case       // the request; Case.Status is ignored
	Want []int // acceptable statuses
	Why  string
	// Path marks a path a platform may normalise before the API sees it
	// (dot segments, double slashes): then a redirect to the clean path,
	// or the static site's own answer for a path outside /v1/, is fine too,
	// as long as no file outside the site is served.
	Path bool
	// Platform are statuses the platform itself may answer with before
	// the API sees the request (workerd refuses a URL of 64 KiB with 431
	// and a method it does not know with 501), in its own words.
	Platform []int
	// WantHeader are headers the answer must carry, with these values.
	WantHeader map[string]string
}

// Check holds an answer to the case's statuses and to what every answer
// must be; it returns what is wrong, or nil.
func (h Hostile) Check(status int, hdr http.Header, body []byte) error {
	if slices.Contains(h.Platform, status) && hdr.Get("Content-Type") != "application/problem+json" {
		return nil
	}
	if h.Path && !strings.HasPrefix(hdr.Get("Content-Type"), "application/") {
		switch {
		case status == 301 || status == 307 || status == 308:
			return nil // the server's redirect to the clean path
		case (status == 200 || status == 404) && strings.HasPrefix(hdr.Get("Content-Type"), "text/html") &&
			!bytes.Contains(body, []byte("root:")):
			return nil // the site's page, never /etc/passwd
		}
	}
	var bad []string
	if !slices.Contains(h.Want, status) {
		bad = append(bad, fmt.Sprintf("status %d, want one of %v", status, h.Want))
	}
	for _, k := range slices.Sorted(maps.Keys(h.WantHeader)) {
		if got := strings.Join(hdr.Values(k), ","); got != h.WantHeader[k] {
			bad = append(bad, fmt.Sprintf("%s: %q, want %q", k, got, h.WantHeader[k]))
		}
	}
	bad = append(bad, Sane(h.Method, status, hdr, body)...)
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(bad, "; "))
}

// Sane lists what is wrong with any answer of the API, whatever was asked.
func Sane(method string, status int, hdr http.Header, body []byte) []string {
	var bad []string
	if status >= 500 {
		bad = append(bad, fmt.Sprintf("a server error (%d) for the client's request", status))
	}
	if len(body) >= 6<<20 {
		bad = append(bad, fmt.Sprintf("an answer of %d bytes", len(body)))
	}
	if hdr.Get("X-Content-Type-Options") != "nosniff" {
		bad = append(bad, "no X-Content-Type-Options: nosniff")
	}
	if hdr.Get("Access-Control-Allow-Origin") != "*" {
		bad = append(bad, "no Access-Control-Allow-Origin")
	}
	if method == http.MethodHead && len(body) > 0 {
		bad = append(bad, fmt.Sprintf("a body of %d bytes to HEAD", len(body)))
	}
	if status >= 400 && method != http.MethodHead {
		var p struct {
			Status int    `json:"status"`
			Detail string `json:"detail"`
		}
		switch {
		case hdr.Get("Content-Type") != "application/problem+json":
			bad = append(bad, fmt.Sprintf("an error as %q", hdr.Get("Content-Type")))
		case json.Unmarshal(body, &p) != nil || p.Status != status || p.Detail == "":
			bad = append(bad, fmt.Sprintf("not a problem detail: %.200q", body))
		case len(body) > 2000:
			bad = append(bad, fmt.Sprintf("a problem of %d bytes: echoed input not clipped", len(body)))
		}
	}
	return bad
}

func hostile(name string, want []int, why string, c Case) Hostile {
	c.Name = name
	if c.Method == "" {
		c.Method = http.MethodGet
	}
	return Hostile{Case: c, Want: want, Why: why}
}

// platform marks statuses a platform may answer h with itself.
func platform(h Hostile, statuses ...int) Hostile {
	h.Platform = statuses
	return h
}

// wantHeader requires header k with value v in h's answer.
func wantHeader(h Hostile, k, v string) Hostile {
	h.WantHeader = map[string]string{k: v}
	return h
}

// path is a hostile path: see Hostile.Path.
func path(name, why string, c Case) Hostile {
	h := hostile(name, notFound, why, c)
	h.Path = true
	return h
}

var (
	ok       = []int{200}
	invalid  = []int{400}
	tooLarge = []int{413}
	notFound = []int{404}
	notAllow = []int{405}
	media    = []int{415}
	csvType  = map[string]string{"Content-Type": "text/csv"}
	jsonType = map[string]string{"Content-Type": "application/json"}
	jsonl    = map[string]string{"Content-Type": "application/x-ndjson"}
	xmlType  = map[string]string{"Content-Type": "application/xml"}
	formType = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
)

const goodCSV = "scenario,run,passed\ns1,r1,1\ns1,r2,0\ns1,r3,1\ns2,r1,1\ns2,r2,1\ns2,r3,0\n"

func gz(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// HostileCases is the suite.
func HostileCases() []Hostile {
	long := strings.Repeat("x", 900_000)
	var manyParams strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&manyParams, "&p%d=1", i)
	}
	var manyParts strings.Builder
	for range 2000 {
		manyParts.WriteString("--b\r\nContent-Disposition: form-data; name=\"report\"\r\n\r\n{\"Action\":\"pass\",\"Package\":\"p\",\"Test\":\"T\"}\r\n")
	}
	manyParts.WriteString("--b--\r\n")
	deepJSON := strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)
	nestedObj := `{"observe":` + strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000) + "}"
	laughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><testsuite><testcase name="&lol3;"/></testsuite>`
	var runs100k bytes.Buffer // 100,000 one-row runs
	runs100k.WriteString("scenario,run,passed\n")
	for i := range 100_000 {
		fmt.Fprintf(&runs100k, "s,r%d,1\n", i)
	}
	var rates16k strings.Builder
	for i := range 16_000 {
		if i > 0 {
			rates16k.WriteByte(',')
		}
		fmt.Fprintf(&rates16k, "0.%05d", i+1)
	}
	cases := []Hostile{
		// Paths and methods.
		path("path-traversal", "no file is served from /v1/", Case{URL: "/v1/../../etc/passwd"}),
		path("path-traversal-escaped", "", Case{URL: "/v1/%2e%2e/%2e%2e/etc/passwd"}),
		hostile("path-nul", notFound, "", Case{URL: "/v1/budget%00"}),
		hostile("path-long", notFound, "", Case{URL: "/v1/" + strings.Repeat("a", 8000)}),
		hostile("path-upper-case", notFound, "routes are lower case", Case{URL: "/v1/BUDGET?rates=0.05"}),
		path("path-double-slash", "", Case{URL: "/v1//budget?rates=0.05"}),
		hostile("path-semicolon", notFound, "", Case{URL: "/v1/budget;jsessionid=1?rates=0.05"}),
		hostile("path-unicode", notFound, "", Case{URL: "/v1/b%C3%BCdget"}),
		hostile("method-put", notAllow, "", Case{Method: "PUT", URL: "/v1/budget", Header: jsonType, Body: "{}"}),
		hostile("method-delete", notAllow, "", Case{Method: "DELETE", URL: "/v1/aa"}),
		hostile("method-patch", notAllow, "", Case{Method: "PATCH", URL: "/v1/ledger"}),
		platform(hostile("method-custom", notAllow, "", Case{Method: "FLAKE", URL: "/v1/health"}), 501),
		hostile("head-404", notFound, "HEAD never has a body, even for an error", Case{Method: "HEAD", URL: "/v1/nope"}),
		hostile("head-405", notAllow, "", Case{Method: "HEAD", URL: "/v1/flakes"}),
		hostile("head-400", invalid, "", Case{Method: "HEAD", URL: "/v1/budget?rates=x"}),
		hostile("options-odd-method", []int{204}, "a preflight for any method gets the route's methods", Case{Method: "OPTIONS", URL: "/v1/budget",
			Header: map[string]string{"Origin": "null", "Access-Control-Request-Method": "DELETE"}}),
		wantHeader(hostile("preflight-several-headers", []int{204}, "every header asked for is allowed, as sent", Case{Method: "OPTIONS", URL: "/v1/decide",
			Header: map[string]string{"Origin": "https://example.com", "Access-Control-Request-Method": "POST",
				"Access-Control-Request-Headers": "content-type,x-requested-with"}}),
			"Access-Control-Allow-Headers", "content-type,x-requested-with"),

		// Query strings.
		hostile("query-repeated", invalid, "one meaning per request", Case{URL: "/v1/budget?rates=0.05&rates=0.5"}),
		hostile("query-5000-params", invalid, "", Case{URL: "/v1/budget?rates=0.05" + manyParams.String()}),
		hostile("query-only-ampersands", invalid, "no rates, no history: nothing to plan", Case{URL: "/v1/budget?&&&"}),
		platform(hostile("query-long-unknown-name", invalid, "a 100 KB parameter name is not echoed whole", Case{URL: "/v1/budget?" + strings.Repeat("n", 100_000) + "=1"}), 414, 431),
		platform(hostile("query-long-property", invalid, "", Case{URL: "/v1/decide?baseline=1/2&patched=1/2&property=" + strings.Repeat("p", 100_000)}), 414, 431),
		platform(hostile("query-16000-rates", tooLarge, "an answer of 6 MB on Lambda", Case{URL: "/v1/budget?rates=" + rates16k.String()}), 414, 431),
		hostile("query-long-property-8k", invalid, "under the platforms' URL limits, clipped by the API", Case{URL: "/v1/decide?baseline=1/2&patched=1/2&property=" + strings.Repeat("p", 8000)}),

		// Numbers: one grammar (more in badQueries).
		hostile("number-negative-zero", ok, "-0 is a number, and a rate of 0", Case{URL: "/v1/budget?rates=-0"}),
		hostile("count-zero-trials", []int{200, 400}, "", Case{URL: "/v1/budget?observe=0/0"}),
		hostile("count-leading-zeros", invalid, "", Case{URL: "/v1/decide?baseline=010/20&patched=17/20"}),
		hostile("count-negative", invalid, "", Case{URL: "/v1/decide?baseline=-1/20&patched=17/20"}),
		hostile("count-two-slashes", invalid, "", Case{URL: "/v1/decide?baseline=1//20&patched=17/20"}),
		hostile("date-impossible", invalid, "", Case{URL: "/v1/freeze?claim=17/20&date=2026-02-30"}),
		hostile("form-hex", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: formType, Body: "rates=0x10"}),
		hostile("json-string-hex", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: `{"rates":"0x1p-4"}`}),

		// JSON bodies.
		hostile("json-duplicate-key", invalid, "a repeated key: either order would mean something else", Case{Method: "POST", URL: "/v1/decide", Header: jsonType,
			Body: `{"baseline":"10/20","baseline":"1/20","patched":"17/20"}`}),
		hostile("json-duplicate-key-escaped", invalid, "the same name written two ways", Case{Method: "POST", URL: "/v1/decide", Header: jsonType,
			Body: `{"baseline":"10/20","baselin\u0065":"1/20","patched":"17/20"}`}),
		hostile("json-duplicate-nested", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType,
			Body: `{"observe":{"fails":1,"runs":120,"runs":12}}`}),
		hostile("json-deep-array", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: deepJSON}),
		hostile("json-deep-object", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: nestedObj}),
		hostile("json-bom", ok, "a byte order mark before JSON, as before a CSV", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: "\ufeff{\"rates\":[0.05]}"}),
		hostile("json-invalid-utf8", invalid, "", Case{Method: "POST", URL: "/v1/decide", Header: jsonType,
			Body: "{\"baseline\":\"10/20\",\"patched\":\"17/20\",\"property\":\"\xff\xfe\"}"}),
		hostile("json-comment", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: "{\"rates\":[0.05] /* hi */}"}),
		hostile("json-single-quotes", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: "{'rates':[0.05]}"}),
		hostile("json-nan-literal", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: `{"rates":[NaN]}`}),
		hostile("json-huge-number", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: `{"rates":[1e999999]}`}),
		hostile("json-trailing", invalid, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType, Body: `{"rates":[0.05]}{"rates":[0.5]}`}),
		hostile("json-long-property", invalid, "a 900 KB value is not echoed whole", Case{Method: "POST", URL: "/v1/decide", Header: jsonType,
			Body: `{"baseline":"10/20","patched":"17/20","property":"` + long + `"}`}),
		hostile("json-over-1mib", tooLarge, "", Case{Method: "POST", URL: "/v1/budget", Header: jsonType,
			Body: `{"rates":[` + strings.Repeat("0.05,", 220_000) + `0.05]}`}),
		hostile("json-16000-rates", tooLarge, "a 6 MB answer, asked in a body no platform's URL limit stops", Case{Method: "POST", URL: "/v1/budget", Header: jsonType,
			Body: `{"rates":[` + rates16k.String() + `]}`}),
		hostile("json-as-form", media, "", Case{Method: "POST", URL: "/v1/budget", Header: formType, Body: `{"rates":[0.05]}`}),
		hostile("json-query-and-body", invalid, "", Case{Method: "POST", URL: "/v1/budget?rates=0.5", Header: jsonType, Body: `{"rates":[0.05]}`}),

		// Media types and encodings.
		hostile("content-type-missing", media, "", Case{Method: "POST", URL: "/v1/aa", Body: goodCSV}),
		hostile("content-type-malformed", media, "", Case{Method: "POST", URL: "/v1/aa", Header: map[string]string{"Content-Type": "text/csv; ;;="}, Body: goodCSV}),
		hostile("content-type-long", media, "", Case{Method: "POST", URL: "/v1/aa", Header: map[string]string{"Content-Type": "text/" + strings.Repeat("c", 5000)}, Body: goodCSV}),
		hostile("multipart-no-boundary", invalid, "", Case{Method: "POST", URL: "/v1/aa", Header: map[string]string{"Content-Type": "multipart/form-data"}, Body: goodCSV}),
		hostile("multipart-quoted-comma-boundary", ok, "a legal boundary with a comma", Case{Method: "POST", URL: "/v1/aa",
			Header: map[string]string{"Content-Type": `multipart/form-data; boundary="a,b"`},
			Body:   "--a,b\r\nContent-Disposition: form-data; name=\"baseline\"\r\n\r\n" + goodCSV + "\r\n--a,b--\r\n"}),
		hostile("multipart-unterminated", invalid, "", Case{Method: "POST", URL: "/v1/aa", Header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"},
			Body: "--b\r\nContent-Disposition: form-data; name=\"baseline\"\r\n\r\n" + goodCSV}),
		hostile("multipart-2000-parts", []int{200, 413}, "each part a run: bounded by the cells", Case{Method: "POST", URL: "/v1/flakes",
			Header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"}, Body: manyParts.String()}),
		hostile("multipart-traversal-filename", invalid, "a file name is a label, never a path", Case{Method: "POST", URL: "/v1/aa",
			Header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"},
			Body:   "--b\r\nContent-Disposition: form-data; name=\"baseline\"; filename=\"../../etc/" + strings.Repeat("p", 5000) + "\"\r\n\r\nnot,a,csv\r\n--b--\r\n"}),
		hostile("gzip-body", ok, "", Case{Method: "POST", URL: "/v1/aa", Header: map[string]string{"Content-Type": "text/csv", "Content-Encoding": "gzip"}, Body: gz(goodCSV)}),
		hostile("gzip-bomb", tooLarge, "40 MB of rows in a few KB: the limit counts decoded bytes", Case{Method: "POST", URL: "/v1/aa",
			Header: map[string]string{"Content-Type": "text/csv", "Content-Encoding": "gzip"}, Body: gz("scenario,run,passed\n" + strings.Repeat("s,r,1\n", 7_000_000))}),
		hostile("gzip-broken", invalid, "", Case{Method: "POST", URL: "/v1/aa", Header: map[string]string{"Content-Type": "text/csv", "Content-Encoding": "gzip"}, Body: goodCSV}),
		hostile("encoding-brotli", media, "", Case{Method: "POST", URL: "/v1/aa", Header: map[string]string{"Content-Type": "text/csv", "Content-Encoding": "br"}, Body: goodCSV}),
		hostile("encoding-twice", media, "", Case{Method: "POST", URL: "/v1/aa", Header: map[string]string{"Content-Type": "text/csv", "Content-Encoding": "gzip, gzip"}, Body: gz(gz(goodCSV))}),

		// CSV uploads.
		hostile("csv-bom", ok, "", Case{Method: "POST", URL: "/v1/aa", Header: csvType, Body: "\ufeff" + goodCSV}),
		hostile("csv-utf16", invalid, "", Case{Method: "POST", URL: "/v1/aa", Header: csvType, Body: "\xff\xfes\x00"}),
		hostile("csv-nul", []int{400, 422}, "a NUL is kept in an id, never cut at", Case{Method: "POST", URL: "/v1/aa", Header: csvType, Body: "scenario,run,passed\ns\x00,r1,1\n"}),
		hostile("csv-open-quote", invalid, "", Case{Method: "POST", URL: "/v1/aa", Header: csvType, Body: "scenario,run,passed\n\"s1,r1,1\n" + strings.Repeat("s2,r1,1\n", 1000)}),
		hostile("csv-long-line", invalid, "a line of 3 MB is refused at its first MiB", Case{Method: "POST", URL: "/v1/aa", Header: csvType, Body: "scenario,run,passed\n" + strings.Repeat("x", 3_000_000)}),
		hostile("csv-header-only", []int{400, 422}, "", Case{Method: "POST", URL: "/v1/aa", Header: csvType, Body: "scenario,run,passed\n"}),
		hostile("csv-100000-runs", tooLarge, "a request that once took 12.7 s: refused before any work", Case{Method: "POST", URL: "/v1/aa", Header: csvType, Body: runs100k.String()}),
		hostile("csv-simulate-huge", tooLarge, "", Case{Method: "POST", URL: "/v1/aa?simulate=true&sets=1000000&sim_k=64", Header: csvType, Body: goodCSV}),
		hostile("csv-seed-too-big", invalid, "", Case{Method: "POST", URL: "/v1/aa?seed=9007199254740993", Header: csvType, Body: goodCSV}),
		hostile("csv-oversize", tooLarge, "one byte over the body limit", Case{Method: "POST", URL: "/v1/aa", Header: csvType, Oversize: true}),

		// Report uploads.
		hostile("report-undetectable", invalid, "", Case{Method: "POST", URL: "/v1/ledger", Header: jsonl, Body: "hello\n"}),
		hostile("report-xml-entities", []int{400, 422}, "entities are not expanded", Case{Method: "POST", URL: "/v1/ledger", Header: xmlType, Body: laughs}),
		hostile("report-xml-deep", invalid, "", Case{Method: "POST", URL: "/v1/ledger", Header: xmlType, Body: strings.Repeat("<a>", 200_000)}),
		hostile("report-xml-nested-30mb", []int{400, 413}, "30 MB of nested suites: refused at the reader's depth limit, before the decoder keeps a record of each",
			Case{Method: "POST", URL: "/v1/ledger", Header: xmlType, Gen: nestedXML(`<testsuites>`, 30_000_000)}),
		hostile("report-xml-nested-skipped-30mb", []int{400, 413}, "the same nesting inside an element the reader skips",
			Case{Method: "POST", URL: "/v1/ledger", Header: xmlType, Gen: nestedXML(`<testsuites><testsuite name="s"><properties>`, 30_000_000)}),
		hostile("report-playwright-30mb", []int{200, 400, 413}, "read to its end in a bounded heap (cut short, 400, where the platform lets less through)",
			Case{Method: "POST", URL: "/v1/flakes", Header: jsonType, Gen: gen(bigPlaywright())}),
		hostile("report-gotest-30mb", []int{200, 400, 413}, "",
			Case{Method: "POST", URL: "/v1/flakes", Header: jsonl, Gen: gen(bigGoTest())}),
		hostile("report-gotest-long-line", invalid, "", Case{Method: "POST", URL: "/v1/flakes", Header: jsonl, Body: "{\"Action\":\"output\",\"Output\":\"" + strings.Repeat("o", 5_000_000) + "\"}\n"}),
		hostile("report-ledger-duplicate-key", invalid, "", Case{Method: "POST", URL: "/v1/ledger", Header: jsonl,
			Body: `{"run":"r","arm":"baseline","arm":"patched","nodeid":"t","when":"call","outcome":"passed"}` + "\n"}),
		hostile("report-run-with-parts", invalid, "", Case{Method: "POST", URL: "/v1/ledger?run=x", Header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"},
			Body: "--b\r\nContent-Disposition: form-data; name=\"baseline\"\r\n\r\n{}\r\n--b--\r\n"}),

		// Quarantine registries.
		hostile("registry-value-bomb", tooLarge, "4 MB of zeros: refused before a tree of two million values is built", Case{Method: "POST",
			URL: "/v1/quarantine/check?today=2026-11-25", Header: jsonType, Body: RegistryValueBomb()}),
		hostile("registry-duplicate-key", invalid, "", Case{Method: "POST", URL: "/v1/quarantine/check?today=2026-11-25", Header: jsonType,
			Body: `{"version":1,"version":1,"tests":[]}`}),
		hostile("registry-renames-many", tooLarge, "", Case{Method: "POST", URL: "/v1/quarantine/check?today=2026-11-25",
			Header: map[string]string{"Content-Type": "multipart/form-data; boundary=b"},
			Body: "--b\r\nContent-Disposition: form-data; name=\"registry\"\r\n\r\n{\"version\":1,\"tests\":[]}\r\n" +
				"--b\r\nContent-Disposition: form-data; name=\"renames\"\r\n\r\n{" + manyRenames(5000) + "}\r\n--b--\r\n"}),
	}
	for _, q := range badQueries {
		cases = append(cases, hostile(q.name, invalid, "", Case{URL: "/v1/budget?" + q.query}))
	}
	return cases
}

// badQueries are budget queries the API refuses (400) for how they are
// written: a name twice, a broken escape, a number outside its one
// grammar.
var badQueries = []struct{ name, query string }{
	{"query-alias-twice", "cost=1&cost_seconds=100&rates=0.05"},
	{"query-bad-escape", "rates=%zz"},
	{"query-nul", "rates=0.05%00"},
	{"query-empty-key", "=1&rates=0.05"},
	{"number-hex", "rates=0x1p-4"},
	{"number-plus", "rates=%2B0.05"},
	{"number-leading-dot", "rates=.05"},
	{"number-trailing-dot", "rates=5."},
	{"number-leading-zeros", "rates=0.05&cap=003"},
	{"number-underscore", "rates=0.05&cap=1_000"},
	{"number-nan", "rates=NaN"},
	{"number-inf", "rates=Infinity"},
	{"number-overflow", "rates=1e400"},
	{"number-underflow", "rates=1e-400"},
	{"number-int-overflow", "rates=0.05&cap=9223372036854775808"},
	{"number-int-exponent", "rates=0.05&cap=1e3"},
}

// nestedXML writes head, then <testsuite name="s"> until size bytes: a
// JUnit report whose suites nest without end.
func nestedXML(head string, size int) func(io.Writer) {
	return gen(func(w *bufio.Writer) {
		w.WriteString(head)
		for n := len(head); n < size; n += len(`<testsuite name="s">`) {
			w.WriteString(`<testsuite name="s">`)
		}
	})
}

// manyRenames is n members of a renames object.
func manyRenames(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"t%d":"u%d"`, i, i)
	}
	return b.String()
}

// RunHostile sends every case with do and checks the answers; it logs
// how many there were and how many failed, for the runtime named.
func RunHostile(t *testing.T, runtime string, cases []Hostile, do func(Hostile) (int, http.Header, []byte, error)) {
	t.Helper()
	failed := 0
	for _, h := range cases {
		status, hdr, body, err := do(h)
		if err == nil {
			err = h.Check(status, hdr, body)
		}
		if err != nil {
			failed++
			t.Errorf("%s: %s: %v", runtime, h.Name, err)
		}
	}
	t.Logf("%s: %d hostile requests, %d answered as they must", runtime, len(cases), len(cases)-failed)
}

// HTTPDo sends a case to a server at base over HTTP, as a client that
// reads the answer after sending the whole body.
func HTTPDo(base string, limit int64) func(Hostile) (int, http.Header, []byte, error) {
	return HTTPDoWith(&http.Client{Timeout: 120 * time.Second, Transport: &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, base, limit)
}

// HTTPDoWith is HTTPDo with the client to send with, which must not follow
// redirects or decode compressed answers.
func HTTPDoWith(client *http.Client, base string, limit int64) func(Hostile) (int, http.Header, []byte, error) {
	return func(h Hostile) (int, http.Header, []byte, error) {
		req, err := h.NewRequest("", base, limit)
		if err != nil {
			return 0, nil, nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, body, err
	}
}

// A RawHostile case writes bytes on a fresh connection to a server and
// checks what comes back.
type RawHostile struct {
	Name string
	Why  string
	// Send writes the request; it may write slowly, or far too much.
	Send func(w io.Writer) error
	// Want are the statuses of the first answer, empty when the server may
	// also close the connection without one (a framing it refuses).
	Want []int
	// Answers is how many answers must come back (pipelined requests).
	Answers int
}

// RawHostileCases are framing cases for servers that own their
// connections: the local server and the Worker under wrangler dev.
// limit is the server's body limit.
func RawHostileCases(limit int64) []RawHostile {
	over := Oversize(limit + 1<<20)
	csv := func(extra string, body []byte) func(io.Writer) error {
		return func(w io.Writer) error {
			if _, err := fmt.Fprintf(w, "POST /v1/aa HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n%s\r\n", extra); err != nil {
				return err
			}
			_, err := w.Write(body)
			return err
		}
	}
	chunked := func(body []byte) []byte {
		var b bytes.Buffer
		for len(body) > 0 {
			n := min(len(body), 1<<16)
			fmt.Fprintf(&b, "%x\r\n%s\r\n", n, body[:n])
			body = body[n:]
		}
		b.WriteString("0\r\n\r\n")
		return b.Bytes()
	}
	longLine := append([]byte("scenario,run,passed\n"), bytes.Repeat([]byte("x"), 30_000_000)...)
	return []RawHostile{
		{Name: "raw-declared-over-limit-sent-whole", Why: "Python's urllib sends everything, then reads: it must get the 413",
			Send: csv(fmt.Sprintf("Content-Length: %d\r\n", len(over)), over), Want: []int{413}, Answers: 1},
		{Name: "raw-chunked-over-limit-sent-whole", Send: csv("Transfer-Encoding: chunked\r\n", chunked(over)), Want: []int{413}, Answers: 1},
		{Name: "raw-early-error-sent-whole", Why: "an error at line 1 of 30 MB: the 400 reaches a client still sending",
			Send: csv(fmt.Sprintf("Content-Length: %d\r\n", len(longLine)), longLine), Want: []int{400}, Answers: 1},
		{Name: "raw-pipelined", Why: "two requests in one write get two answers, in order",
			Send: func(w io.Writer) error {
				_, err := io.WriteString(w, "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /v1/budget?rates=x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
				return err
			}, Want: []int{200}, Answers: 2},
		{Name: "raw-length-and-chunked", Why: "request smuggling: a body framed two ways is refused",
			Send: csv("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", []byte("0\r\n\r\nGET /v1/nope HTTP/1.1\r\nHost: x\r\n\r\n"))},
		{Name: "raw-bad-chunk-size", Send: csv("Transfer-Encoding: chunked\r\n", []byte("zz\r\nabc\r\n0\r\n\r\n"))},
		{Name: "raw-huge-header", Send: func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: %s\r\n\r\n", strings.Repeat("h", 2<<20))
			return err
		}},
		{Name: "raw-no-host", Send: func(w io.Writer) error {
			_, err := io.WriteString(w, "GET /v1/health HTTP/1.1\r\n\r\n")
			return err
		}},
	}
}

// RawAgain says whether a raw case's wrong first answer came from the
// server's host rather than the server (wrangler dev's own 503 when it
// restarted its local runtime mid-request): the case is then sent once
// more, and that is logged.
type RawAgain func(status int, header http.Header, body []byte) bool

// rawAnswerError is a raw case's first answer with the wrong status.
type rawAnswerError struct {
	status int
	header http.Header
	body   []byte
	msg    string
}

func (e *rawAnswerError) Error() string { return e.msg }

// RunRawHostile runs the raw cases against the server at addr (host:port).
// A case whose Want is empty passes when the server answers with a 4xx or
// closes the connection; never with a 2xx or 5xx. again, if given, picks
// out the answers of the server's host, to be sent once more.
func RunRawHostile(t *testing.T, runtime, addr string, cases []RawHostile, dial func() (io.ReadWriteCloser, error), again ...RawAgain) {
	t.Helper()
	failed := 0
	for _, c := range cases {
		var err error
		if len(again) > 0 {
			err = runRawAgain(c, dial, again[0], func(ae *rawAnswerError) {
				t.Logf("%s: %s: its host answered for it (%d %.80q); sending it once more", runtime, c.Name, ae.status, ae.body)
			})
		} else {
			err = runRaw(c, dial)
		}
		if err != nil {
			failed++
			t.Errorf("%s: %s: %v", runtime, c.Name, err)
		}
	}
	t.Logf("%s: %d raw hostile requests, %d answered as they must", runtime, len(cases), len(cases)-failed)
}

// runRawAgain is runRaw, once more when again picks out the first
// answer; logf, if given, is told of it.
func runRawAgain(c RawHostile, dial func() (io.ReadWriteCloser, error), again RawAgain, logf ...func(*rawAnswerError)) error {
	err := runRaw(c, dial)
	var ae *rawAnswerError
	if errors.As(err, &ae) && again(ae.status, ae.header, ae.body) {
		for _, f := range logf {
			f(ae)
		}
		err = runRaw(c, dial)
	}
	return err
}

func runRaw(c RawHostile, dial func() (io.ReadWriteCloser, error)) error {
	conn, err := dial()
	if err != nil {
		return err
	}
	defer conn.Close()
	// A server that neither reads nor answers must fail the case, not hang
	// the suite: every case ends within rawDeadline.
	if d, ok := conn.(interface{ SetDeadline(time.Time) error }); ok {
		d.SetDeadline(time.Now().Add(rawDeadline))
	}
	sendErr := make(chan error, 1)
	go func() { sendErr <- c.Send(conn) }()
	br := bufio.NewReader(conn)
	var statuses []int
	for i := 0; i < max(1, c.Answers); i++ {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			if len(c.Want) == 0 && i == 0 {
				return nil // refused by closing: allowed for a framing it cannot read
			}
			return fmt.Errorf("answer %d: %v (send: %v)", i+1, err, drain(sendErr))
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
		if i == 0 && len(c.Want) > 0 && !slices.Contains(c.Want, resp.StatusCode) {
			return &rawAnswerError{resp.StatusCode, resp.Header, body, fmt.Sprintf("status %d, want one of %v: %.200s", resp.StatusCode, c.Want, body)}
		}
		if len(c.Want) == 0 && (resp.StatusCode < 400 || resp.StatusCode >= 500) {
			return &rawAnswerError{resp.StatusCode, resp.Header, body, fmt.Sprintf("status %d for a request it should refuse", resp.StatusCode)}
		}
	}
	if err := drain(sendErr); err != nil && len(c.Want) > 0 {
		return fmt.Errorf("the server stopped the upload: %v", err)
	}
	return nil
}

// rawDeadline bounds one raw case: the largest sends 34 MB over loopback,
// which takes seconds even on a loaded machine.
const rawDeadline = 3 * time.Minute

// drain waits a moment for the sender's result.
func drain(c chan error) error {
	select {
	case err := <-c:
		return err
	case <-time.After(30 * time.Second):
		return fmt.Errorf("the sender is still writing after 30 s")
	}
}
