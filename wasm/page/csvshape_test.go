package page

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
)

// Each shape of the same runs reads to the statistics aa.ReadCSV reads
// from the comma-separated CSV with a header (the expected values: the
// core's reader on the text as `flakegate aa` reads it).
func TestCSVShapes(t *testing.T) {
	csv := "scenario,run,passed\nlogin,r1,1\nsearch,r1,0\nlogin,r2,1\nsearch,r2,1\nlogin,r3,0\nsearch,r3,1\n"
	want, err := aa.ReadCSV(strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	body := strings.SplitN(csv, "\n", 2)[1]
	for name, text := range map[string]string{
		"comma":                csv,
		"tab":                  strings.ReplaceAll(csv, ",", "\t"),
		"semicolon":            strings.ReplaceAll(csv, ",", ";"),
		"semicolon, CRLF":      strings.ReplaceAll(strings.ReplaceAll(csv, ",", ";"), "\n", "\r\n"),
		"no header":            body,
		"tab, no header":       strings.ReplaceAll(body, ",", "\t"),
		"semicolon, no header": strings.ReplaceAll(body, ",", ";"),
		"bom, no header":       "\ufeff" + body,
		"blank first lines":    "\n\n" + strings.ReplaceAll(body, ",", ";"),
		"header in capitals":   strings.Replace(strings.ReplaceAll(csv, ",", "\t"), "scenario", "Scenario", 1),
	} {
		got, _, err := readSide(strings.NewReader(text), "pasted text")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !sameSide(got, want) {
			t.Errorf("%s: read %+v, want %+v", name, got, want)
		}
	}
}

// A field holding a comma in a semicolon- or tab-separated file stays one
// field; a quoted one keeps its quotes' meaning.
func TestCSVShapeCommaInField(t *testing.T) {
	text := "scenario;run;passed\n\"a;b\";r1;1\nx,y;r1;0\na \"q\";r2;1\n\"a;b\";r2;0\nx,y;r2;1\na \"q\";r1;0\n"
	got, _, err := readSide(strings.NewReader(text), "pasted text")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range got.Scenarios {
		ids = append(ids, s.ID)
	}
	if strings.Join(ids, "|") != `a;b|x,y|a "q"` {
		t.Errorf("scenarios %q", ids)
	}
}

// Errors in a text without a header keep the user's line numbers.
func TestCSVShapeErrorLines(t *testing.T) {
	_, _, err := readSide(strings.NewReader("login;r1;1\nsearch;r1;2\n"), "pasted text")
	var e *core.Error
	if !errors.As(err, &e) || e.Line != 2 {
		t.Fatalf("want an error at line 2, got %v", err)
	}
}

func sameSide(a, b *aa.Side) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// Whatever the shape reader makes of a text, it never panics, and a text
// that is already a comma-separated CSV with a header passes through
// byte for byte.
func FuzzShapeReader(f *testing.F) {
	for _, s := range []string{"scenario,run,passed\na,r,1\n", "a;r;1\nb;r;0", "a\tr\t1\r\n", "\"x;y\";r;1\n\"open", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		sh := sniffCSV(in)
		out, err := io.ReadAll(newShapeReader(bytes.NewReader(in), sh))
		if err != nil {
			t.Fatal(err)
		}
		if sh.delim == ',' && !sh.noHeader && !bytes.Equal(out, in) {
			t.Fatalf("a plain CSV changed: %q → %q", in, out)
		}
		if sh.noHeader && !bytes.HasPrefix(out, []byte("scenario,run,passed\n")) {
			t.Fatalf("no header added: %q", out)
		}
		readSide(bytes.NewReader(in), "fuzz")
	})
}
