//go:build integration

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLeaderboardLink opens, in headless Chromium, the link flakegate
// compare A B C D -site prints: the page shows the CLI's answer, word for
// word, the picture of the intervals, and every figure of the CLI's -json
// (without the link, which the page is) under the scope board, both ways.
func TestLeaderboardLink(t *testing.T) {
	browser, srv := browseSite(t)
	dir := filepath.Join(repoRoot(), "cmd", "flakegate", "testdata", "board")
	args := []string{"compare", "-format", "samples", "-score", "correct", "-category", "subject", "-bh"}
	for _, m := range []string{"alpha", "beta", "gamma", "delta"} {
		args = append(args, filepath.Join(dir, m+".jsonl"))
	}
	var res struct {
		Link string `json:"link"`
	}
	if err := json.Unmarshal(cli(t, append(append(args, "-json"), "-site", srv.URL)...), &res); err != nil || !strings.HasPrefix(res.Link, srv.URL+"/compare?board=") {
		t.Fatalf("no leaderboard link: %v %q", err, res.Link)
	}
	answer := strings.SplitN(string(cli(t, args...)), "\n", 2)[0]
	ctx := newTab(t, browser)
	open(t, ctx, res.Link)
	poll(t, ctx, 20*time.Second, `!!document.querySelector('#answer-text') && !!document.querySelector('svg.plot')`)
	if got := evalJS[string](t, ctx, `document.getElementById('answer-text').textContent`); got != answer {
		t.Errorf("the page says\n%s\nthe CLI\n%s", got, answer)
	}
	if page := expectFields(t, ctx, "leaderboard", "board", cli(t, append(args, "-json")...)); len(page) < 100 {
		t.Errorf("only %d figures on the page", len(page))
	}
}
