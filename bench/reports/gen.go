package main

import (
	"fmt"
	"io"
	"strings"
)

// generators write a report of about size bytes.
var generators = map[string]func(w io.Writer, size int64) (int64, error){
	"gotest":     generateGoTest,
	"junit":      generateJUnit,
	"playwright": generatePlaywright,
	"inspect":    generateInspect,
	"ledger":     generateLedger,
}

// counter counts what is written.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) printf(format string, args ...any) error {
	n, err := fmt.Fprintf(c.w, format, args...)
	c.n += int64(n)
	return err
}

// generateJUnit writes a Surefire-like report: suites of 40 testcases with
// a few lines of system-out; one in 37 fails with a stack trace, one in 53
// has a flakyFailure before its pass.
func generateJUnit(w io.Writer, size int64) (int64, error) {
	c := &counter{w: w}
	trace := strings.Repeat("\tat com.example.big.Suite.check(Suite.java:42)\n", 8)
	c.printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n")
	for i := 0; c.n < size; i++ {
		if i%40 == 0 {
			if i > 0 {
				c.printf("</testsuite>\n")
			}
			c.printf("<testsuite name=\"com.example.big.Suite%02d\" tests=\"40\">\n", i/40%50)
		}
		c.printf("  <testcase name=\"test%03d\" classname=\"com.example.big.Suite%02d\" time=\"0.012\">\n", i%40, i/40%50)
		if i%53 == 0 {
			c.printf("    <flakyFailure message=\"expected 3 but was 2\" type=\"java.lang.AssertionError\"><![CDATA[%s]]></flakyFailure>\n", trace)
		}
		if i%37 == 0 {
			c.printf("    <failure message=\"expected 3 but was 2\" type=\"java.lang.AssertionError\"><![CDATA[%s]]></failure>\n", trace)
		}
		c.printf("    <system-out><![CDATA[checked %d cases\nall good here\n]]></system-out>\n  </testcase>\n", i)
	}
	err := c.printf("</testsuite>\n</testsuites>\n")
	return c.n, err
}

// generatePlaywright writes Playwright's JSON reporter output: one file
// suite per 40 specs, each test with one result (two when it was retried,
// one in 29), errors with a stack on failures.
func generatePlaywright(w io.Writer, size int64) (int64, error) {
	c := &counter{w: w}
	c.printf(`{"config": {"rootDir": "/home/user/project", "projects": [{"name": "chromium"}]}, "suites": [`)
	result := func(status string, retry int) string {
		errs := ""
		if status == "failed" {
			errs = `, "errors": [{"message": "Error: expect(received).toBe(expected)\n\nExpected: \"Bye\"\nReceived: \"Hi\"", "stack": "    at /home/user/project/page.spec.js:14:45"}]`
		}
		return fmt.Sprintf(`{"workerIndex": 0, "status": %q, "duration": 361, "retry": %d, "startTime": "2026-12-02T09:48:15.126Z", "attachments": [], "stdout": [], "stderr": []%s}`, status, retry, errs)
	}
	for s := 0; c.n < size; s++ {
		if s > 0 {
			c.printf(",")
		}
		c.printf(`{"title": "spec%05d.spec.js", "file": "spec%05d.spec.js", "line": 0, "column": 0, "specs": [`, s, s)
		for i := 0; i < 40; i++ {
			if i > 0 {
				c.printf(",")
			}
			results := result("passed", 0)
			switch {
			case i%29 == 0:
				results = result("failed", 0) + ", " + result("passed", 1)
			case i%37 == 0:
				results = result("failed", 0) + ", " + result("failed", 1)
			}
			c.printf(`{"title": "does thing %d", "ok": true, "tags": [], "tests": [{"timeout": 30000, "annotations": [], "expectedStatus": "passed", "projectId": "chromium", "projectName": "chromium", "results": [%s], "status": "expected"}], "id": "x%d-%d", "file": "spec%05d.spec.js", "line": %d, "column": 3}`, i, results, s, i, s, 10+i)
		}
		c.printf(`]}`)
	}
	err := c.printf(`], "errors": [], "stats": {"expected": 1}}` + "\n")
	return c.n, err
}

// generateInspect writes an inspect_ai JSON log: samples of 1,000 ids over
// epochs, each with a short conversation and two scorers.
func generateInspect(w io.Writer, size int64) (int64, error) {
	c := &counter{w: w}
	c.printf(`{"version": 2, "status": "success", "eval": {"task": "big", "model": "mockllm/model", "config": {"epochs": 1000}}, "samples": [`)
	for i := 0; c.n < size; i++ {
		if i > 0 {
			c.printf(",\n")
		}
		v := "C"
		if i%7 == 0 {
			v = "I"
		}
		c.printf(`{"id": %d, "epoch": %d, "input": "What is %d + %d?", "target": "%d", "messages": [{"role": "user", "content": "What is %d + %d? Think step by step and answer with a number."}, {"role": "assistant", "content": "Adding the two numbers gives %d. The answer is %d."}], "output": {"model": "mockllm/model", "choices": [{"message": {"role": "assistant", "content": "The answer is %d."}, "stop_reason": "stop"}], "usage": {"input_tokens": 31, "output_tokens": 12, "total_tokens": 43}}, "scores": {"match": {"value": %q, "answer": "%d", "explanation": "The answer is %d."}, "graded": {"value": 0.75}}, "metadata": {}, "store": {}, "events": []}`,
			i%1000, i/1000+1, i, i, 2*i, i, i, 2*i, 2*i, 2*i, v, 2*i, 2*i)
	}
	err := c.printf("]}\n")
	return c.n, err
}

// generateLedger writes the per-trial JSONL ledger as flakegate run writes
// it: runs of 2,000 tests (50 packages of 40) alternating between the two
// arms, one in 37 trials failing, and after each run its run record.
func generateLedger(w io.Writer, size int64) (int64, error) {
	c := &counter{w: w}
	for run := 0; c.n < size; run++ {
		arm := [2]string{"baseline", "patched"}[run%2]
		passed := 0
		for i := range 2000 {
			outcome := "passed"
			if (run*2000+i)%37 == 0 {
				outcome = "failed"
			} else {
				passed++
			}
			if err := c.printf(`{"run":"r%d","arm":"%s","nodeid":"tests/pkg%02d/test_big.py::test_%03d","when":"call","outcome":"%s","ts":%d.%03d}`+"\n",
				run, arm, i/40, i%40, outcome, 1700000000+run, i%1000); err != nil {
				return c.n, err
			}
		}
		if err := c.printf(`{"run":"r%d","arm":"%s","when":"run","outcome":"done","seq":%d,"trials":2000,"passed":%d,"exit":1,"seconds":61.5,"command":"pytest -p flake_ledger","ts":%d}`+"\n",
			run, arm, run+1, passed, 1700000000+run); err != nil {
			return c.n, err
		}
	}
	return c.n, nil
}
