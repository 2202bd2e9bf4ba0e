package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/param"
	"github.com/flakegate/flakegate/core/quarantine"
	api "github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/internal/share"
	"github.com/flakegate/flakegate/wasm/page"
)

// outcome is what a surface made of a calculator's inputs: the answer's
// JSON without its link, or the refusal's words without the name the
// surface gives the field (a flag, a query key, a label).
type outcome struct{ json, refusal string }

// texts of each kind: accepted in every spelling the grammar allows, and
// refused in each way it refuses, blank included.
var kindTexts = map[param.Kind][]string{
	param.Fraction:  {"0.9", "90%", " 9e-1 ", "90 %", "1.5", "abc", "+0.9", ".9", "0x1p-1", "1e400", "9%%", ""},
	param.Fractions: {"0.05,0.02", "5% 2%", "0.05; 0.02", "0.05\n0.02", "0.05,,0.02", "0.05 x", "2", ""},
	param.Integer:   {"5", "0", "-1", "3.5", "0x10", "007", "99999999999999999999", ""},
	param.Seconds:   {"8", "8s", "1m30s", "0.5", "8x", "-8", "+8", "s", ""},
	param.Count:     {"17/20", " 1 / 120 ", "0/0", "5/3", "x", "01/2", "1/2/3", ""},
	param.Enum:      {"passed", "failed", "gotestsum", "bogus", ""},
	param.Text:      {"2026-01-02", "02/01/2026", ""},
	param.Date:      {"2026-01-02", " 2026-01-02 ", "02/01/2026", "2026-02-30", ""},
	param.Integers:  {"1,2,4", "1 2; 4", "0", "1,x", "1.5", ""},
	param.Bool:      {"true", "false", "yes", ""},
}

// paramCalc is a calculator computed from its inputs alone: the CLI's
// command (cmd), the API's route (path, read from a query and from a JSON
// body), and what a link and the page's form make of the inputs (link,
// page: nil when the page reads its form with the schema as a link does).
type paramCalc struct {
	cmd    []string
	path   string
	schema interface{ Defaults() map[string]string }
	fields []param.Field
	base   map[string]string // the required inputs, when another field is walked
	link   func(map[string]string) outcome
	page   func(map[string]string) outcome
}

// calcOf is the paramCalc of schema s, computed by calc: its CLI command
// cmd and API route path, base its required inputs; page, when not nil,
// reads the page's form.
func calcOf[T, R any](cmd []string, path string, s *param.Schema[T], base map[string]string, calc func(T) (R, error),
	page func(map[string]string) (T, error)) paramCalc {
	c := paramCalc{cmd: cmd, path: path, schema: s, fields: s.Fields, base: base,
		link: func(m map[string]string) outcome { in, err := s.Parse(m); return computed(calc, in, err) }}
	if page != nil {
		c.page = func(m map[string]string) outcome { in, err := page(m); return computed(calc, in, err) }
	}
	return c
}

// paramCalcs are every calculator whose inputs are all its schema's.
func paramCalcs() []paramCalc {
	return []paramCalc{
		calcOf([]string{"budget"}, "budget", param.Budget, map[string]string{"rates": "0.05"}, gate.Budget, page.BudgetInputFrom),
		calcOf([]string{"decide"}, "decide", param.Decide, map[string]string{"baseline": "10/20", "patched": "17/20"}, gate.Decide, page.DecideInputFrom),
		calcOf([]string{"size"}, "size", param.Size, map[string]string{"baseline": "0.5", "patched": "0.85"}, gate.Size, nil),
		calcOf([]string{"freeze"}, "freeze", param.Freeze, map[string]string{"claim": "57/60"}, gate.Freeze, nil),
		calcOf([]string{"quarantine", "runs"}, "quarantine/release", param.QuarantineRelease, nil,
			func(r quarantine.Release) (*quarantine.CleanRunsResult, error) {
				return quarantine.CleanRunsFor(r.Below, r.Confidence)
			}, nil),
	}
}

// TestEverySurfaceReadsTheSchema walks every field of the calculators'
// schemas through the CLI, the API (its query, and its JSON body with the
// text as a string and, when it is one, as a JSON number), a link and the
// page's form, with each text of its kind, and holds them to the same
// answer or the same refusal. The answers agree with the one grammar's
// meaning too: a percentage gives the answer of its fraction.
func TestEverySurfaceReadsTheSchema(t *testing.T) {
	t.Setenv("FLAKEGATE_SITE", "")
	h := api.New(api.Options{})
	walked := 0
	for _, c := range paramCalcs() {
		for _, f := range c.fields {
			if f.Key == "setting" {
				continue // the CLI writes it as -runner NAME=N, walked below
			}
			for _, text := range kindTexts[f.Kind] {
				c.agree(t, h, f, text)
				walked++
			}
		}
	}
	if walked < 150 {
		t.Errorf("only %d cases walked", walked)
	}
	// The one grammar's meaning: 90% is 0.9 and 1m30s is 90 seconds,
	// whichever surface reads them.
	for _, same := range [][2]string{{"-target=90%", "-target=0.9"}, {"-cost=1m30s", "-cost=90"}, {"-rates=5% 2%", "-rates=0.05,0.02"}} {
		a, b := viaCLIArgs(t, []string{"budget"}, "-rates=0.05", same[0]), viaCLIArgs(t, []string{"budget"}, "-rates=0.05", same[1])
		if a != b || a.json == "" {
			t.Errorf("%s and %s differ: %+v, %+v", same[0], same[1], a, b)
		}
	}
	// A runner's setting after '=' is the setting field, on every surface.
	budget := paramCalcs()[0]
	runner, _ := param.Budget.Field("runner")
	for _, text := range []string{"gotestsum=2", "jest=two", "bazel-flaky-attempts=0", "tox=2", "gotestsum"} {
		budget.agree(t, h, runner, text)
	}
}

// agree gives text to field f, with c's required inputs, on every surface
// and holds them to one outcome.
func (c paramCalc) agree(t *testing.T, h http.Handler, f param.Field, text string) {
	t.Helper()
	given := merged(c.base, map[string]string{f.Key: text})
	// A link and the page hold every input: the defaults and the given.
	full := merged(c.schema.Defaults(), given)
	keys := make([]string, len(c.fields))
	for i, f := range c.fields {
		keys[i] = f.Key
	}
	linked := share.ReadForm(share.FormFields(keys...), share.Form(share.FormFields(keys...), full))
	got := map[string]outcome{
		"cli":  viaCLI(t, c.cmd, c.fields, given),
		"api":  viaAPI(t, h, c.path, c.fields, given),
		"json": viaJSON(t, h, c.path, c.fields, given, ""),
		"link": c.link(linked),
	}
	if isJSONNumber(text) && numeric[f.Kind] {
		got["json number"] = viaJSON(t, h, c.path, c.fields, given, f.Key)
	}
	if c.page != nil {
		got["page"] = c.page(full)
	}
	for s, o := range got {
		if o != got["api"] {
			t.Errorf("%s -%s %q:\n%-4s %+v\napi  %+v", c.path, f.Key, text, s, o, got["api"])
		}
	}
}

// merged is a copy of a with b's texts over it.
func merged(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a)+len(b))
	maps.Copy(out, a)
	maps.Copy(out, b)
	return out
}

// numeric are the kinds a JSON body may give as a JSON number (a list, as
// a list of one); a count or a word is refused as one, in the JSON's terms.
var numeric = map[param.Kind]bool{param.Fraction: true, param.Seconds: true, param.Integer: true, param.Fractions: true, param.Integers: true}

// isJSONNumber reports whether text is a JSON number, which a JSON body
// may send as one.
func isJSONNumber(text string) bool {
	var n json.Number
	return json.Unmarshal([]byte(text), &n) == nil && text != "" && text[0] != '"'
}

// computed is the outcome of calc on an input a surface read (or its
// refusal, err).
func computed[In, Out any](calc func(In) (Out, error), in In, err error) outcome {
	if err != nil {
		return refused(err)
	}
	res, err := calc(in)
	if err != nil {
		return refused(err)
	}
	var b bytes.Buffer
	core.WriteJSON(&b, res)
	return outcome{json: unlinked(b.String())}
}

func refused(err error) outcome {
	var e *core.Error
	if errors.As(err, &e) {
		return outcome{refusal: e.Msg}
	}
	return outcome{refusal: err.Error()}
}

var linkMembers = regexp.MustCompile(`,\n *"link(_note)?": "[^"\\]*"`)

func unlinked(js string) string { return linkMembers.ReplaceAllString(js, "") }

func viaCLI(t *testing.T, cmd []string, fields []param.Field, given map[string]string) outcome {
	t.Helper()
	return viaCLIArgs(t, cmd, cliFlags(fields, given)...)
}

// cliFlags are the flags that give the inputs given.
func cliFlags(fields []param.Field, given map[string]string) []string {
	var args []string
	for _, f := range fields {
		if text, ok := given[f.Key]; ok {
			args = append(args, "-"+f.Flag()+"="+text)
		}
	}
	return args
}

// flagRefusal strips what the CLI adds to a refusal: the command, the
// flag package's "invalid value" and the flag's name.
var flagRefusal = regexp.MustCompile(`^flakegate [\w ]+: (?s:invalid value ".*?" for flag |invalid boolean value ".*?" for )?(-[a-z-]+: )?`)

func viaCLIArgs(t *testing.T, cmd []string, args ...string) outcome {
	t.Helper()
	code, out, errs := cli(t, "", append(append(append([]string{}, cmd...), args...), "-json")...)
	if code == exitOK || code == exitBlock {
		return outcome{json: unlinked(out)}
	}
	msg, _, _ := strings.Cut(strings.TrimSuffix(errs, "\n"), "\nrun 'flakegate ")
	return outcome{refusal: flagRefusal.ReplaceAllString(msg, "")}
}

func viaAPI(t *testing.T, h http.Handler, path string, fields []param.Field, given map[string]string) outcome {
	t.Helper()
	q := url.Values{}
	for _, f := range fields {
		if text, ok := given[f.Key]; ok {
			q.Set(f.Name(), text)
		}
	}
	return apiOutcome(t, h, httptest.NewRequest("GET", "/v1/"+path+"?"+q.Encode(), nil))
}

// viaJSON posts the inputs given as a JSON object: each text a JSON
// string, but field number's a JSON number.
func viaJSON(t *testing.T, h http.Handler, path string, fields []param.Field, given map[string]string, number string) outcome {
	t.Helper()
	body := map[string]any{}
	for _, f := range fields {
		if text, ok := given[f.Key]; ok {
			body[f.Name()] = text
			if f.Key == number {
				body[f.Name()] = json.RawMessage(text)
			}
		}
	}
	js, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("POST", "/v1/"+path, bytes.NewReader(js))
	r.Header.Set("Content-Type", "application/json")
	return apiOutcome(t, h, r)
}

// apiOutcome is the API's answer to r: its JSON, or its refusal's words
// without the name of the field.
func apiOutcome(t *testing.T, h http.Handler, r *http.Request) outcome {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code == http.StatusOK {
		return outcome{json: unlinked(w.Body.String())}
	}
	var p struct {
		Detail string `json:"detail"`
		Field  string `json:"field"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("%s: %d %s", r.URL, w.Code, w.Body)
	}
	return outcome{refusal: strings.TrimPrefix(p.Detail, p.Field+": ")}
}

// FuzzSurfacesAgree holds the CLI, the API (query and JSON body), a link
// and the page to the one grammar on any text in any field of every
// calculator: the same answer or the same refusal (for the calculators
// that read files, the CLI and the API, and the schema's refusal).
func FuzzSurfacesAgree(f *testing.F) {
	for _, s := range []string{"0.9", "90%", "1m30s", "5% 2%", "17/20", "x", "", "1e400", " 3 ", "0x10", "gotestsum=2", "2026-01-02"} {
		for _, pick := range []uint8{0, 3, 9, 14, 20, 27, 31, 36, 42, 47, 55} {
			f.Add(pick, s)
		}
	}
	h := api.New(api.Options{})
	calcs := paramCalcs()
	var picks []struct {
		c paramCalc
		f param.Field
	}
	for _, c := range calcs {
		for _, fd := range c.fields {
			picks = append(picks, struct {
				c paramCalc
				f param.Field
			}{c, fd})
		}
	}
	var filePicks []struct {
		c fileCalc
		f param.Field
	}
	for _, c := range fileCalcs(f) {
		for _, fd := range c.fields {
			if fd.Kind != param.Text && fd.Key != "simulate" { // a text is the calculator's to read; a simulation takes seconds
				filePicks = append(filePicks, struct {
					c fileCalc
					f param.Field
				}{c, fd})
			}
		}
	}
	f.Fuzz(func(t *testing.T, pick uint8, text string) {
		if !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
			return
		}
		i := int(pick) % (len(picks) + len(filePicks))
		if i >= len(picks) {
			p := filePicks[i-len(picks)]
			p.c.agree(t, h, p.f, text)
			return
		}
		p := picks[i]
		if p.f.Key == "setting" || p.f.Kind == param.Enum {
			// setting: the CLI's -runner NAME=N, which runner's text
			// reaches; a word the calculator checks, in its words, which
			// the API clips to bound its answer (the table test walks
			// them).
			return
		}
		p.c.agree(t, h, p.f, text)
	})
}

// TestSizeFloorInWords: an input added through the schema reaches the CLI
// with its flag, and the answer says when the floor set the plan. 7 trials
// separate 10% from 90% at 95%, by hand: the Wilson interval of 0.7/7
// reaches up to 0.4697, under the 0.5303 where its mirror image, 6.3/7's,
// starts; at 6 trials it reaches 0.5001, past the middle.
func TestSizeFloorInWords(t *testing.T) {
	code, out, errs := cli(t, "", "size", "-min-trials", "20", "0.1", "0.9")
	want := "10.0% against 90.0%: plan 20 trials per arm, the fewest a decision judges; fewer already separate the 95% Wilson intervals\n" +
		"warning: 7 trials per arm separate the intervals; the plan asks for the 20 a decision needs (min_trials)\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d, stdout\n%s\nstderr %s\nwant\n%s", code, out, errs, want)
	}
}
