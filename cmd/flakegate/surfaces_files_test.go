package main

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/flakegate/flakegate/core/param"
	api "github.com/flakegate/flakegate/functions/api"
)

// fileCalc is a calculator that reads files beside its inputs: the CLI's
// command around the inputs' flags, and the API's request of the same
// files with the inputs in its query. A link and the page hold its
// inputs as the schema reads them (parse).
type fileCalc struct {
	name   string
	fields []param.Field
	base   map[string]string
	parse  func(map[string]string) error
	cli    func(t *testing.T, flags []string) []string // the whole command line
	req    func(t *testing.T, q url.Values) *http.Request
	// answers is false where the CLI's answer is not the API's JSON (it
	// writes a registry, or names its files): then the two agree on
	// answering, and on the words of a refusal.
	answers bool
}

func fileCalcs(t testing.TB) []fileCalc {
	read := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	post := func(path string, q url.Values, media string, body []byte) *http.Request {
		r := httptest.NewRequest("POST", "/v1/"+path+"?"+q.Encode(), bytes.NewReader(body))
		r.Header.Set("Content-Type", media)
		return r
	}
	parser := func(parse func(map[string]string) error) func(map[string]string) error { return parse }
	const registry = "testdata/quarantine/week-registry.json"
	return []fileCalc{
		{name: "aa", fields: param.AA.Fields,
			parse: parser(func(s map[string]string) error { _, err := param.AA.Parse(s); return err }),
			cli: func(_ *testing.T, flags []string) []string {
				return append(append([]string{"aa"}, flags...), "testdata/base.csv")
			},
			req: func(_ *testing.T, q url.Values) *http.Request {
				return post("aa", q, "text/csv", read("testdata/base.csv"))
			},
			answers: true},
		{name: "compare", fields: param.Compare.Fields,
			parse: parser(func(s map[string]string) error { _, err := param.Compare.Parse(s); return err }),
			cli: func(_ *testing.T, flags []string) []string {
				return append(append([]string{"compare", "-format", "samples", "-score", "correct"}, flags...),
					"testdata/compare/race-a.jsonl", "testdata/compare/race-b.jsonl")
			},
			req: func(t *testing.T, q url.Values) *http.Request {
				q.Set("format", "samples")
				q.Set("score", "correct")
				var b bytes.Buffer
				mw := multipart.NewWriter(&b)
				for _, p := range [][2]string{{"a", "testdata/compare/race-a.jsonl"}, {"b", "testdata/compare/race-b.jsonl"}} {
					w, err := mw.CreateFormFile(p[0], filepath.Base(p[1]))
					if err != nil {
						t.Fatal(err)
					}
					w.Write(read(p[1]))
				}
				mw.Close()
				return post("compare", q, mw.FormDataContentType(), b.Bytes())
			},
			answers: true},
		{name: "history", fields: param.History.Fields,
			parse: parser(func(s map[string]string) error { _, err := param.History.Parse(s); return err }),
			cli: func(_ *testing.T, flags []string) []string {
				return append(append([]string{"history"}, flags...), "testdata/history/month.zip")
			},
			req: func(_ *testing.T, q url.Values) *http.Request {
				return post("history", q, "application/zip", read("testdata/history/month.zip"))
			}},
		{name: "quarantine check", fields: param.QuarantineCheck.Fields, base: map[string]string{"today": "2026-12-01"},
			parse: parser(func(s map[string]string) error { _, err := param.QuarantineCheck.Parse(s); return err }),
			cli: func(_ *testing.T, flags []string) []string {
				return append([]string{"quarantine", "check", "-registry", registry}, flags...)
			},
			req: func(_ *testing.T, q url.Values) *http.Request {
				return post("quarantine/check", q, "application/json", read(registry))
			}}, // the CLI's answer without reports has a caveat the API's has not
		{name: "quarantine add", fields: param.QuarantineAdd.Fields,
			parse: parser(func(s map[string]string) error { _, err := param.QuarantineAdd.Parse(s); return err }),
			cli: func(t *testing.T, flags []string) []string {
				reg := filepath.Join(t.TempDir(), "quarantine.json")
				return append(append([]string{"quarantine", "add", "-registry", reg, "-today", "2026-12-01",
					"-claim", "50/60", "-owner", "@team", "-reason", "flaky"}, flags...), "pkg.TestX")
			},
			req: func(_ *testing.T, q url.Values) *http.Request {
				for k, v := range map[string]string{"today": "2026-12-01", "claim": "50/60", "owner": "@team", "reason": "flaky", "test": "pkg.TestX"} {
					q.Set(k, v)
				}
				return post("quarantine/add", q, "application/json", []byte(`{"version": 1, "tests": []}`))
			}},
	}
}

var fileLocation = regexp.MustCompile(`^[^ ]+:\d+:\d+: `)

// TestEverySurfaceReadsTheFileCalculators walks every field of the
// schemas of the calculators that read files (the A/A check, compare,
// history, the quarantine's check and add) through the CLI, the API and
// the schema a link and the page read them by, with each text of its
// kind: the CLI and the API give the same answer or the same refusal,
// and what the schema refuses, both refuse in its words.
func TestEverySurfaceReadsTheFileCalculators(t *testing.T) {
	t.Setenv("FLAKEGATE_SITE", "")
	h := api.New(api.Options{})
	walked := 0
	for _, c := range fileCalcs(t) {
		for _, f := range c.fields {
			for _, text := range kindTexts[f.Kind] {
				c.agree(t, h, f, text)
				walked++
			}
		}
	}
	if walked < 100 {
		t.Errorf("only %d cases walked", walked)
	}
}

// agree gives text to field f on the CLI and the API, and holds them and
// the schema to one outcome.
func (c fileCalc) agree(t *testing.T, h http.Handler, f param.Field, text string) {
	t.Helper()
	given := merged(c.base, map[string]string{f.Key: text})
	q := url.Values{}
	for _, fd := range c.fields {
		if v, ok := given[fd.Key]; ok {
			q.Set(fd.Name(), v)
		}
	}
	cliOut := viaCLIArgs(t, c.cli(t, cliFlags(c.fields, given)))
	apiOut := apiOutcome(t, h, c.req(t, q))
	if !c.answers && cliOut.json != "" && apiOut.json != "" {
		cliOut.json, apiOut.json = "answered", "answered"
	}
	// A fault in a file is placed in it: the CLI names the file by its
	// path, the API by its part.
	cliOut.refusal = fileLocation.ReplaceAllString(cliOut.refusal, "")
	apiOut.refusal = fileLocation.ReplaceAllString(apiOut.refusal, "")
	if cliOut != apiOut {
		t.Errorf("%s -%s %q:\ncli %+v\napi %+v", c.name, f.Key, text, cliOut, apiOut)
	}
	if err := c.parse(given); err != nil {
		if want := refused(param.First(err)); apiOut != want {
			t.Errorf("%s -%s %q:\nschema %+v\napi    %+v", c.name, f.Key, text, want, apiOut)
		}
	}
}
