package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core/history"
	"github.com/flakegate/flakegate/internal/share"
)

// history -site links to the calculator's history view: the link holds
// the result -json prints (share.History of it, the link left out), the
// Markdown ends with it, and the text report names it.
func TestHistoryLink(t *testing.T) {
	args := []string{"-site", "https://flakegate.example/", "-manifest", "testdata/history/manifest.csv", "testdata/history/month.zip"}
	_, out, errs := cli(t, "", append([]string{"history", "-json"}, args...)...)
	var res history.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	link := res.Link
	res.Link = ""
	v, err := share.History(&res)
	if err != nil || link != "https://flakegate.example/history?"+v.Fragment || res.LinkNote != "" {
		t.Fatalf("link %q, note %q; want the view of the printed result (%v)", link, res.LinkNote, err)
	}
	_, md, _ := cli(t, "", append([]string{"history", "-markdown"}, args...)...)
	if !strings.HasSuffix(md, "\n[Open in flakegate]("+link+")\n") {
		t.Errorf("the Markdown does not end with the link:\n%s", md[max(0, len(md)-300):])
	}
	_, text, _ := cli(t, "", append([]string{"history"}, args...)...)
	if !strings.Contains(text, "\nlink: "+link+"\n") {
		t.Errorf("the text report does not name the link")
	}
	// Without a site there is no link and no note.
	_, out, _ = cli(t, "", "history", "-json", "testdata/history/month.zip")
	if strings.Contains(out, `"link`) {
		t.Errorf("a link without -site")
	}
}
