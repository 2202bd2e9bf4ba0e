package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/report"
)

// FuzzClustersFromSamples: any bytes give groups or a *core.Error, never
// a panic, and every question read has one group.
func FuzzClustersFromSamples(f *testing.F) {
	f.Add([]byte(`{"id": "q1", "passage": "p1", "score": 1}` + "\n" + `{"id": "q2", "passage": "p1", "score": 0}` + "\n"))
	f.Add([]byte("id,passage,score\nq1,p1,1\nq2,p2,0\n"))
	f.Add([]byte(`{"id": "q1", "passage": "p1", "score": 1}` + "\n" + `{"id": "q1", "passage": "p2", "score": 0}` + "\n"))
	f.Add([]byte(`{"samples": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		clusters := map[string]string{}
		err := ClustersFromSamples(strings.NewReader(string(data)), "passage", report.EvalOptions{}, clusters)
		var ce *core.Error
		if err != nil && !errors.As(err, &ce) {
			t.Fatalf("error %T %v is not a *core.Error", err, err)
		}
	})
}

// FuzzCompareSides: two sides decoded from any bytes ("id:passed/total"
// items) give a result or a *core.Error, never a panic or a NaN.
func FuzzCompareSides(f *testing.F) {
	f.Add("q1:1/1 q2:0/1 q3:1/1", "q1:0/1 q2:1/1 q3:1/1")
	f.Add("q1:2/3 q2:0/3", "q1:3/3 q2:1/3")
	f.Add("q1:1/1", "q1:1/1")
	f.Fuzz(func(t *testing.T, a, b string) {
		res, err := Compare(sides(a), sides(b), DefaultOptions)
		var ce *core.Error
		if err != nil {
			if !errors.As(err, &ce) {
				t.Fatalf("error %T %v is not a *core.Error", err, err)
			}
			return
		}
		for _, v := range []float64{res.Diff, res.SE, res.Low, res.High, res.PValue, res.Plan.MDE} {
			if v != v {
				t.Fatalf("NaN in %+v", res)
			}
		}
	})
}
