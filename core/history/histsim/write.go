package histsim

import (
	"bufio"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/flakegate/flakegate/core/history"
)

// WriteJUnit writes one run as a JUnit XML report, as pytest and Surefire
// write one: a testsuite with the run's start as its timestamp, a testcase
// per attempt (a failed one with a <failure>), the test's name split at
// its last "/" into classname and name.
func WriteJUnit(w io.Writer, meta history.RunMeta, results []history.TestResult) error {
	bw := bufio.NewWriter(w)
	fails := 0
	for _, r := range results {
		fails += int(r.Trials - r.Passed)
	}
	bw.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n")
	bw.WriteString(`<testsuites><testsuite name="ci" tests="` + strconv.Itoa(len(results)) + `" failures="` + strconv.Itoa(fails) + `"`)
	if !meta.Time.IsZero() {
		bw.WriteString(` timestamp="` + meta.Time.UTC().Format("2006-01-02T15:04:05") + `"`)
	}
	bw.WriteString(">\n")
	for _, r := range results {
		class, name := "", r.Test
		if i := strings.LastIndexByte(r.Test, '/'); i >= 0 {
			class, name = r.Test[:i], r.Test[i+1:]
		}
		for a := range r.Trials {
			bw.WriteString(`  <testcase classname="`)
			xml.EscapeText(bw, []byte(class))
			bw.WriteString(`" name="`)
			xml.EscapeText(bw, []byte(name))
			bw.WriteString(`" time="0.010"`)
			if a < r.Trials-r.Passed {
				bw.WriteString(`><failure message="planted failure">planted</failure></testcase>` + "\n")
			} else {
				bw.WriteString("/>\n")
			}
		}
	}
	bw.WriteString("</testsuite></testsuites>\n")
	return bw.Flush()
}

// WriteGoTest writes one run as go test -json writes it, one package
// "example.com/ci" and per attempt a run and a pass or fail event, timed
// from the run's start.
func WriteGoTest(w io.Writer, meta history.RunMeta, results []history.TestResult) error {
	bw := bufio.NewWriter(w)
	t := meta.Time
	if t.IsZero() {
		t = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	}
	ts := `{"Time":"` + t.UTC().Format(time.RFC3339Nano) + `","Action":"`
	for _, r := range results {
		name := strconv.Quote(strings.ReplaceAll(r.Test, "/", "_"))
		for a := range r.Trials {
			action := "pass"
			if a < r.Trials-r.Passed {
				action = "fail"
			}
			bw.WriteString(ts + `run","Package":"example.com/ci","Test":` + name + "}\n")
			bw.WriteString(ts + action + `","Package":"example.com/ci","Test":` + name + `,"Elapsed":0.01}` + "\n")
		}
	}
	return bw.Flush()
}
