//go:build integration

package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/param"
)

// optionTargets fails unless every control of the Options section id is a
// 44 px target and each input is tied to its label.
func optionTargets(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	bad := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#`+id+` summary, #`+id+` input, #`+id+` select')].flatMap(el => {
  const r = el.getBoundingClientRect(), out = [];
  if (r.height < 44) out.push((el.id || el.tagName) + ' is ' + r.height + ' px high');
  if (el.id && !document.querySelector('label[for="' + el.id + '"]')) out.push(el.id + ' has no label');
  return out; })`)
	for _, b := range bad {
		t.Errorf("%s: %s", id, b)
	}
}

// openOptions opens the Options section id unless it is open.
func openOptions(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	evalJS[bool](t, ctx, `(() => { const d = document.getElementById('`+id+`'); if (!d.open) d.querySelector('summary').click(); return true; })()`)
	poll(t, ctx, 10*time.Second, `document.getElementById('`+id+`').open`)
}

// showExample opens the page at url, clicks its example button (id) and
// waits until shown holds.
func showExample(t *testing.T, ctx context.Context, url, id, shown string) {
	t.Helper()
	open(t, ctx, url)
	clickID(t, ctx, id)
	poll(t, ctx, 20*time.Second, shown)
}

// TestOptionsChangeTheFilePages: on the A/A page's example, a fixed rule
// typed as 5% in the closed-by-default Options gives `flakegate aa -rule
// 5%`'s figures on the same files, the link carries it and opens with the
// section open and the rule in its field, and a rule that is no number is
// refused at its field in the schema's words. On the compare page's
// example, a 90% level changes the answer's interval and the link carries
// it. Every control of the sections is a 44 px target tied to its label,
// at 1280 and 390 px, and the A/A page with its Options open does not
// scroll sideways.
func TestOptionsChangeTheFilePages(t *testing.T) {
	browser, srv := browseSite(t)
	dir, _ := exampleFiles(t)
	want := cliIn(t, dir, "aa", "-json", "-rule", "5%", "baseline.csv", "candidate.csv")
	_, err := param.AA.Parse(map[string]string{"rule": "abc"})
	var refused *core.Error
	if !errors.As(err, &refused) {
		t.Fatalf("rule abc is read: %v", err)
	}
	atWidths(t, browser, func(t *testing.T, ctx context.Context, w width) {
		showExample(t, ctx, srv.URL+"/aa", "example-aa", `!!document.querySelector('[data-scope=fixed_drop]')`)
		aaSettled(t, ctx)
		if evalJS[bool](t, ctx, `document.getElementById('aa-options').open`) {
			t.Error("the A/A options are open at their defaults")
		}
		before := location(t, ctx)
		openOptions(t, ctx, "aa-options")
		optionTargets(t, ctx, "aa-options")
		typeIn(t, ctx, "in-rule", "5%")
		poll(t, ctx, 20*time.Second, `document.querySelector('[data-scope=fixed_drop] [data-field=drop]')?.getAttribute('value') === '0.05'`)
		aaSettled(t, ctx)
		expectFields(t, ctx, "rule 5%", "", want)
		screenshot(t, ctx, "options-aa-"+w.name)
		if sideways(t, ctx) > 0 {
			t.Error("the A/A page with its Options open scrolls sideways")
		}
		link := location(t, ctx)
		if link == before || !strings.Contains(link, "?aa=") {
			t.Fatalf("the link does not carry the rule: %s (was %s)", link, before)
		}

		fresh := freshTab(t, browser, w)
		open(t, fresh, link)
		aaSettled(t, fresh)
		if !evalJS[bool](t, fresh, `document.getElementById('aa-options').open && document.getElementById('in-rule').value === '0.05'`) {
			t.Error("the link does not open with its rule in the open Options")
		}
		expectFields(t, fresh, "the link with rule 5%", "", want)

		typeIn(t, ctx, "in-rule", "abc")
		poll(t, ctx, 10*time.Second, `!!document.getElementById('err-rule')`)
		if got := evalJS[string](t, ctx, `document.getElementById('err-rule').textContent`); !strings.Contains(got, refused.Msg) ||
			evalJS[bool](t, ctx, `!!document.querySelector('[data-scope=fixed_drop]')`) {
			t.Errorf("rule abc: %q at the field, want %q and no figures", got, refused.Msg)
		}

		showExample(t, ctx, srv.URL+"/compare", "example-compare", `(document.getElementById('answer-text')?.textContent || '').includes('95% interval')`)
		before = location(t, ctx)
		openOptions(t, ctx, "compare-options")
		optionTargets(t, ctx, "compare-options")
		typeIn(t, ctx, "in-level", "90%")
		poll(t, ctx, 20*time.Second, `(document.getElementById('answer-text')?.textContent || '').includes('90% interval')`)
		answer := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`)
		poll(t, ctx, 10*time.Second, `location.href !== `+jsonString(before))
		link = location(t, ctx)
		open(t, fresh, link)
		poll(t, fresh, 20*time.Second, `!!document.getElementById('answer-text')`)
		if got := evalJS[string](t, fresh, `document.getElementById('answer-text').textContent`); got != answer ||
			!evalJS[bool](t, fresh, `document.getElementById('compare-options').open && document.getElementById('in-level').value === '0.9'`) {
			t.Errorf("the compare link opens on %q, want %q with level 0.9 in the open Options", got, answer)
		}
	})
}
