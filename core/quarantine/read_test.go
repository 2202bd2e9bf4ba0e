package quarantine

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/testfile"
)

// today is the date the tests read the registries on.
const today = "2026-12-02"

// lineCol is the 1-based line and column (in characters) of byte offset
// off, counted here from the text itself.
func lineCol(text string, off int) (int, int) {
	before := text[:off]
	return strings.Count(before, "\n") + 1, utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
}

// TestReadErrors edits the valid testdata/registry.json one fault at a time
// and expects an Invalid error that names the JSON path and points at the
// line and column where the text marked by `at` starts (the first match
// after the edit's replacement, found in the edited text).
func TestReadErrors(t *testing.T) {
	valid := string(testfile.Read(t, "testdata/registry.json"))
	if _, err := Parse([]byte(valid), today); err != nil {
		t.Fatalf("the valid registry: %v", err)
	}
	cases := []struct {
		name     string
		old, new string // the edit: the first old becomes new
		at       string // the fault starts at the first at within new, or at the start of the file when empty
		want     string // in the message
	}{
		{"unknown field", `"lower": 0.6395811352592431,`, `"lower": 0.6395811352592431, "lowr": 0.6,`, `"lowr"`,
			`tests[0].claim.lowr: unknown field "lowr" in a claim; its fields are passed, trials, rate, lower, upper, confidence, date`},
		{"unknown top-level field", `"version": 1,`, `"version": 1, "verison": 1,`, `"verison"`, `verison: unknown field "verison" in the registry`},
		{"repeated field", `"owner": "alice@example.com",`, `"owner": "alice@example.com", "owner": "bob",`, `"owner": "bob"`, `tests[0]: field "owner" appears twice`},
		{"interval off", `"lower": 0.6395811352592431`, `"lower": 0.6`, `0.6`,
			"tests[0].claim.lower: 0.6 does not match 17/20 at 0.95 confidence: the Wilson lower bound is 0.63958"},
		{"counts off", `"passed": 17`, `"passed": 18`, `0.85`, "tests[0].claim.rate: 0.85 does not match 18/20"},
		{"rounded interval passes", `"upper": 0.9476312541037835`, `"upper": 0.9476`, "", ""},
		{"claim in the future", `"date": "2026-11-20"`, `"date": "2027-01-04"`, `"2027-01-04"`, "tests[0].claim.date: 2027-01-04 is in the future (today is 2026-12-02)"},
		{"opened in the future", `"opened": "2026-11-20"`, `"opened": "2026-12-03"`, `"2026-12-03"`, "tests[0].opened: 2026-12-03 is in the future"},
		{"checked in the future", `"checked": "2026-11-25"`, `"checked": "2026-12-25"`, `"2026-12-25"`, "tests[1].since.checked: 2026-12-25 is in the future"},
		{"not a date", `"opened": "2026-11-20"`, `"opened": "20/11/2026"`, `"20/11/2026"`, `tests[0].opened: must be a date YYYY-MM-DD, got "20/11/2026"`},
		{"expires before opened", `"expires": "2026-12-15"`, `"expires": "2026-11-19"`, `"2026-11-19"`, "tests[0].expires: 2026-11-19 is before the day the test was quarantined, 2026-11-20"},
		{"duplicate test", `"test": "example.com/shop/cart.TestCheckout"`, `"test": "example.com/shop/auth.TestLogin"`, `"example.com/shop/auth.TestLogin",
      "owner": "@payments"`, `tests[1].test: "example.com/shop/auth.TestLogin" is already quarantined by tests[0]`},
		{"newer version", `"version": 1`, `"version": 2`, `2`, "version: the registry is version 2, newer than this flakegate reads (1): upgrade flakegate"},
		{"no version", `"version": 1,`, ``, ``, `the registry has no field "version"`},
		{"count as a string", `"trials": 60`, `"trials": "60"`, `"60"`, "tests[1].claim.trials: want a whole number, got a string"},
		{"count with a fraction", `"trials": 60`, `"trials": 60.0`, `60.0`, "tests[1].claim.trials: must be a whole number >= 0 written without a fraction or exponent, got 60.0"},
		{"negative count", `"clean": 4`, `"clean": -4`, `-4`, "tests[1].since.clean: must be a whole number >= 0"},
		{"huge count", `"trials": 60`, `"trials": 99999999999999999999`, `99999999999999999999`, "tests[1].claim.trials: 99999999999999999999 is too large"},
		{"trailing comma", `"clean": 4,
        "checked": "2026-11-25"`, `"clean": 4,
        "checked": "2026-11-25",`, `}`, "tests[1].since.checked: malformed JSON: want a key in quotes, found '}'"},
		{"missing comma", `"owner": "@payments",`, `"owner": "@payments"`, `"reason": "times out`, `tests[1].owner: malformed JSON: want ',' or '}' after the value, found '"'`},
		{"cut short", "", "", "", ""}, // filled in below
		{"empty owner", `"owner": "@payments"`, `"owner": " "`, `" "`, "tests[1].owner: must not be empty: give who answers for the test"},
		{"line break in reason", `"reason": "races the session cache"`, `"reason": "races the\nsession cache"`, `"races`, "tests[0].reason: \"races the\\nsession cache\" contains a control character"},
		{"blank at the end of an id", `"test": "example.com/shop/auth.TestLogin"`, `"test": "example.com/shop/auth.TestLogin "`, `"example.com/shop/auth.TestLogin "`, "has blanks at its start or end"},
		{"raw tab in a string", `"reason": "races the session cache"`, "\"reason\": \"races the\tsession cache\"", "\t", "tests[0].reason: malformed JSON: a control character (byte 0x09) inside a string; it must be escaped"},
		{"passes over trials since", `"passed": 9`, `"passed": 11`, `11`, "tests[1].since.passed: 11 passes is more than the 10 trials since the claim"},
		// Every count is bounded by the others: a hand-edited clean count
		// with no evidence since the claim would buy a release.
		{"clean runs without evidence", `"runs": 0,
        "clean": 0`, `"runs": 0,
        "clean": 299`, `299`, "tests[0].since.clean: 299 clean runs in a row is more than the evidence holds: 0 runs since the claim and the claim's 17 passing trials"},
		{"runs over trials", `"runs": 5,`, `"runs": 11,`, `11`, "tests[1].since.runs: 11 runs is more than the 10 trials since the claim: every run holds at least one trial"},
		{"checked before the claim", `"checked": "2026-11-25"`, `"checked": "2026-11-19"`, `"2026-11-19"`, "tests[1].since.checked: 2026-11-19 is before the claim's date, 2026-11-20"},
		{"a run counted twice", `"tests": [`, `"counted": [{"run": "0123456789abcdef", "date": "2026-11-23"}, {"run": "0123456789abcdef", "date": "2026-11-24"}],
  "tests": [`, `"0123456789abcdef", "date": "2026-11-24"`, "counted[1].run: 0123456789abcdef is already counted[0]: a run is counted once"},
		{"a run counted in the future", `"tests": [`, `"counted": [{"run": "0123456789abcdef", "date": "2026-12-24"}],
  "tests": [`, `"2026-12-24"`, "counted[0].date: 2026-12-24 is in the future"},
		{"a run identity with a slash", `"tests": [`, `"counted": [{"run": "a/b", "date": "2026-11-24"}],
  "tests": [`, `"a/b"`, `counted[0].run: "a/b": a run's identity has letters and digits only`},
		{"release rate zero", `"below": 0.01,`, `"below": 0,`, `0`, "tests[1].release.below: the failure rate to prove the test below must be in (0,1), got 0"},
		{"failed over runs", `"failed": 1`, `"failed": 11`, `11`, "tests[1].release.failed: 11 failed runs is more than the 10 runs counted"},
		{"release unprovable", `"below": 0.01`, `"below": 1e-17`, `1e-17`, "tests[1].release.below: 1e-17 at 0.95 confidence needs more than 2^53 clean runs"},
		{"claim confidence one", `"confidence": 0.95,
        "date": "2026-11-20"`, `"confidence": 1,
        "date": "2026-11-20"`, `1,`, "tests[0].claim.confidence: must be in (0,1), got 1"},
		{"no trials", `"passed": 17,
        "trials": 20`, `"passed": 0,
        "trials": 0`, `0,
        "rate"`, "tests[0].claim.trials: a claim needs at least one trial, got 0"},
		{"tests not a list", valid, `{"version": 1, "tests": {}}`, `{}`, "tests: want a list of tests (a JSON array), got an object"},
		{"not json", `{`, `x{`, `x`, "malformed JSON: a value cannot start with 'x'"},
		{"after the end", valid, valid + "{}", `{}`, "malformed JSON: '{' after the end of the value"},
		{"bad number", `"clean": 4`, `"clean": 04`, `04`, `tests[1].since.clean: malformed JSON: "04" is not a number`},
		{"bad escape", `"owner": "@payments"`, `"owner": "@pay\qments"`, `\q`, `unknown escape \q in a string`},
		{"invalid UTF-8", `"owner": "@payments"`, "\"owner\": \"@pay\xffments\"", "\xff", "tests[1].owner: a string that is not valid UTF-8 (byte 0xff)"},
		{"null owner", `"owner": "@payments"`, `"owner": null`, `null`, "tests[1].owner: want a string, got null"},
		{"missing claim", `"claim": {
        "passed": 17,`, `"claim0": {
        "passed": 17,`, `"claim0"`, `tests[0].claim0: unknown field "claim0" in a test`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(valid, c.old, c.new, 1)
			off := 0
			if c.name == "cut short" {
				text = valid[:strings.Index(valid, `"@payments"`)+len(`"@payments"`)]
				off = len(text)
				c.want = `tests[1].owner: malformed JSON: the registry ends where ',' or '}' after the value should be (is it cut short?)`
			} else if c.at != "" {
				i := strings.Index(text, c.new)
				j := -1
				if i >= 0 {
					j = strings.Index(text[i:], c.at)
				}
				if j < 0 {
					t.Fatalf("the case's marker %q is not in its edit", c.at)
				}
				off = i + j
			}
			reg, err := Parse([]byte(text), today)
			if c.want == "" {
				if err != nil {
					t.Fatalf("want no error, got %v", err)
				}
				if len(reg.Tests) != 2 {
					t.Fatalf("read %d tests", len(reg.Tests))
				}
				return
			}
			var e *core.Error
			if !errors.As(err, &e) || e.Kind != core.Invalid {
				t.Fatalf("want an invalid *core.Error, got %v", err)
			}
			if !strings.Contains(e.Msg, c.want) {
				t.Errorf("message %q\nwant it to contain %q", e.Msg, c.want)
			}
			line, col := lineCol(text, off)
			if e.Line != line || e.Column != col {
				t.Errorf("at %d:%d, want %d:%d (%s)", e.Line, e.Column, line, col, e.Msg)
			}
		})
	}
}

// TestReadLimits: past MaxBytes or MaxTests the error is TooLarge, and the
// reader stops reading at the limit.
func TestReadLimits(t *testing.T) {
	big := bytes.Repeat([]byte(" "), MaxBytes+1)
	if _, err := Read(bytes.NewReader(big), today); core.ErrorKind(err) != core.TooLarge {
		t.Errorf("a file over %d bytes: %v", MaxBytes, err)
	}
	var b strings.Builder
	b.WriteString(`{"version": 1, "tests": [`)
	for i := range MaxTests + 1 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("{}")
	}
	b.WriteString("]}")
	if _, err := Parse([]byte(b.String()), today); core.ErrorKind(err) != core.TooLarge || !strings.Contains(err.Error(), "at most 10000 tests") {
		t.Errorf("%d tests: %v", MaxTests+1, err)
	}
	if _, err := Parse([]byte(strings.Repeat("[", 40)), today); err == nil || !strings.Contains(err.Error(), "nest deeper") {
		t.Errorf("deep nesting: %v", err)
	}
	if _, err := Read(strings.NewReader("{}"), "today"); err == nil || !strings.Contains(err.Error(), `today: must be a date`) {
		t.Errorf("a bad today: %v", err)
	}
	if _, err := Parse([]byte("  \n"), today); err == nil || !strings.Contains(err.Error(), "the registry is empty") {
		t.Errorf("an empty file: %v", err)
	}
}

// TestWriteCanonical: the written registry is the file itself (it was
// written by Write), entries in any order and fields in any order read
// back to the same bytes, and a byte order mark or CRLF line ends change
// nothing.
func TestWriteCanonical(t *testing.T) {
	valid := testfile.Read(t, "testdata/registry.json")
	write := func(text []byte) []byte {
		t.Helper()
		reg, err := Parse(text, today)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Write(&b, reg); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	if got := write(valid); !bytes.Equal(got, valid) {
		t.Errorf("read and written:\n%s\nwant the file:\n%s", got, valid)
	}
	// The two entries swapped, and the claim's fields reversed.
	s := string(valid)
	open := strings.Index(s, "[") + 1
	mid := strings.Index(s, "},\n    {") + 1
	end := strings.LastIndex(s, "]")
	first, second := strings.TrimSpace(s[open:mid]), strings.TrimSpace(s[mid+1:end])
	swapped := s[:open] + second + ",\n" + first + s[end:]
	swapped = strings.Replace(swapped, `"passed": 57,
        "trials": 60,`, `"trials": 60, "passed": 57,`, 1)
	if got := write([]byte(swapped)); !bytes.Equal(got, valid) {
		t.Errorf("reordered, read and written:\n%s", got)
	}
	crlf := append([]byte("\xef\xbb\xbf"), bytes.ReplaceAll(valid, []byte("\n"), []byte("\r\n"))...)
	if got := write(crlf); !bytes.Equal(got, valid) {
		t.Errorf("with a BOM and CRLF, read and written:\n%s", got)
	}
}

// The position of an error counts characters, not bytes.
func TestReadColumnsAreCharacters(t *testing.T) {
	text := `{"version": 1, "tests": [{"test": "ü", "öwner": "x"}]}`
	_, err := Parse([]byte(text), today)
	var e *core.Error
	if !errors.As(err, &e) {
		t.Fatal(err)
	}
	want := utf8.RuneCountInString(text[:strings.Index(text, `"öwner"`)]) + 1
	if e.Line != 1 || e.Column != want {
		t.Errorf("at %d:%d, want 1:%d: %v", e.Line, e.Column, want, err)
	}
	if got := fmt.Sprint(e); !strings.Contains(got, `unknown field "öwner"`) {
		t.Errorf("message %q", got)
	}
}

// A registry written before runs were counted (a release rule without runs
// and failed, as a fresh entry is written too) reads, and its release
// count starts at the first check that counts runs: the clean runs in a
// row it shows were counted by a rule that restarted after each failure,
// and taking them up would choose the start after seeing the runs.
func TestReadBeforeRunsCounted(t *testing.T) {
	valid := string(testfile.Read(t, "testdata/registry.json"))
	old := strings.Replace(valid, `,
        "runs": 10,
        "failed": 1`, "", 1)
	if old == valid {
		t.Fatal("the edit did not apply")
	}
	reg, err := Parse([]byte(old), today)
	if err != nil {
		t.Fatal(err)
	}
	if r := reg.Tests[1].Release; r.Runs != 0 || r.Failed != 0 || reg.Tests[1].Since.Clean != 4 {
		t.Errorf("read as %+v, since %+v", r, reg.Tests[1].Since)
	}
}
