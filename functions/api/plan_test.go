package api

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestWorkerPlanOptions: FLAKEGATE_PLAN names a plan; paid is the
// Worker's usual options, free the Free plan's limits; anything else is
// refused with the names there are.
func TestWorkerPlanOptions(t *testing.T) {
	paid, err := WorkerPlanOptions("paid")
	if err != nil {
		t.Fatal(err)
	}
	if want := WorkerOptions(); fmt.Sprint(paid) != fmt.Sprint(want) || paid.Plan != "paid" {
		t.Errorf("paid: %+v, want WorkerOptions %+v", paid, WorkerOptions())
	}
	free, err := WorkerPlanOptions("free")
	if err != nil {
		t.Fatal(err)
	}
	if free.MaxBodyBytes != FreeMaxBodyBytes || free.WorkSteps != FreeWorkSteps || free.MaxRates != FreeMaxRates ||
		free.MaxUnzippedBytes != FreeMaxUnzippedBytes || free.Plan != "free" || !free.ForwardedProto {
		t.Errorf("free: %+v", free)
	}
	for _, bad := range []string{"", "Free", "pro"} {
		if _, err := WorkerPlanOptions(bad); err == nil || !strings.Contains(err.Error(), `"free" or "paid"`) {
			t.Errorf("%q: %v, want an error naming free and paid", bad, err)
		}
	}
}

// TestFreePlanRefuses: on the Free plan, a request whose input is past
// what 10 ms of CPU time answers is a 413 problem, refused before its
// work, that names the plan's limit and the ways on: the Paid plan's
// setting, the CLI, the local server. Requests within it are answered.
func TestFreePlanRefuses(t *testing.T) {
	opt, err := WorkerPlanOptions("free")
	if err != nil {
		t.Fatal(err)
	}
	h := New(opt)
	rates := func(n int) string {
		r := make([]string, n)
		for i := range r {
			r[i] = fmt.Sprintf("0.%04d", i+1)
		}
		return strings.Join(r, ",")
	}
	csv := func(rows int) string {
		var b strings.Builder
		b.WriteString("scenario,run,passed\n")
		for i := range rows {
			fmt.Fprintf(&b, "s%03d,r%d,%d\n", i%100, i/100, i%3/2)
		}
		return b.String()
	}
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	f, _ := zw.Create("run1/report.xml")
	f.Write([]byte(`<testsuite name="s">` + strings.Repeat(`<testcase name="t" classname="c"/>`, 1000) + `</testsuite>`))
	zw.Close()
	if zipped.Len() >= FreeMaxBodyBytes {
		t.Fatalf("the zip is %d bytes, not under the body limit", zipped.Len())
	}

	for _, c := range []struct {
		name, method, target, ctype, body string
		status                            int
		says                              string // the limit, in the detail
	}{
		{"budget within", "GET", "/v1/budget?rates=" + rates(FreeMaxRates), "", "", 200, ""},
		{"budget past the rates", "GET", "/v1/budget?rates=" + rates(FreeMaxRates+1), "", "", 413, fmt.Sprintf("at most %d", FreeMaxRates)},
		{"aa within", "POST", "/v1/aa", "text/csv", csv(200), 200, ""},
		{"aa past the body", "POST", "/v1/aa", "text/csv", csv(FreeMaxBodyBytes / 10), 413, "limit of 8 KiB"},
		{"aa past the work", "POST", "/v1/aa?simulate=true&sets=10000", "text/csv", csv(200), 413, "budget of 1e+06"},
		{"history past the unzipped", "POST", "/v1/history", "application/zip", zipped.String(), 413, "unpack to more than this server's limit of 12 KiB"},
	} {
		w := serve(h, c.method, c.target, c.ctype, c.body)
		if w.Code != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, w.Code, w.Body, c.status)
			continue
		}
		if c.status == 200 {
			continue
		}
		var p struct {
			Status int    `json:"status"`
			Detail string `json:"detail"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
			t.Errorf("%s: Content-Type %q", c.name, ct)
		}
		for _, s := range []string{c.says, "Workers Free plan allows 10 ms of CPU time per request",
			`FLAKEGATE_PLAN = "paid"`, "the CLI (flakegate", "the local server (make run)"} {
			if !strings.Contains(p.Detail, s) {
				t.Errorf("%s: the detail does not say %q: %s", c.name, s, p.Detail)
			}
		}
	}
	var hl Health
	decode(t, serve(h, "GET", "/v1/health", "", ""), &hl)
	if hl.Limits.Plan != "free" || hl.Limits.MaxBodyBytes != FreeMaxBodyBytes || hl.Limits.Rates != FreeMaxRates {
		t.Errorf("health: %+v", hl.Limits)
	}
}
