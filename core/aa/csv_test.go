package aa

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
)

// tallies renders a side compactly: "id passed/total" per scenario, then per
// run, then rows and duplicates.
// orNil is tallies(s), or "no side" for nil.
func orNil(s *Side) string {
	if s == nil {
		return "no side"
	}
	return tallies(s)
}

func tallies(s *Side) string {
	var b strings.Builder
	for _, t := range s.Scenarios {
		b.WriteString(t.ID + " " + itoa(t.Passed) + "/" + itoa(t.Total) + "; ")
	}
	b.WriteString("| ")
	for _, t := range s.Runs {
		b.WriteString(t.ID + " " + itoa(t.Passed) + "/" + itoa(t.Total) + "; ")
	}
	b.WriteString("| rows " + itoa(s.Rows) + " dup " + itoa(s.Duplicates))
	return b.String()
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	if neg {
		return "-" + string(d)
	}
	return string(d)
}

func TestReadAAAccepts(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain", "scenario,run,passed\na,r1,1\nb,r1,0\na,r2,1\nb,r2,1\n",
			"a 2/2; b 1/2; | r1 1/2; r2 2/2; | rows 4 dup 0"},
		{"no final newline", "scenario,run,passed\na,r1,1\na,r2,0",
			"a 1/2; | r1 1/1; r2 0/1; | rows 2 dup 0"},
		{"column order and extra columns", "note,passed,scenario,x,run\nhi,1,a,,r1\n,0,a,9,r2\n",
			"a 1/2; | r1 1/1; r2 0/1; | rows 2 dup 0"},
		{"fewer fields than the header but all needed ones", "scenario,run,passed,note\na,r1,1\na,r2,0,x,y\n",
			"a 1/2; | r1 1/1; r2 0/1; | rows 2 dup 0"},
		{"CRLF", "scenario,run,passed\r\na,r1,1\r\na,r2,0\r\n",
			"a 1/2; | r1 1/1; r2 0/1; | rows 2 dup 0"},
		{"BOM", "\xef\xbb\xbfscenario,run,passed\na,r1,1\na,r2,1\n",
			"a 2/2; | r1 1/1; r2 1/1; | rows 2 dup 0"},
		{"header case and blanks", " Scenario ,RUN,\"Passed\"\na,r1,1\na,r2,1\n",
			"a 2/2; | r1 1/1; r2 1/1; | rows 2 dup 0"},
		{"quoted fields", "scenario,run,passed\n\"a,b\",\"r\"\"1\",\"1\"\n\"a,b\",r2,0\n",
			"a,b 1/2; | r\"1 1/1; r2 0/1; | rows 2 dup 0"},
		{"line break inside quotes", "scenario,run,passed\n\"two\nlines\",r1,1\n\"two\nlines\",r2,1\n",
			"two\nlines 2/2; | r1 1/1; r2 1/1; | rows 2 dup 0"},
		{"CRLF inside quotes is kept", "scenario,run,passed\r\n\"x\r\ny\",r1,1\r\n",
			"x\r\ny 1/1; | r1 1/1; | rows 1 dup 0"},
		{"empty quoted field ignored", "scenario,run,note,passed\na,r1,\"\",1\n",
			"a 1/1; | r1 1/1; | rows 1 dup 0"},
		{"blank lines", "\n \nscenario,run,passed\n\na,r1,1\n\t\n\r\na,r2,0\n\n",
			"a 1/2; | r1 1/1; r2 0/1; | rows 2 dup 0"},
		{"true and false", "scenario,run,passed\na,r1,true\na,r2,FALSE\na,r3, True \na,r4,\t0\n",
			"a 2/4; | r1 1/1; r2 0/1; r3 1/1; r4 0/1; | rows 4 dup 0"},
		{"ids kept verbatim", "scenario,run,passed\n a ,r1,1\na,r1,0\n",
			" a  1/1; a 0/1; | r1 1/2; | rows 2 dup 0"},
		{"unicode ids", "scenario,run,passed\nünï,r1,1\n日本,r1,0\n",
			"ünï 1/1; 日本 0/1; | r1 1/2; | rows 2 dup 0"},
		{"duplicates counted", "scenario,run,passed\na,r1,1\na,r2,1\na,r1,0\nb,r1,1\na,r1,1\n",
			"a 3/4; b 1/1; | r1 3/4; r2 1/1; | rows 5 dup 2"},
		{"runs interleaved", "scenario,run,passed\na,r1,1\na,r2,0\nb,r1,1\nb,r2,1\n",
			"a 1/2; b 2/2; | r1 2/2; r2 1/2; | rows 4 dup 0"},
		{"header only", "scenario,run,passed\n", "| | rows 0 dup 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := ReadCSV(strings.NewReader(c.in))
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if got := tallies(s); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
			if s.Scenarios == nil || s.Runs == nil {
				t.Errorf("nil slices: would be null in JSON")
			}
		})
	}
}

func TestReadAAErrors(t *testing.T) {
	long := "scenario,run,passed\n" + strings.Repeat("x", MaxLine+1) + ",r,1\n"
	cases := []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"empty", "", 1, 1, "no header"},
		{"blank only", "\n\n", 2, 1, "no header"},
		{"missing column", "scenario,run,pass\na,r,1\n", 1, 1, `no "passed" column`},
		{"missing two", "id,passed\n", 1, 1, `no "scenario" column`},
		{"column twice", "scenario,run,passed,Run\n", 1, 21, "names the run column twice"},
		{"UTF-16", "\xff\xfes\x00", 1, 1, "UTF-16"},
		{"bare CR line ends", "scenario,run,passed\ra,r,1\r", 1, 20, "carriage return"},
		{"passed 2", "scenario,run,passed\na,r,2\n", 2, 5, `found "2"`},
		{"passed yes quoted", "scenario,run,passed\na,r,1\na,r2,\"yes\"\n", 3, 6, `found "yes"`},
		{"passed empty", "scenario,run,passed\na,r,\n", 2, 5, `found ""`},
		{"passed first column", "passed,scenario,run\n1,a,r\n-1,a,r\n", 3, 1, `found "-1"`},
		{"empty scenario", "scenario,run,passed\n,r,1\n", 2, 1, "scenario id is empty"},
		{"empty run", "scenario,run,passed\na,,1\n", 2, 3, "run id is empty"},
		{"invalid UTF-8", "scenario,run,passed\na,r,1\n\xff\xfe,r,1\n", 3, 1, "not valid UTF-8"},
		{"too few fields", "scenario,run,passed\na,r1\n", 2, 5, "passed column is field 3"},
		{"too few fields quoted", "scenario,run,passed\n\"a\",r1\n", 2, 7, "passed column is field 3"},
		{"unclosed quote", "scenario,run,passed\n\"a,r,1\n", 2, 1, "not closed"},
		{"text after closing quote", "scenario,run,passed\n\"a\"x,r,1\n", 2, 4, `unexpected 'x'`},
		{"bare quote", "scenario,run,passed\nab\"c,r,1\n", 2, 3, "quote inside an unquoted field"},
		{"bare quote in header", "scen\"ario,run,passed\n", 1, 5, "quote inside an unquoted field"},
		{"columns count characters", "scenario,run,passed\nécoute,r,2\n", 2, 10, `found "2"`},
		{"error on a later line of a record", "scenario,run,passed\n\"a\nb\",r,x\n", 3, 6, `found "x"`},
		{"field after a multi-line one", "scenario,run,passed\n\"a\nb\",\"\",1\n", 3, 4, "run id is empty"},
		{"line too long", long, 2, 1, "longer than"},
		{"quoted field too long", "scenario,run,passed\n\"" + strings.Repeat("y\n", MaxLine/2+1) + "\",r,1\n", 2, 1, "runs past"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.in))
			var e *core.Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			if e.Kind != core.Invalid || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("got %s %d:%d %q, want invalid %d:%d containing %q", e.Kind, e.Line, e.Column, e.Msg, c.line, c.col, c.msg)
			}
		})
	}
}

type failingReader struct{ n int }

var errBoom = errors.New("boom")

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n > 0 {
		s := "scenario,run,passed\na,r,1\n"
		f.n = 0
		return copy(p, s), nil
	}
	return 0, errBoom
}

// An error of the reader (such as a body over its limit) comes back wrapped,
// so that a caller can still recognise it.
func TestReadAAReaderError(t *testing.T) {
	_, err := ReadCSV(&failingReader{n: 1})
	if !errors.Is(err, errBoom) {
		t.Fatalf("got %v, want it to wrap %v", err, errBoom)
	}
}

// One byte at a time must read as one big read.
func TestReadAAOneByteReader(t *testing.T) {
	for _, name := range []string{"quoted_crlf.csv", "bom_words.csv", "duplicates.csv"} {
		data, err := os.ReadFile(filepath.Join("testdata", "aa", name))
		if err != nil {
			t.Fatal(err)
		}
		a, err1 := ReadCSV(bytes.NewReader(data))
		b, err2 := ReadCSV(iotestOneByte{bytes.NewReader(data)})
		if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("%s: one byte at a time differs (%v, %v)", name, err1, err2)
		}
	}
}

type iotestOneByte struct{ r io.Reader }

func (o iotestOneByte) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return o.r.Read(p[:1])
}

// The run sets against a plain map of pairs, with members far apart (the
// windowed and sparse forms), close together (the dense form) and all of a
// range in a random order, in runs read one after the other and
// interleaved, and with the room for bitsets short (few rows, many
// scenarios: the sparse form, then dense again as rows come).
func TestAARunSets(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		var s aaRunSets
		seen := map[[2]int]bool{}
		spread := []int{3, 64, 200, 5000, 1 << 20}[trial%5]
		runs := 1 + trial%4
		for range runs {
			s.add()
		}
		perm := r.Perm(min(spread, 5000))
		rows := int64(0)
		for i := 0; i < 400; i++ {
			si := r.IntN(spread)
			switch {
			case trial%7 == 0:
				si = spread - 1 - si // descending: the window grows downwards
			case trial%3 == 0:
				si = perm[i%len(perm)] // each once in a random order
			}
			ri := i * runs / 400 // one run after the other
			if trial%2 == 0 {
				ri = r.IntN(runs) // interleaved
			}
			if got := s.mark(ri, si, rows, spread); got != seen[[2]int{ri, si}] {
				t.Fatalf("trial %d: mark(%d, %d) = %v, want %v", trial, ri, si, got, !got)
			}
			seen[[2]int{ri, si}] = true
			rows++
			var words int64
			for _, set := range s.sets {
				words += int64(len(set.w))
			}
			if words != s.words || words > 4*rows+8*int64(runs) {
				t.Fatalf("trial %d: the bitsets hold %d words, counted %d, after %d rows", trial, words, s.words, rows)
			}
		}
	}
}

// refReadAA is a plain reading of the same format with encoding/csv, all in
// memory and with a set of pairs for duplicates: the fuzz test's oracle.
func refReadAA(data []byte) (*Side, bool) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, false
	}
	var rows [][]string
	for _, rec := range recs {
		if len(rec) == 1 && strings.Trim(rec[0], " \t") == "" {
			continue
		}
		rows = append(rows, rec)
	}
	if len(rows) == 0 {
		return nil, false
	}
	cols := []int{-1, -1, -1}
	for i, name := range rows[0] {
		for role, want := range aaColumns {
			if strings.EqualFold(strings.Trim(name, " \t"), want) {
				cols[role] = i
			}
		}
	}
	s := &Side{Scenarios: []Tally{}, Runs: []Tally{}}
	si, ri := map[string]int{}, map[string]int{}
	pairs := map[[2]string]bool{}
	for _, rec := range rows[1:] {
		for _, c := range cols {
			if c < 0 || c >= len(rec) {
				return nil, false
			}
		}
		sc, rn := rec[cols[0]], rec[cols[1]]
		var pass int64
		switch strings.ToLower(strings.Trim(rec[cols[2]], " \t")) {
		case "1", "true":
			pass = 1
		case "0", "false":
		default:
			return nil, false
		}
		if sc == "" || rn == "" || !utf8.ValidString(sc) || !utf8.ValidString(rn) {
			return nil, false
		}
		if _, ok := si[sc]; !ok {
			si[sc] = len(s.Scenarios)
			s.Scenarios = append(s.Scenarios, Tally{ID: sc})
		}
		if _, ok := ri[rn]; !ok {
			ri[rn] = len(s.Runs)
			s.Runs = append(s.Runs, Tally{ID: rn})
		}
		if pairs[[2]string{sc, rn}] {
			s.Duplicates++
		}
		pairs[[2]string{sc, rn}] = true
		st, rt := &s.Scenarios[si[sc]], &s.Runs[ri[rn]]
		st.Passed, st.Total = st.Passed+pass, st.Total+1
		rt.Passed, rt.Total = rt.Passed+pass, rt.Total+1
		s.Rows++
	}
	return s, true
}

func FuzzReadAA(f *testing.F) {
	names, _ := filepath.Glob(filepath.Join("testdata", "aa", "*.csv"))
	for _, n := range names {
		if data, err := os.ReadFile(n); err == nil && len(data) < 20000 {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"scenario,run,passed\na,r1,1\nb,r1,0\na,r2,1\nb,r2,1\na,r1,1\n",
		"\xef\xbb\xbfpassed,\"run\",scenario\r\ntrue,\"r,1\",\"x\"\"y\"\r\nFALSE,r2,\"m\nn\"\r\n",
		"scenario,run,passed\n\"a\"x,r,1\n",
		"scenario,run,passed\nab\"c,r,1\n",
		"scenario,run,passed\n\"open,r,1\n",
		"scenario,run\n",
		"",
		"\xff\xfe",
		"scenario,run,passed\r",
		"scenario,run,passed\n,,\n",
		"scenario,run,passed\na\rb,r1,1\r\nlong-scenario-name,run-0001,true\n \t\n,\n",
		"x,scenario,run,passed,y\n1,a,r,1,\"q\"\n2,a,r2,0,y\n3,b,r2,2,z\n",
		"scenario,run,passed\nscenario-00001,run-001,1\nscenario-00002,run-001,0\nscenario-00001,run-002\n",
		// The fast path's own cases: ids past 16 bytes, a run change, an
		// empty and a non-UTF-8 scenario, a duplicate, passed words.
		"scenario,run,passed\nscenario-000000000001,r,1\nscenario-000000000001,r,0\ns2,r,1\ns2,run-002-long-name-x,1\n,r,1\n",
		"scenario,run,passed\na,r1,1\nb,r1,1\na,r1,0\n\xff,r1,1\nthe line after, in the last 8 bytes,1\n",
		"scenario,run,passed\na,r1,true\nb,r1, 0\nc,r1,1\nc,r1,9\nthe line after, in the last 8 bytes,1\n",
		"scenario,run,passed\na,r1,1\nb,,1\nthe line after, in the last 8 bytes,1\n",
		"scenario,run,passed\na,r1,1\nb,\xff\xfe,1\nthe line after, in the last 8 bytes,1\n",
		// Needed columns past the fifteenth: every line goes the general way.
		"c1,c2,c3,c4,c5,c6,c7,c8,c9,c10,c11,c12,c13,c14,c15,scenario,run,passed\n,,,,,,,,,,,,,,,a,r,1\n,,,,,,,,,,,,,,,a,r,9\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadCSV(bytes.NewReader(data))
		// One byte at a time, no complete line is ever buffered ahead, so
		// every line takes the general path (readLine, fastRow, slowRow):
		// the buffered fast path must read the same tallies and make the
		// same errors.
		s1, err1 := ReadCSV(iotestOneByte{bytes.NewReader(data)})
		if fmt.Sprint(err) != fmt.Sprint(err1) || !reflect.DeepEqual(s, s1) {
			t.Fatalf("the buffered and the line-by-line reads differ on %q:\n %v %s\n %v %s", data, err, orNil(s), err1, orNil(s1))
		}
		if err != nil {
			var e *core.Error
			if !errors.As(err, &e) || e.Kind != core.Invalid || e.Line < 1 || e.Column < 1 || e.Msg == "" {
				t.Fatalf("error without a kind or position: %#v", err)
			}
			return
		}
		if _, err := checkTallies("fuzz", s); err != nil {
			t.Fatalf("inconsistent tallies: %v", err)
		}
		for _, group := range [][]Tally{s.Scenarios, s.Runs} {
			for _, x := range group {
				if x.ID == "" || !utf8.ValidString(x.ID) || x.Total < 1 {
					t.Fatalf("bad tally %+v", x)
				}
			}
		}
		if bytes.IndexByte(data, '\r') >= 0 {
			return // encoding/csv turns \r\n inside quotes into \n; we keep it
		}
		want, ok := refReadAA(data)
		if !ok {
			t.Fatalf("ReadCSV accepted what encoding/csv rejects:\n%q\n%s", data, tallies(s))
		}
		if !reflect.DeepEqual(s, want) {
			t.Fatalf("ReadCSV and encoding/csv differ on %q:\n got  %s\n want %s", data, tallies(s), tallies(want))
		}
	})
}

// The scenario table against a map, across its resizes, with ids of every
// length class: empty, under 4, 4-7, 8-16 (the key is the id) and longer
// (the key is compared, then the stored id), and ids that differ only in
// the middle, where the short-id key reads no byte of some.
func TestAAScenTable(t *testing.T) {
	tab := newAAScenTable()
	want := map[string]int{}
	var ids []string
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 20000; i++ {
		n := []int{0, 1, 2, 3, 5, 8, 12, 16, 17, 24, 25, 40}[r.IntN(12)]
		b := make([]byte, n)
		for k := range b {
			b[k] = "ab"[r.IntN(2)]
		}
		id := string(b)
		slot := tab.find(b)
		idx, seen := want[id]
		if seen != (slot >= 0) {
			t.Fatalf("find(%q) = slot %d, seen before: %v", id, slot, seen)
		}
		if seen {
			if got := int(tab.slots[slot].idx); got != idx {
				t.Fatalf("find(%q) found scenario %d, want %d", id, got, idx)
			}
			continue
		}
		if n == 0 {
			continue // an empty id is refused before it is added
		}
		slot = tab.add(b)
		want[id] = len(ids)
		ids = append(ids, id)
		if got := int(tab.slots[slot].idx); got != want[id] {
			t.Fatalf("add(%q) gave index %d, want %d", id, got, want[id])
		}
	}
	if len(ids) < 1000 || tab.n != len(ids) {
		t.Fatalf("%d ids in the table, %d distinct drawn", tab.n, len(ids))
	}
	for i, tl := range tab.tallies() {
		if tl.ID != ids[i] {
			t.Fatalf("scenario %d is %q, want %q", i, tl.ID, ids[i])
		}
	}
	for i, id := range ids {
		slot := tab.find([]byte(id))
		if slot < 0 || int(tab.slots[slot].idx) != i {
			t.Fatalf("after all resizes, %q is not scenario %d", id, i)
		}
	}
}

// The short-id hash spreads families of ids as they come in real files:
// 10,000 of each, at the table's load of 10,000/16,384, take on average at
// most 2.5 probes to find. Linear probing with a uniform hash takes
// (1 + 1/(1-a))/2 = 1.78 at that load (Knuth, TAOCP vol. 3, 6.4); a hash
// blind to some of the bytes would put thousands of ids on one slot.
func TestAAScenTableSpread(t *testing.T) {
	families := map[string]func(i int) string{
		"numbered":      func(i int) string { return fmt.Sprintf("scenario-%05d", i) },
		"numbers":       func(i int) string { return strconv.Itoa(i) },
		"short":         func(i int) string { return string(rune('a'+i%26)) + strconv.Itoa(i/26) },
		"spaced":        func(i int) string { return fmt.Sprintf("test_%d_case", i*1024) },
		"middle bytes":  func(i int) string { return "abcd" + string([]byte{byte(i), byte(i >> 8)}) + "efghijkl" },
		"first byte":    func(i int) string { return string([]byte{byte(i), byte(i >> 8)}) + "-same-tail-00" },
		"sixteen bytes": func(i int) string { return fmt.Sprintf("%016x", uint64(i)<<40) },
	}
	for name, id := range families {
		tab := newAAScenTable()
		for i := range 10000 {
			if b := []byte(id(i)); tab.find(b) < 0 {
				tab.add(b)
			}
		}
		if tab.n != 10000 || len(tab.slots) != 16384 {
			t.Fatalf("%s: %d ids in %d slots", name, tab.n, len(tab.slots))
		}
		mask, probes := uint64(len(tab.slots)-1), 0
		for i := range 10000 {
			b := []byte(id(i))
			x, y := aaKey(b)
			for j := tab.hash(b, x, y) & mask; ; j = (j + 1) & mask {
				probes++
				if s := &tab.slots[j]; s.x == x && s.y == y && s.n == uint32(len(b)) {
					break
				}
			}
		}
		if avg := float64(probes) / 10000; avg > 2.5 {
			t.Errorf("%s: %.2f probes on average, want at most 2.5", name, avg)
		}
	}
}

// A scenario's 32-bit counters hand over to the spill map when full: with
// the hand-over lowered to 3 rows, a file read gives the same tallies as
// the encoding/csv reading (refReadAA), which counts in int64.
func TestAASpill(t *testing.T) {
	var b strings.Builder
	b.WriteString("scenario,run,passed\n")
	for run := range 9 {
		for sc := range 4 {
			fmt.Fprintf(&b, "s%d,r%d,%d\n", sc, run, (run*sc+run)%3%2)
		}
	}
	b.WriteString("s1,r0,1\n") // a duplicate counts too
	want, ok := refReadAA([]byte(b.String()))
	if !ok {
		t.Fatal("the reference reading refused the file")
	}
	defer func(at uint32) { aaSpillAt = at }(aaSpillAt)
	aaSpillAt = 3
	got, err := ReadCSV(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("with spills every 3 rows:\n got  %s\n want %s", tallies(got), tallies(want))
	}
}

// The id set against a map, with ids drawn from few letters so that many
// repeat and many share a hash slot's neighbourhood.
func TestIDSet(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for trial := range 50 {
		ts := make([]Tally, 1+r.IntN(3000))
		for i := range ts {
			b := make([]byte, 1+r.IntN(4))
			for k := range b {
				b[k] = "abc"[r.IntN(3)]
			}
			ts[i].ID = string(b)
		}
		set, seen := newIDSet(len(ts)), map[string]bool{}
		if trial%2 == 1 {
			set = newIDSet(2 * len(ts)) // more room than it needs
		}
		for i, tl := range ts {
			if got := set.add(ts, i); got != seen[tl.ID] {
				t.Fatalf("trial %d: add(%q) = %v, want %v", trial, tl.ID, got, seen[tl.ID])
			}
			seen[tl.ID] = true
		}
	}
}

// Reads share pooled line buffers: reads from several goroutines at once,
// of different files, give what each file gives read alone.
func TestReadAAConcurrent(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("testdata", "aa", "*.csv"))
	want := map[string]string{}
	for _, n := range names {
		data, _ := os.ReadFile(n)
		s, err := ReadCSV(bytes.NewReader(data))
		want[n] = fmt.Sprint(err) + orNil(s)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range 3 * len(names) {
				n := names[(g+k)%len(names)]
				data, _ := os.ReadFile(n)
				s, err := ReadCSV(bytes.NewReader(data))
				if got := fmt.Sprint(err) + orNil(s); got != want[n] {
					t.Errorf("%s read alongside others: %.80s, alone %.80s", n, got, want[n])
				}
			}
		})
	}
	wg.Wait()
}
