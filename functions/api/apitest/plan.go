package apitest

import (
	"fmt"
	"strings"
)

// PlanCases are requests at and just past a plan's limits of maxRates
// rates per budget and maxBody bytes of body, with an A/A simulation of
// 10,000 sets (past the Free plan's work budget): each within is answered
// 200, each past is a 413.
func PlanCases(maxRates int, maxBody int64) []Case {
	rates := func(n int) string {
		r := make([]string, n)
		for i := range r {
			r[i] = fmt.Sprintf("0.%04d", i+1)
		}
		return strings.Join(r, ",")
	}
	// csv has rows rows of 100 scenarios in rows/100 runs, 10 to 12 bytes
	// a row.
	csv := func(rows int) string {
		var b strings.Builder
		b.WriteString("scenario,run,passed\n")
		for i := range rows {
			fmt.Fprintf(&b, "s%03d,r%d,%d\n", i%100, i/100, i%3/2)
		}
		return b.String()
	}
	textCSV := map[string]string{"Content-Type": "text/csv"}
	return []Case{
		{Name: "budget-within", Method: "GET", URL: "/v1/budget?rates=" + rates(maxRates), Status: 200},
		{Name: "budget-past-rates", Method: "GET", URL: "/v1/budget?rates=" + rates(maxRates+1), Status: 413},
		{Name: "aa-within", Method: "POST", URL: "/v1/aa", Header: textCSV, Body: csv(200), Status: 200},
		{Name: "aa-past-body", Method: "POST", URL: "/v1/aa", Header: textCSV, Body: csv(int(maxBody / 10)), Status: 413},
		{Name: "aa-past-body-chunked", Method: "POST", URL: "/v1/aa", Header: textCSV, Body: csv(int(maxBody / 10)), Chunked: true, Status: 413},
		{Name: "aa-past-work", Method: "POST", URL: "/v1/aa?simulate=true&sets=10000", Header: textCSV, Body: csv(200), Status: 413},
	}
}
