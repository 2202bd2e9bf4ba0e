package main

import (
	"bytes"
	"encoding/json"
	"errors"
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
	api "github.com/flakegate/flakegate/functions/api"
	"github.com/flakegate/flakegate/page"
	"github.com/flakegate/flakegate/share"
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
}

// TestEverySurfaceReadsTheSchema walks every field of the calculators'
// schemas through the CLI, the API, a link and the page's form, with each
// text of its kind, and holds them to the same answer or the same refusal.
// The answers agree with the one grammar's meaning too: a percentage
// gives the answer of its fraction.
func TestEverySurfaceReadsTheSchema(t *testing.T) {
	t.Setenv("FLAKEGATE_SITE", "")
	h := api.New(api.Options{})
	calcs := []struct {
		name   string
		fields []param.Field
		base   map[string]string // the required inputs, when another field is walked
		link   func(map[string]string) outcome
		page   func(map[string]string) outcome
	}{
		{"budget", param.Budget.Fields, map[string]string{"rates": "0.05"},
			func(s map[string]string) outcome {
				in, err := param.Budget.Parse(s)
				return computed(gate.Budget, in, err)
			},
			func(s map[string]string) outcome {
				in, err := page.BudgetInputFrom(s)
				return computed(gate.Budget, in, err)
			}},
		{"decide", param.Decide.Fields, map[string]string{"baseline": "10/20", "patched": "17/20"},
			func(s map[string]string) outcome {
				in, err := param.Decide.Parse(s)
				return computed(gate.Decide, in, err)
			},
			func(s map[string]string) outcome {
				in, err := page.DecideInputFrom(s)
				return computed(gate.Decide, in, err)
			}},
		{"size", param.Size.Fields, map[string]string{"baseline": "0.5", "patched": "0.85"},
			func(s map[string]string) outcome { in, err := param.Size.Parse(s); return computed(gate.Size, in, err) }, nil},
		{"freeze", param.Freeze.Fields, map[string]string{"claim": "57/60"},
			func(s map[string]string) outcome {
				in, err := param.Freeze.Parse(s)
				return computed(gate.Freeze, in, err)
			}, nil},
	}
	walked := 0
	for _, c := range calcs {
		defaults := map[string]map[string]string{"budget": param.Budget.Defaults(), "decide": param.Decide.Defaults(),
			"size": param.Size.Defaults(), "freeze": param.Freeze.Defaults()}[c.name]
		keys := make([]string, len(c.fields))
		for i, f := range c.fields {
			keys[i] = f.Key
		}
		for _, f := range c.fields {
			if f.Key == "setting" {
				continue // the CLI writes it as -runner NAME=N, walked in runner's tests
			}
			for _, text := range kindTexts[f.Kind] {
				given := map[string]string{}
				for k, v := range c.base {
					given[k] = v
				}
				given[f.Key] = text
				// A link and the page hold every input: the defaults and the given.
				full := map[string]string{}
				for k, v := range defaults {
					full[k] = v
				}
				for k, v := range given {
					full[k] = v
				}
				linked := share.ReadForm(share.FormFields(keys...), share.Form(share.FormFields(keys...), full))
				got := map[string]outcome{
					"cli":  viaCLI(t, c.name, c.fields, given),
					"api":  viaAPI(t, h, c.name, c.fields, given),
					"link": c.link(linked),
				}
				if c.page != nil {
					got["page"] = c.page(full)
				}
				for s, o := range got {
					if o != got["api"] {
						t.Errorf("%s -%s %q:\n%-4s %+v\napi  %+v", c.name, f.Key, text, s, o, got["api"])
					}
				}
				walked++
			}
		}
	}
	if walked < 100 {
		t.Errorf("only %d cases walked", walked)
	}
	// The one grammar's meaning: 90% is 0.9 and 1m30s is 90 seconds,
	// whichever surface reads them.
	for _, same := range [][2]string{{"-target=90%", "-target=0.9"}, {"-cost=1m30s", "-cost=90"}, {"-rates=5% 2%", "-rates=0.05,0.02"}} {
		a, b := viaCLIArgs(t, "budget", "-rates=0.05", same[0]), viaCLIArgs(t, "budget", "-rates=0.05", same[1])
		if a != b || a.json == "" {
			t.Errorf("%s and %s differ: %+v, %+v", same[0], same[1], a, b)
		}
	}
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

func viaCLI(t *testing.T, calc string, fields []param.Field, given map[string]string) outcome {
	t.Helper()
	var args []string
	for _, f := range fields {
		if text, ok := given[f.Key]; ok {
			args = append(args, "-"+f.Flag()+"="+text)
		}
	}
	return viaCLIArgs(t, calc, args...)
}

// flagRefusal strips what the CLI adds to a refusal: the command, the
// flag package's "invalid value" and the flag's name.
var flagRefusal = regexp.MustCompile(`^flakegate \w+: (?s:invalid value ".*?" for flag )?(-[a-z-]+: )?`)

func viaCLIArgs(t *testing.T, calc string, args ...string) outcome {
	t.Helper()
	code, out, errs := cli(t, "", append(append([]string{calc}, args...), "-json")...)
	if code == exitOK || code == exitBlock {
		return outcome{json: unlinked(out)}
	}
	msg, _, _ := strings.Cut(strings.TrimSuffix(errs, "\n"), "\nrun 'flakegate ")
	return outcome{refusal: flagRefusal.ReplaceAllString(msg, "")}
}

func viaAPI(t *testing.T, h http.Handler, calc string, fields []param.Field, given map[string]string) outcome {
	t.Helper()
	q := url.Values{}
	for _, f := range fields {
		if text, ok := given[f.Key]; ok {
			q.Set(f.Name(), text)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/v1/"+calc+"?"+q.Encode(), nil))
	if w.Code == http.StatusOK {
		return outcome{json: unlinked(w.Body.String())}
	}
	var p struct {
		Detail string `json:"detail"`
		Field  string `json:"field"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatalf("%s %v: %d %s", calc, q, w.Code, w.Body)
	}
	return outcome{refusal: strings.TrimPrefix(p.Detail, p.Field+": ")}
}

// FuzzSurfacesAgree holds the CLI, the API, a link and the page to the one
// grammar on any text in any field of the budget and decide calculators:
// the same answer or the same refusal.
func FuzzSurfacesAgree(f *testing.F) {
	for _, s := range []string{"0.9", "90%", "1m30s", "5% 2%", "17/20", "x", "", "1e400", " 3 ", "0x10"} {
		f.Add(uint8(0), s)
		f.Add(uint8(3), s)
		f.Add(uint8(9), s)
	}
	h := api.New(api.Options{})
	f.Fuzz(func(t *testing.T, pick uint8, text string) {
		budget := len(param.Budget.Fields)
		var fields []param.Field
		var defaults, base map[string]string
		var link, onPage func(map[string]string) outcome
		calc := "budget"
		if i := int(pick) % (budget + len(param.Decide.Fields)); i < budget {
			fields, defaults, base = param.Budget.Fields, param.Budget.Defaults(), map[string]string{"rates": "0.05"}
			link = func(s map[string]string) outcome {
				in, err := param.Budget.Parse(s)
				return computed(gate.Budget, in, err)
			}
			onPage = func(s map[string]string) outcome {
				in, err := page.BudgetInputFrom(s)
				return computed(gate.Budget, in, err)
			}
		} else {
			calc, fields, defaults, base = "decide", param.Decide.Fields, param.Decide.Defaults(), map[string]string{"baseline": "10/20", "patched": "17/20"}
			link = func(s map[string]string) outcome {
				in, err := param.Decide.Parse(s)
				return computed(gate.Decide, in, err)
			}
			onPage = func(s map[string]string) outcome {
				in, err := page.DecideInputFrom(s)
				return computed(gate.Decide, in, err)
			}
		}
		f := fields[int(pick)%(budget+len(param.Decide.Fields))%len(fields)]
		if f.Key == "setting" || f.Key == "runner" || f.Kind == param.Enum || !utf8.ValidString(text) || strings.ContainsRune(text, 0) {
			return // runner and setting: the CLI's -runner NAME=N; words: the calculator's check
		}
		given := map[string]string{f.Key: text}
		full := map[string]string{}
		for k, v := range defaults {
			full[k] = v
		}
		for k, v := range base {
			given[k], full[k] = v, v
		}
		given[f.Key], full[f.Key] = text, text
		keys := make([]string, len(fields))
		for i, f := range fields {
			keys[i] = f.Key
		}
		linked := share.ReadForm(share.FormFields(keys...), share.Form(share.FormFields(keys...), full))
		want := viaAPI(t, h, calc, fields, given)
		for s, o := range map[string]outcome{"cli": viaCLI(t, calc, fields, given), "link": link(linked), "page": onPage(full)} {
			if o != want {
				t.Fatalf("%s %s=%q:\n%-4s %+v\napi  %+v", calc, f.Key, text, s, o, want)
			}
		}
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
