package apitest

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// The worst requests a deployment accepts: for each route, the request
// that reaches the API's limits (functions/api/limits.go) at once, as far
// as the body limit lets it. The limits test measures their answers and
// memory in process, the load test on each platform. Each is built for a
// body limit, since Lambda's 6 MB lets less through than 32 MiB.
//
// The numbers here are the limits' values; the limits test checks that
// each request is accepted, and PastLimits that one more of what it is
// made of is refused.
const (
	worstRates     = 1000
	worstTests     = 3000
	worstCells     = 50_000
	worstScenarios = 10_000
	worstRuns      = 5000
	// worstName is the length of the test and scenario names: long names
	// make long answers.
	worstName = 120
)

// name is a test or scenario name of worstName bytes, unique for i.
func name(prefix string, i int) string {
	s := fmt.Sprintf("%s/%06d::", prefix, i)
	return s + strings.Repeat("x", worstName-len(s))
}

// gen is a body written by rows(w), buffered.
func gen(rows func(w *bufio.Writer)) func(io.Writer) {
	return func(w io.Writer) {
		bw := bufio.NewWriterSize(w, 64<<10)
		rows(bw)
		bw.Flush()
	}
}

// Worst are the worst accepted requests for a deployment whose body limit
// is limit and whose A/A work budget is steps: budget (the most rates),
// ledger and flakes (the most tests listed, in as many runs as fit),
// aa-wide (every scenario listed), aa-long (every run permuted) and
// aa-sim (the largest simulation), quarantine-write (the largest registry)
// and quarantine-check (a registry of the most tests, checked against as
// many runs of them as fit), history (a zip archive of as many runs of the
// most tests as unpack within its limit).
func Worst(limit int64, steps float64) []Case {
	return []Case{
		WorstBudget(worstRates),
		worstLedger(limit, "/v1/ledger?min_trials=1", false),
		worstLedger(limit, "/v1/flakes", true),
		worstLedgerRows(limit),
		worstAAWide(limit),
		worstAALong(),
		worstAASim(steps),
		worstQuarantineWrite(),
		worstQuarantineCheck(limit),
		worstHistory(limit),
	}
}

// WorstBudget asks for n rates in one POST.
func WorstBudget(n int) Case {
	rates := make([]string, n)
	for i := range rates {
		rates[i] = fmt.Sprintf("0.%06d", 100+i*97) // distinct, each in (0, 0.1)
	}
	body := `{"target":0.95,"cost_seconds":8,"cap":3,"observe":"1/120","rates":[` + strings.Join(rates, ",") + `]}`
	return Case{Name: fmt.Sprintf("worst-budget-%d-rates", n), Method: "POST", URL: "/v1/budget",
		Header: map[string]string{"Content-Type": "application/json"}, Body: body, Status: 200}
}

// ledgerRow is one seed JSONL ledger row.
func ledgerRow(w io.Writer, run int, arm, test, outcome string) (int, error) {
	return fmt.Fprintf(w, `{"run":"r%d","arm":"%s","nodeid":"%s","when":"call","outcome":"%s"}`+"\n", run, arm, test, outcome)
}

// worstLedger is a seed JSONL ledger of worstTests tests, with as many runs
// as the body limit and the cells limit let in: in both arms for ledger;
// for flakes, in one arm, every test failing once and then passing in
// every run.
func worstLedger(limit int64, url string, flaky bool) Case {
	arms := []string{"baseline", "patched"}
	if flaky {
		arms = arms[:1]
	}
	rowBytes, _ := ledgerRow(io.Discard, 99, "baseline", name("tests/test_worst.py", 0), "passed")
	perRun := int64(worstTests * len(arms) * (rowBytes + 1))
	if flaky {
		perRun *= 2
	}
	runs := max(1, int(min(limit*95/100/perRun, int64(worstCells/(len(arms)*worstTests)))))
	route := strings.TrimPrefix(strings.SplitN(url, "?", 2)[0], "/v1/")
	return Case{Name: fmt.Sprintf("worst-%s-%d-tests-%d-runs", route, worstTests, runs), Method: "POST", URL: url,
		Header: map[string]string{"Content-Type": "application/x-ndjson"}, Status: 200,
		Gen: gen(func(w *bufio.Writer) {
			for run := range runs {
				for i := range worstTests {
					test := name("tests/test_worst.py", i)
					for _, arm := range arms {
						if flaky {
							ledgerRow(w, run, arm, test, "failed")
							ledgerRow(w, run, arm, test, "passed")
							continue
						}
						out := "passed"
						if (i+run)%7 == 0 {
							out = "failed"
						}
						ledgerRow(w, run, arm, test, out)
					}
				}
			}
		})}
}

// worstLedgerRows fills the body limit with rows of the cells the ledger
// keeps: every call of every test rerun within its run (the last call
// stands), so reading, not the answer, is the work.
func worstLedgerRows(limit int64) Case {
	const tests = worstTests
	rowBytes, _ := ledgerRow(io.Discard, 99, "baseline", name("tests/test_worst.py", 0), "passed")
	perRun := int64(tests * 2 * (rowBytes + 1))
	runs := max(1, int(min(limit*95/100/perRun, worstCells/(2*worstTests))))
	reruns := max(1, int(limit*95/100/(perRun*int64(runs))))
	return Case{Name: fmt.Sprintf("worst-ledger-%d-calls", tests*runs*2*reruns), Method: "POST", URL: "/v1/ledger?min_trials=1",
		Header: map[string]string{"Content-Type": "application/x-ndjson"}, Status: 200,
		Gen: gen(func(w *bufio.Writer) {
			for run := range runs {
				for i := range tests {
					test := name("tests/test_worst.py", i)
					for _, arm := range []string{"baseline", "patched"} {
						for k := range reruns {
							out := "passed"
							if (i+run+k)%7 == 0 {
								out = "failed"
							}
							ledgerRow(w, run, arm, test, out)
						}
					}
				}
			}
		})}
}

// worstAAWide is an A/A CSV of worstScenarios scenarios that all went both
// ways (all of them listed in the answer), in as many runs as the body
// limit lets in.
func worstAAWide(limit int64) Case {
	perRun := int64(worstScenarios * (worstName + len(",r0000,1\n")))
	runs := max(3, int(min(limit*95/100/perRun, worstRuns)))
	return Case{Name: fmt.Sprintf("worst-aa-%d-scenarios-%d-runs", worstScenarios, runs), Method: "POST", URL: "/v1/aa",
		Header: map[string]string{"Content-Type": "text/csv"}, Status: 200,
		Gen: gen(func(w *bufio.Writer) {
			w.WriteString("scenario,run,passed\n")
			for run := range runs {
				for i := range worstScenarios {
					fmt.Fprintf(w, "%s,r%04d,%d\n", name("s", i), run, (i+run)%2)
				}
			}
		})}
}

// worstAALong is an A/A CSV of worstRuns runs of unequal sizes (the trend
// test permutes them all, the fixed-drop rule compares the pairs of the
// first 3,000) with a few scenarios.
func worstAALong() Case {
	return Case{Name: fmt.Sprintf("worst-aa-%d-runs", worstRuns), Method: "POST", URL: "/v1/aa",
		Header: map[string]string{"Content-Type": "text/csv"}, Status: 200,
		Gen: gen(func(w *bufio.Writer) {
			w.WriteString("scenario,run,passed\n")
			for run := range worstRuns {
				for i := range 4 {
					if i == 3 && run%2 == 0 {
						continue // unequal run sizes
					}
					fmt.Fprintf(w, "s%d,run-%05d,%d\n", i, run, (i*run+run/3)%2)
				}
			}
		})}
}

// worstAASim asks for the largest simulation a budget of steps allows (8
// steps a draw, see aa.Work) within the core's cap of 2e8 draws: 4 runs
// per side on 500 scenarios in 20 runs.
func worstAASim(steps float64) Case {
	const scen, runs, k = 500, 20, 4
	draws := min(steps*0.95/8, 2e8)
	sets := int(draws / (2 * k * scen))
	return Case{Name: fmt.Sprintf("worst-aa-simulation-%d-sets", sets), Method: "POST",
		URL:    fmt.Sprintf("/v1/aa?simulate=true&sets=%d&sim_k=%d", sets, k),
		Header: map[string]string{"Content-Type": "text/csv"}, Status: 200,
		Gen: gen(func(w *bufio.Writer) {
			w.WriteString("scenario,run,passed\n")
			for run := range runs {
				for i := range scen {
					fmt.Fprintf(w, "s%03d,r%02d,%d\n", i, run, (i*7+run*3)%5/4)
				}
			}
		})}
}

// PastLimits are requests just past the limits: one more of what each
// worst request is made of. Each must be refused with a 413 before its
// work starts.
func PastLimits() []Case {
	over := WorstBudget(worstRates + 1)
	over.Name, over.Status = "past-budget-rates", 413
	jsonl := map[string]string{"Content-Type": "application/x-ndjson"}
	csv := map[string]string{"Content-Type": "text/csv"}
	return append([]Case{
		over,
		{Name: "past-ledger-tests", Method: "POST", URL: "/v1/ledger", Header: jsonl, Status: 413,
			Gen: gen(func(w *bufio.Writer) {
				for i := range worstTests + 1 {
					ledgerRow(w, 1, "baseline", fmt.Sprint("t", i), "passed")
				}
			})},
		{Name: "past-flakes-cells", Method: "POST", URL: "/v1/flakes", Header: jsonl, Status: 413,
			Gen: gen(func(w *bufio.Writer) { // one test in worstCells + 1 runs
				for run := range worstCells + 1 {
					ledgerRow(w, run, "baseline", "t", "passed")
				}
			})},
		{Name: "past-aa-runs", Method: "POST", URL: "/v1/aa", Header: csv, Status: 413,
			Gen: gen(func(w *bufio.Writer) {
				w.WriteString("scenario,run,passed\n")
				for run := range worstRuns + 1 {
					fmt.Fprintf(w, "s,r%d,1\n", run)
				}
			})},
		{Name: "past-aa-scenarios", Method: "POST", URL: "/v1/aa", Header: csv, Status: 413,
			Gen: gen(func(w *bufio.Writer) {
				w.WriteString("scenario,run,passed\n")
				for i := range worstScenarios + 1 {
					fmt.Fprintf(w, "s%d,r,1\n", i)
				}
			})},
		{Name: "past-aa-counts-rows", Method: "POST", URL: "/v1/aa", Header: csv, Status: 413,
			Gen: gen(func(w *bufio.Writer) { // a counts CSV: a row per scenario and per run
				w.WriteString("scenario,run,passed,trials\n")
				for i := range worstScenarios + worstRuns + 1 {
					fmt.Fprintf(w, "s%d,,1,2\n", i)
				}
			})},
		{Name: "past-aa-simulation", Method: "POST", URL: "/v1/aa?simulate=true&sets=1000000&sim_k=64", Header: csv, Status: 413,
			Body: "scenario,run,passed\ns1,r1,1\ns1,r2,0\ns2,r1,0\ns2,r2,1\n"},
	}, pastQuarantine()...)
}
