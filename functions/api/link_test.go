package api

import (
	"crypto/tls"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/internal/testfile"
)

// linkOf serves a GET with the given Host (and TLS, and headers) and
// returns the answer's link and link note.
func linkOf(t *testing.T, opt Options, host string, tlsOn bool, hdr map[string]string, target string) (string, string) {
	t.Helper()
	r := httptest.NewRequest("GET", target, nil)
	r.Host = host
	if tlsOn {
		r.TLS = &tls.ConnectionState{}
	}
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	New(opt).ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("%s: %d %s", target, w.Code, w.Body)
	}
	var res struct {
		Link     string `json:"link"`
		LinkNote string `json:"link_note"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	return res.Link, res.LinkNote
}

// TestLinkOrigin: the link is on the request's own origin, its host taken
// only when it is a plain host, its scheme from TLS or, behind a proxy that
// says so (the Worker's bridge), X-Forwarded-Proto; Options.Site and
// Options.NoLinks override the origin.
func TestLinkOrigin(t *testing.T) {
	const q = "/v1/decide?baseline=30/60&patched=51/60&property=passed"
	const frag = "/decide?baseline=30%2F60&confidence=0.95&min_trials=20&patched=51%2F60&property=passed&v=2"
	https := map[string]string{"X-Forwarded-Proto": "https"}
	for _, c := range []struct {
		name  string
		opt   Options
		host  string
		tls   bool
		hdr   map[string]string
		want  string
		label string
	}{
		{name: "local server", host: "127.0.0.1:8080", want: "http://127.0.0.1:8080" + frag},
		{name: "TLS", host: "flakegate.example", tls: true, want: "https://flakegate.example" + frag},
		{name: "IPv6", host: "[::1]:8787", want: "http://[::1]:8787" + frag},
		{name: "forwarded, trusted", opt: Options{ForwardedProto: true}, host: "flakegate.example", hdr: https, want: "https://flakegate.example" + frag},
		{name: "forwarded, not trusted", host: "flakegate.example", hdr: https, want: "http://flakegate.example" + frag},
		{name: "forwarded nonsense", opt: Options{ForwardedProto: true}, host: "x.example", hdr: map[string]string{"X-Forwarded-Proto": "javascript"}, want: "http://x.example" + frag},
		{name: "host with a path", host: "evil.example/x?", want: ""},
		{name: "host with user", host: "a@evil.example", want: ""},
		{name: "empty host", host: "", want: ""},
		{name: "site", opt: Options{Site: "https://flakegate.example/tools"}, host: "api.example", want: "https://flakegate.example/tools" + frag},
		{name: "no links", opt: Options{NoLinks: true}, host: "api.example", want: ""},
		{name: "lambda", opt: LambdaOptions(), host: "abc.lambda-url.eu-west-1.on.aws", want: ""},
	} {
		if got, _ := linkOf(t, c.opt, c.host, c.tls, c.hdr, q); got != c.want {
			t.Errorf("%s: link %q, want %q", c.name, got, c.want)
		}
	}
}

// TestUploadLinks: a ledger's link carries its summary, each flaky test's
// budget links to its own view, an A/A check to its statistics, each on
// the request's origin.
func TestUploadLinks(t *testing.T) {
	h := New(Options{})
	post := func(target, ctype, body string) map[string]any {
		t.Helper()
		r := httptest.NewRequest("POST", target, strings.NewReader(body))
		r.Host = "127.0.0.1:8080"
		r.Header.Set("Content-Type", ctype)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		var res map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil || w.Code != 200 {
			t.Fatalf("%s: %d %s", target, w.Code, w.Body)
		}
		return res
	}
	read := func(name string) string {
		b := testfile.Read(t, "testdata/"+name)
		return string(b)
	}
	res := post("/v1/ledger?min_trials=5", "application/x-ndjson", read("ledger.jsonl"))
	if l, _ := res["link"].(string); !strings.HasPrefix(l, "http://127.0.0.1:8080/decide?confidence=0.95&ledger=") || !strings.Contains(l, "&min_trials=5") {
		t.Errorf("ledger link %q", l)
	}
	res = post("/v1/aa", "text/csv", read("aa_baseline.csv"))
	if l, _ := res["link"].(string); !strings.HasPrefix(l, "http://127.0.0.1:8080/aa?aa=") {
		t.Errorf("A/A link %q", l)
	}
	// The link carries the options asked for, so the calculator shows
	// the same thresholds: no note.
	res = post("/v1/aa?k=1,2", "text/csv", read("aa_baseline.csv"))
	l, _ := res["link"].(string)
	st, err := share.DecodeAA(l[strings.LastIndex(l, "aa=")+len("aa="):])
	if n, _ := res["link_note"].(string); n != "" || err != nil || st.Options["k"] != "1,2" {
		t.Errorf("A/A link note %q, options %v (%v)", n, st.Options, err)
	}
}
