package api

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/functions/api/apitest"
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
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	f, _ := zw.Create("run1/report.xml")
	f.Write([]byte(`<testsuite name="s">` + strings.Repeat(`<testcase name="t" classname="c"/>`, 1000) + `</testsuite>`))
	zw.Close()
	if zipped.Len() >= FreeMaxBodyBytes {
		t.Fatalf("the zip is %d bytes, not under the body limit", zipped.Len())
	}

	cases := apitest.PlanCases(FreeMaxRates, FreeMaxBodyBytes)
	cases = append(cases, apitest.Case{Name: "history-past-unzipped", Method: "POST", URL: "/v1/history",
		Header: map[string]string{"Content-Type": "application/zip"}, Body: zipped.String(), Status: 413})
	// What each refusal's detail says of the limit it passed.
	says := map[string]string{
		"budget-past-rates":     fmt.Sprintf("at most %d", FreeMaxRates),
		"aa-past-body":          "limit of 8 KiB",
		"aa-past-body-chunked":  "limit of 8 KiB",
		"aa-past-work":          "budget of 1e+06",
		"history-past-unzipped": "unpack to more than this server's limit of 12 KiB",
	}
	for _, c := range cases {
		w, err := apitest.InProcess(h, c, "testdata", FreeMaxBodyBytes)
		if err != nil {
			t.Fatal(err)
		}
		if w.Status != c.Status {
			t.Errorf("%s: %d %s, want %d", c.Name, w.Status, w.Body, c.Status)
			continue
		}
		if c.Status == 200 {
			continue
		}
		var p struct {
			Status int    `json:"status"`
			Detail string `json:"detail"`
		}
		if err := json.Unmarshal(w.Body, &p); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if ct := w.Header.Get("Content-Type"); ct != "application/problem+json" {
			t.Errorf("%s: Content-Type %q", c.Name, ct)
		}
		for _, s := range []string{says[c.Name], "Workers Free plan allows 10 ms of CPU time per request",
			`FLAKEGATE_PLAN = "paid"`, "the CLI (flakegate", "the local server (make run)"} {
			if !strings.Contains(p.Detail, s) {
				t.Errorf("%s: the detail does not say %q: %s", c.Name, s, p.Detail)
			}
		}
	}
	var hl Health
	decode(t, serve(h, "GET", "/v1/health", "", ""), &hl)
	if hl.Limits.Plan != "free" || hl.Limits.MaxBodyBytes != FreeMaxBodyBytes || hl.Limits.Rates != FreeMaxRates {
		t.Errorf("health: %+v", hl.Limits)
	}
}
