package core

import (
	"errors"
	"strings"
	"testing"
)

// TestCSVTable reads a small table written by hand: the lines, fields and
// columns expected are counted off the text below.
func TestCSVTable(t *testing.T) {
	const text = "\ufeff Test ,Runs\n" + // a byte order mark and blanks around a name
		"a, 3\n" +
		"   \n" + // one blank field
		"\"b\nc\",4,extra\n" + // a quoted field across two lines
		"d\n" // a row short of a field
	tab := NewCSVTable(strings.NewReader(text), true)
	if err := tab.ReadHeader(); err != nil {
		t.Fatal(err)
	}
	if i, ok := tab.Cols["test"]; !ok || i != 0 {
		t.Errorf("column test: %d, %v; want 0", i, ok)
	}
	type row struct {
		line         int
		blank        bool
		test, runs   string
		runsCol      int
		headerIntact string
	}
	want := []row{
		{2, false, "a", "3", 3, " Test "},
		{3, true, "", "", 0, " Test "},
		{4, false, "b\nc", "4", 4, " Test "}, // c",4 on line 5: the 4 is its fourth character
		{6, false, "d", "", 0, " Test "},
	}
	var got []row
	for line, err := range tab.Rows() {
		if err != nil {
			t.Fatal(err)
		}
		test, _ := tab.Field("test")
		runs, c := tab.Field("runs")
		got = append(got, row{line, tab.Blank(), test, runs, c, strings.TrimPrefix(tab.Header[0], "\ufeff")})
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// With SkipBlank, the row of spaces on line 3 is passed over.
	tab = NewCSVTable(strings.NewReader(text), false)
	tab.SkipBlank = true
	var lines []int
	err := tab.ReadHeader()
	for line, rerr := range tab.Rows() {
		err = errors.Join(err, rerr)
		lines = append(lines, line)
	}
	if err != nil || len(lines) != 3 || lines[0] != 2 || lines[1] != 4 || lines[2] != 6 {
		t.Errorf("with SkipBlank: lines %v (%v), want [2 4 6]", lines, err)
	}
}

// TestCSVError words encoding/csv's refusals with their place.
func TestCSVError(t *testing.T) {
	for _, c := range []struct {
		text   string
		detail bool
		want   string
	}{
		{"", true, "1:1: empty"},
		{"a,b\n\"x\ny", true, "3:2: bad: a quoted field that does not end"}, // the file ends on line 3, inside the quotes
		{"a,b\nx\"y,1\n", true, "2:2: bad: a quote inside an unquoted field"},
		{"a,b\nx\"y,1\n", false, "2:2: bad"},
	} {
		tab := NewCSVTable(strings.NewReader(c.text), false)
		err := tab.ReadHeader()
		for _, rerr := range tab.Rows() {
			if err == nil {
				err = rerr
			}
		}
		err = CSVError(err, "bad", "empty", c.detail)
		var e *Error
		if !errors.As(err, &e) || e.Kind != Invalid {
			t.Fatalf("%q: %v, want an Invalid *Error", c.text, err)
		}
		if got := e.Error(); got != c.want {
			t.Errorf("%q: %q, want %q", c.text, got, c.want)
		}
	}
}

// TestKindOf: the first kind whose columns are all named wins, in any
// order and among other columns; a missing column rules a kind out.
func TestKindOf(t *testing.T) {
	kinds := []CSVKind{{Name: "counts", Columns: []string{"scenario", "run", "passed", "trials"}},
		{Name: "rows", Columns: []string{"scenario", "run", "passed"}}}
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"trials", "passed", "run", "scenario"}, "counts"},
		{[]string{"scenario", "run", "passed", "extra"}, "rows"},
		{[]string{"scenario", "run"}, ""},
		{nil, ""},
	} {
		if got := KindOf(c.names, kinds...); got != c.want {
			t.Errorf("KindOf(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}
