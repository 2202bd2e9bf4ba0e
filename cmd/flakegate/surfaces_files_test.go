package main

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/flakegate/flakegate/core/param"
	api "github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/wasm/page"
)

// fileCalc is a calculator that reads files beside its inputs: the CLI's
// command around the inputs' flags, and the API's request of the same
// files with the inputs in its query. A link holds its inputs as the
// schema reads them (parse), and its page's Options as page reads them.
type fileCalc struct {
	name   string
	fields []param.Field
	base   map[string]string
	parse  func(map[string]string) (any, error)
	cli    func(t *testing.T, flags []string) []string // the whole command line
	req    func(t *testing.T, q url.Values) *http.Request
	// answers is false where the CLI's answer is not the API's JSON (it
	// writes a registry, or names its files): then the two agree on
	// answering, and on the words of a refusal.
	answers bool
	// page reads the inputs as the calculator's page reads its Options
	// (a field not given at its start), nil for a calculator whose page
	// has none; offPage are the fields the page does not offer, each
	// for the reason its page's doc gives (the A/A simulation, which the
	// page does not run; compare's cluster, which the page reads no
	// groups for).
	page    func(map[string]string) (any, error)
	offPage []string
}

// schemaCalc is the fileCalc of schema s whose CLI command is cmd, its
// flags, then files; page, when not nil, is its page's reader.
func schemaCalc[T any](s *param.Schema[T], cmd []string, files []string, page func(map[string]string) (T, error)) fileCalc {
	c := fileCalc{name: s.Name, fields: s.Fields,
		parse: func(m map[string]string) (any, error) { return s.Parse(m) },
		cli: func(_ *testing.T, flags []string) []string {
			return append(append(append([]string{}, cmd...), flags...), files...)
		}}
	if page != nil {
		c.page = func(m map[string]string) (any, error) { return page(m) }
	}
	return c
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
	const registry = "testdata/quarantine/week-registry.json"
	aaCalc := schemaCalc(param.AA, []string{"aa"}, []string{"testdata/base.csv"}, page.AAOptionsFrom)
	aaCalc.req = func(_ *testing.T, q url.Values) *http.Request {
		return post("aa", q, "text/csv", read("testdata/base.csv"))
	}
	aaCalc.answers, aaCalc.offPage = true, []string{"simulate", "sets", "sim_k", "sim_drop", "broken"}
	cmpCalc := schemaCalc(param.Compare, []string{"compare", "-format", "samples", "-score", "correct"},
		[]string{"testdata/compare/race-a.jsonl", "testdata/compare/race-b.jsonl"}, page.CompareOptionsFrom)
	cmpCalc.req = func(t *testing.T, q url.Values) *http.Request {
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
	}
	cmpCalc.answers, cmpCalc.offPage = true, []string{"cluster"}
	histCalc := schemaCalc(param.History, []string{"history"}, []string{"testdata/history/month.zip"}, page.HistoryOptionsFrom)
	histCalc.req = func(_ *testing.T, q url.Values) *http.Request {
		return post("history", q, "application/zip", read("testdata/history/month.zip"))
	}
	// The CLI's answer of a check without reports has a caveat the
	// API's has not.
	check := schemaCalc(param.QuarantineCheck, []string{"quarantine", "check", "-registry", registry}, nil, nil)
	check.base = map[string]string{"today": "2026-12-01"}
	check.req = func(_ *testing.T, q url.Values) *http.Request {
		return post("quarantine/check", q, "application/json", read(registry))
	}
	add := schemaCalc(param.QuarantineAdd, nil, nil, nil) // its CLI writes a registry of its own
	add.cli = func(t *testing.T, flags []string) []string {
		reg := filepath.Join(t.TempDir(), "quarantine.json")
		return append(append([]string{"quarantine", "add", "-registry", reg, "-today", "2026-12-01",
			"-claim", "50/60", "-owner", "@team", "-reason", "flaky"}, flags...), "pkg.TestX")
	}
	add.req = func(_ *testing.T, q url.Values) *http.Request {
		for k, v := range map[string]string{"today": "2026-12-01", "claim": "50/60", "owner": "@team", "reason": "flaky", "test": "pkg.TestX"} {
			q.Set(k, v)
		}
		return post("quarantine/add", q, "application/json", []byte(`{"version": 1, "tests": []}`))
	}
	return []fileCalc{aaCalc, cmpCalc, histCalc, check, add}
}

var fileLocation = regexp.MustCompile(`^[^ ]+:\d+:\d+: `)

// TestEverySurfaceReadsTheFileCalculators walks every field of the
// schemas of the calculators that read files (the A/A check, compare,
// history, the quarantine's check and add) through the CLI, the API, the
// schema a link reads them by and the Options of the A/A, compare and
// history pages, with each text of its kind: the CLI and the API give the
// same answer or the same refusal; what the schema refuses, both refuse in
// its words; and the page reads the schema's input or refuses as the API
// does, in its words.
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
	in, err := c.parse(given)
	if err != nil {
		if want := refused(param.First(err)); apiOut != want {
			t.Errorf("%s -%s %q:\nschema %+v\napi    %+v", c.name, f.Key, text, want, apiOut)
		}
	}
	if c.page == nil || slices.Contains(c.offPage, f.Key) {
		return
	}
	// The page reads the same input as the schema, or refuses what the
	// API refuses (its calculator's check of the options included), in
	// the same words.
	pin, perr := c.page(given)
	switch {
	case perr != nil:
		if got := refused(param.First(perr)); got != apiOut {
			t.Errorf("%s -%s %q:\npage %+v\napi  %+v", c.name, f.Key, text, got, apiOut)
		}
	case err != nil:
		t.Errorf("%s -%s %q: the page reads what the schema refuses (%v)", c.name, f.Key, text, err)
	case !reflect.DeepEqual(pin, in):
		t.Errorf("%s -%s %q:\npage   %+v\nschema %+v", c.name, f.Key, text, pin, in)
	}
}
