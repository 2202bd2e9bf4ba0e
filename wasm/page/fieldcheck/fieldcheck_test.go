package fieldcheck

import (
	"testing"
)

func TestFromHTMLScopes(t *testing.T) {
	doc := `<div><table><tr data-scope="rows.0"><td><data data-field="reruns" value="59">59</data><br>` +
		`<data data-field="over_cap" value>over</data></td></tr></table>` +
		`<p data-scope="observed"><data value="0.0457" data-field="upper">x</data><input type="text"></p>` +
		`<svg><line x1="1"/><data data-field="target" value="0.95"></data></svg></div>`
	got, err := FromHTML(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"rows.0.reruns": "59", "rows.0.over_cap": "true", "observed.upper": "0.0457", "target": "0.95"}
	if len(got) != len(want) {
		t.Errorf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if _, err := FromHTML(`<data data-field="a" value="1"></data><data data-field="a" value="2"></data>`); err == nil {
		t.Error("a duplicate path was accepted")
	}
}

func TestDiff(t *testing.T) {
	page := map[string]string{"a": "0.5", "b.c": "3", "size.n": "28", "extra": "1"}
	diffs, err := Diff(page, "", []byte(`{"a":0.50,"b":{"c":3},"d":null}`), "size")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`d: missing on the page (want "null")`, `extra: on the page ("1") but not in the result`}
	if len(diffs) != len(want) || diffs[0] != want[0] || diffs[1] != want[1] {
		t.Errorf("diffs %q", diffs)
	}
	if d, _ := Diff(page, "size", []byte(`{"n":28}`)); len(d) != 0 {
		t.Errorf("size: %q", d)
	}
	if Number("1e3") != "1000" || Number("0.10") != "0.1" || Number("12") != "12" {
		t.Error("Number does not normalise")
	}
}

func FuzzFromHTML(f *testing.F) {
	for _, s := range []string{`<p data-scope="x"><data data-field="y" value="1"></data></p>`, `<`, `<a b='>'>`, `</x><y/>`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		FromHTML(s) // must not panic
	})
}

func FuzzFlatten(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":null}]}`, `[]`, `1e400`, `{"a":"x"}`, `{`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Flatten([]byte(s))
		if err != nil {
			return
		}
		for p := range m {
			if p == "" && len(m) > 1 {
				t.Fatalf("empty path among others: %v", m)
			}
		}
	})
}
