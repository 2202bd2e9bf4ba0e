package share

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/compare"
	"github.com/flakegate/flakegate/internal/jsonref"
)

// boardModels are k models on n questions, model i right on question q
// with chance 0.8 − 0.1 i (a seeded draw), each question asked epochs
// times; the last model lacks the first question.
func boardModels(k, n int, epochs int64, seed uint64) []compare.Model {
	r := rand.New(rand.NewPCG(seed, 1206))
	out := make([]compare.Model, k)
	for i := range out {
		s := &aa.Side{}
		for q := range n {
			if i == k-1 && q == 0 {
				continue
			}
			var passed int64
			for range epochs {
				if r.Float64() < 0.8-0.1*float64(i) {
					passed++
				}
			}
			s.Scenarios = append(s.Scenarios, aa.Tally{ID: fmt.Sprintf("q%03d", q), Passed: passed, Total: epochs})
		}
		out[i] = compare.Model{Name: fmt.Sprintf("model-%c", 'a'+i), Side: s}
	}
	return out
}

func boardJSON(t *testing.T, models []compare.Model, opt compare.BoardOptions) string {
	t.Helper()
	b, err := compare.Leaderboard(models, opt)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	core.WriteJSON(&buf, b)
	return buf.String()
}

// TestBoardLinkRoundTrip: the leaderboard a link holds is, figure for
// figure, the leaderboard of the models it was made from, with the
// options (level, BH, categories, a model's missing question and its
// warning) as given.
func TestBoardLinkRoundTrip(t *testing.T) {
	cats := map[string]string{"x": "never asked"}
	for q := range 40 {
		cats[fmt.Sprintf("q%03d", q)] = []string{"math", "law"}[q%2]
	}
	for _, c := range []struct {
		name   string
		models []compare.Model
		opt    compare.BoardOptions
	}{
		{"defaults", boardModels(3, 40, 1, 1), compare.DefaultBoardOptions},
		{"epochs, bh, 90%", boardModels(4, 30, 3, 2), compare.BoardOptions{Level: 0.9, BH: true}},
		{"categories", boardModels(3, 40, 1, 3), compare.BoardOptions{Level: 0.95, Categories: cats, CategoryField: "subject"}},
		{"no category known", boardModels(3, 40, 1, 4), compare.BoardOptions{Level: 0.95, Categories: map[string]string{}, CategoryField: "subject"}},
	} {
		v, err := Leaderboard(c.models, c.opt)
		if err != nil || !v.Linked() || v.Path != ComparePath || !strings.HasPrefix(v.Fragment, BoardKey+"=") {
			t.Fatalf("%s: view %+v, err %v", c.name, v, err)
		}
		s, err := DecodeBoard(strings.TrimPrefix(v.Fragment, BoardKey+"="))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Categories != nil && s.Categories["x"] != "" {
			t.Errorf("%s: the link holds a category of no model's question", c.name)
		}
		models, opt := s.Board()
		if got, want := boardJSON(t, models, opt), boardJSON(t, c.models, c.opt); got != want {
			t.Errorf("%s: the link's leaderboard differs:\n%s\nwant\n%s", c.name, got, want)
		}
	}
}

// TestBoardLinkTooLong: 3 models of 2,000 questions, each a coin's toss,
// take more than MaxFragment bytes (2 × 6,000 random bits, 750 bytes
// incompressible, are not all: the ids and counts cost more); the view has
// no link and says how long it would be.
func TestBoardLinkTooLong(t *testing.T) {
	models := boardModels(3, 2000, 1, 5)
	v, err := Leaderboard(models, compare.DefaultBoardOptions)
	if err != nil || v.Linked() || v.Left != LeftBoard || v.LeftBytes <= MaxFragment || v.Fragment != "" || v.URL("https://x.example") != "" {
		t.Fatalf("view %+v, err %v", v, err)
	}
	if _, err := Leaderboard([]compare.Model{{Name: "a"}}, compare.DefaultBoardOptions); err == nil {
		t.Error("a model without questions makes a link")
	}
}

// TestDecodeBoardRefuses: states no leaderboard writes are refused, each
// with what is wrong.
func TestDecodeBoardRefuses(t *testing.T) {
	q := `[{"id":"q","passed":1,"total":1}]`
	for _, c := range []struct{ state, want string }{
		{`{"v":2,"models":[{"name":"a","q":` + q + `},{"name":"b","q":` + q + `}],"level":0.95}`, "unknown version 2"},
		{`{"v":1,"models":[{"name":"a","q":` + q + `}],"level":0.95}`, "1 models; a leaderboard has 2 to 50"},
		{`{"v":1,"models":[{"name":"a","q":` + q + `},{"name":"b","q":[]}],"level":0.95}`, "models[1] has no questions"},
		{`{"v":1,"models":[{"name":"a","q":` + q + `},{"name":"b","q":[{"id":"q","passed":2,"total":1}]}],"level":0.95}`, `models[1]: question "q": passed 2 of 1`},
		{`{"v":1,"models":[{"name":"a","q":` + q + `},{"name":"b","q":[{"id":"q","passed":0,"total":0}]}],"level":0.95}`, `passed 0 of 0`},
		{`{"v":1,"models":[{"name":"a","q":` + q + `},{"name":"b","q":` + q + `}],"level":0.95,"categories":{"q":"x"}}`, "categories without a category field"},
		{`{"v":1,"models":[{"name":"a","q":` + q + `,"epochs":2},{"name":"b","q":` + q + `}],"level":0.95}`, `models[0]: unknown field "epochs"`},
	} {
		enc, _ := Pack(rawState(c.state))
		if _, err := DecodeBoard(enc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.state, err, c.want)
		}
	}
	if _, err := DecodeBoard("a*b"); err == nil || !strings.Contains(err.Error(), "character 2") {
		t.Errorf("a damaged link: %v", err)
	}
}

// FuzzBoardStateJSON: whatever the leaderboard link's reader accepts,
// encoding/json reads the same (jsonref.Fuzz).
func FuzzBoardStateJSON(f *testing.F) {
	seed, _ := json.Marshal(BoardStateOf(boardModels(3, 4, 2, 6), compare.BoardOptions{Level: 0.9, BH: true,
		Categories: map[string]string{"q001": "a\"☃"}, CategoryField: "task"}))
	jsonref.Fuzz(f, readInto[BoardState], seed, []byte(`{"v":1,"models":null,"level":0.9}`), []byte(`{"v":1,"models":[{"Name":"a"}]}`))
}

// FuzzDecodeBoard: whatever decodes is safe to rank, and re-encodes to a
// link that decodes to the same leaderboard, byte for byte.
func FuzzDecodeBoard(f *testing.F) {
	v, _ := Leaderboard(boardModels(3, 6, 2, 7), compare.DefaultBoardOptions)
	good := strings.TrimPrefix(v.Fragment, BoardKey+"=")
	one := `{"v":1,"models":[{"name":"a","q":[{"id":"q","passed":1,"total":1},{"id":"r","passed":0,"total":1}]},{"name":"b","q":[{"id":"r","passed":1,"total":2},{"id":"q","passed":1,"total":1}]}],"level":0.5,"category_field":"c"}`
	packed, _ := Pack(rawState(one))
	for _, s := range []string{good, "", "***", good[:9], packed} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := DecodeBoard(text)
		if err != nil {
			return
		}
		models, opt := s.Board()
		res, err := compare.Leaderboard(models, opt)
		if err != nil {
			return // duplicate names or ids, a level out of range: the leaderboard refuses them
		}
		v, err := Leaderboard(models, opt)
		if err != nil || !v.Linked() {
			return
		}
		back, err := DecodeBoard(strings.TrimPrefix(v.Fragment, BoardKey+"="))
		if err != nil {
			t.Fatalf("re-encoded link does not decode: %v", err)
		}
		m2, o2 := back.Board()
		res2, err := compare.Leaderboard(m2, o2)
		var x, y bytes.Buffer
		core.WriteJSON(&x, res)
		if err == nil {
			core.WriteJSON(&y, res2)
		}
		if err != nil || x.String() != y.String() {
			t.Fatalf("re-encoded link ranks differently: %v\n%s\nwant\n%s", err, y.String(), x.String())
		}
	})
}
