package bridge

import (
	"io"
	"log"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// respond is a handler that sets the header fields of header (a nil
// value sets the field to nil), then writes the status (0: none) and body
// ("": none).
func respond(header http.Header, status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		maps.Copy(w.Header(), header)
		if status != 0 {
			w.WriteHeader(status)
		}
		if body != "" {
			io.WriteString(w, body)
		}
	}
}

// TestWriter holds the bridge's buffered writer to net/http's own server:
// for each handler, the status, header and body a real server sends (over
// loopback) must be what writer.finish hands the shim.
func TestWriter(t *testing.T) {
	cases := []struct {
		name   string
		method string
		h      http.HandlerFunc
	}{
		{"nothing written", "GET", respond(nil, 0, "")},
		{"status only", "GET", respond(nil, 404, "")},
		{"sniffed type", "GET", respond(nil, 0, "<!doctype html><p>hi")},
		{"set type kept", "GET", respond(http.Header{"Content-Type": {"application/problem+json"}}, 400, `{"status":400}`)},
		{"empty type not sniffed", "GET", respond(http.Header{"Content-Type": nil}, 0, "plain")},
		{"encoded not sniffed", "GET", respond(http.Header{"Content-Encoding": {"gzip"}}, 0, "\x1f\x8b")},
		{"header after WriteHeader ignored", "GET", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Before", "1")
			w.WriteHeader(201)
			w.Header().Set("X-After", "1")
			w.WriteHeader(500)
			io.WriteString(w, "made")
		}},
		{"header after first write ignored", "GET", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "a")
			w.Header().Set("X-Late", "1")
			io.WriteString(w, "b")
		}},
		{"no body on 204", "GET", respond(nil, 204, "dropped")},
		{"no body on 304", "GET", respond(nil, 304, "dropped")},
		{"no body on HEAD", "HEAD", respond(http.Header{"Content-Type": {"text/plain"}}, 0, "dropped")},
		{"repeated field", "GET", respond(http.Header{"Vary": {"Origin", "Access-Control-Request-Headers"}, "Allow": {"GET, HEAD, OPTIONS"}}, 0, "")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(c.h)
			srv.Config.ErrorLog = log.New(io.Discard, "", 0) // its "superfluous WriteHeader" line
			srv.Start()
			defer srv.Close()
			req, _ := http.NewRequest(c.method, srv.URL, nil)
			// Bytes as sent: no transparent gzip.
			client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := io.ReadAll(resp.Body)
			resp.Body.Close()

			w := newWriter(c.method)
			c.h(w, httptest.NewRequest(c.method, "/", nil))
			status, fields, body := w.finish()
			if status != resp.StatusCode {
				t.Errorf("status %d, net/http sends %d", status, resp.StatusCode)
			}
			if string(body) != string(want) {
				t.Errorf("body %q, net/http sends %q", body, want)
			}
			got := parseFields(t, fields)
			// Fields net/http's server adds of its own: the shim's runtime
			// sets them, or none.
			for _, k := range []string{"Date", "Content-Length"} {
				resp.Header.Del(k)
				got.Del(k)
			}
			for k := range resp.Header {
				if g, w := strings.Join(got.Values(k), "|"), strings.Join(resp.Header.Values(k), "|"); g != w {
					t.Errorf("%s %q, net/http sends %q", k, g, w)
				}
			}
			for k := range got {
				if _, ok := resp.Header[k]; !ok {
					t.Errorf("%s %q, which net/http does not send", k, got.Get(k))
				}
			}
		})
	}
}

// TestWriterFields checks the field list handed to the shim: one name and
// one value per line, names net/http would send, values without line
// breaks.
func TestWriterFields(t *testing.T) {
	w := newWriter("GET")
	w.Header()["Bad Name"] = []string{"x"}
	w.Header()["X-Multi"] = []string{"a\r\nb", "c"}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(200)
	_, fields, _ := w.finish()
	got := parseFields(t, fields)
	if got.Get("Bad Name") != "" {
		t.Errorf("a field name with a space was handed on")
	}
	if v := got.Values("X-Multi"); len(v) != 2 || v[0] != "a  b" || v[1] != "c" {
		t.Errorf("X-Multi %q, want [\"a  b\" \"c\"] (net/http turns CR and LF into spaces)", v)
	}
}

func parseFields(t *testing.T, fields string) http.Header {
	t.Helper()
	h := http.Header{}
	if fields == "" {
		return h
	}
	if !strings.HasSuffix(fields, "\n") {
		t.Fatalf("fields %q do not end in a newline", fields)
	}
	f := strings.Split(strings.TrimSuffix(fields, "\n"), "\n")
	if len(f)%2 != 0 {
		t.Fatalf("fields %q: an odd number of lines", fields)
	}
	for i := 0; i < len(f); i += 2 {
		h[f[i]] = append(h[f[i]], f[i+1])
	}
	return h
}

// FuzzWriterFields: whatever a handler puts in its header, the list handed
// to the shim splits back into whole name and value pairs, holds every
// field net/http would send, with line breaks turned into spaces, and
// nothing else.
func FuzzWriterFields(f *testing.F) {
	f.Add("Content-Type", "text/plain", "X-A", "1\n2")
	f.Add("Bad Name", "v", "", "")
	f.Add("X\nY", "\r\n", "Set-Cookie", "a=1, b=2")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		w := newWriter("GET")
		w.Header()[k1] = append(w.Header()[k1], v1)
		w.Header()[k2] = append(w.Header()[k2], v2)
		w.WriteHeader(200)
		_, fields, _ := w.finish()
		got := parseFields(t, fields)
		want := http.Header{}
		for k, vs := range w.sent {
			if !validName(k) {
				continue
			}
			for _, v := range vs {
				want[k] = append(want[k], strings.NewReplacer("\r", " ", "\n", " ").Replace(v))
			}
		}
		if len(got) != len(want) {
			t.Fatalf("fields %q, want %q", got, want)
		}
		for k, vs := range want {
			if strings.Join(got[k], "\x00") != strings.Join(vs, "\x00") {
				t.Fatalf("%q: %q, want %q", k, got[k], vs)
			}
		}
	})
}
