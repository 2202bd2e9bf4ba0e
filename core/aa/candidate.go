package aa

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

// compareCandidate compares the candidate with the baseline: see Check.
func compareCandidate(base *Side, baseIdx map[string]int, cand *Side, s float64) (*Candidate, []string, error) {
	candIdx, err := checkTallies("candidate", cand)
	if err != nil {
		return nil, nil, err
	}
	var onlyBase, onlyCand []string
	nOnlyBase, nOnlyCand := 0, 0
	type common struct {
		id   string
		diff float64
	}
	var diffs stat.Sum
	worst := make([]common, 0, 9)
	nCommon := 0
	for _, b := range base.Scenarios {
		j, ok := candIdx[b.ID]
		if !ok {
			nOnlyBase++
			if len(onlyBase) < 5 {
				onlyBase = append(onlyBase, b.ID)
			}
			continue
		}
		c := cand.Scenarios[j]
		d := float64(c.Passed)/float64(c.Total) - float64(b.Passed)/float64(b.Total)
		nCommon++
		diffs.Add(d)
		// Keep the 8 lowest (diff, id) in order: Python's stable sort of the
		// id-sorted scenarios by diff.
		if len(worst) == 8 && !lessDrop(d, b.ID, worst[7].diff, worst[7].id) {
			continue
		}
		pos := sort.Search(len(worst), func(i int) bool { return lessDrop(d, b.ID, worst[i].diff, worst[i].id) })
		worst = append(worst, common{})
		copy(worst[pos+1:], worst[pos:])
		worst[pos] = common{b.ID, d}
		if len(worst) > 8 {
			worst = worst[:8]
		}
	}
	for _, c := range cand.Scenarios {
		if _, ok := baseIdx[c.ID]; !ok {
			nOnlyCand++
			if len(onlyCand) < 5 {
				onlyCand = append(onlyCand, c.ID)
			}
		}
	}
	if nCommon == 0 {
		msg := "the candidate shares no scenario with the baseline"
		if len(cand.Scenarios) == 0 {
			msg = "the candidate has no rows"
		}
		return nil, nil, &core.Error{Kind: core.Unusable, Field: "candidate", Msg: msg}
	}
	rb, rc := float64(len(base.Runs)), float64(len(cand.Runs))
	c := &Candidate{
		Runs:         len(cand.Runs),
		Scenarios:    nCommon,
		Diff:         diffs.Sum() / float64(nCommon),
		Threshold:    float64(float64(ZAlarm*s)/math.Sqrt(2)) * math.Sqrt(1/rb+1/rc),
		LargestDrops: make([]Drop, len(worst)),
	}
	for i, x := range worst {
		c.LargestDrops[i] = Drop{Scenario: x.id, Diff: x.diff}
	}
	c.Blocks = c.Diff < -c.Threshold
	c.Verdict = core.VerdictNoRegression
	if c.Blocks {
		c.Verdict = core.VerdictRegression
	}

	w := []string{}
	if nOnlyBase > 0 || nOnlyCand > 0 {
		var parts []string
		if nOnlyBase > 0 {
			parts = append(parts, fmt.Sprintf("%s only in the baseline (%s)", core.Nouns(nOnlyBase, "scenario"), listIDs(onlyBase, nOnlyBase)))
		}
		if nOnlyCand > 0 {
			parts = append(parts, fmt.Sprintf("%s only in the candidate (%s)", core.Nouns(nOnlyCand, "scenario"), listIDs(onlyCand, nOnlyCand)))
		}
		w = append(w, fmt.Sprintf("%s; the comparison uses the %d scenarios both sides have", strings.Join(parts, " and "), nCommon))
	}
	if cand.Duplicates > 0 {
		w = append(w, fmt.Sprintf("candidate: %s repeat a (scenario, run) pair seen before; they are counted again, as extra trials", core.Nouns(cand.Duplicates, "row")))
	}
	return c, w, nil
}

func lessDrop(d1 float64, id1 string, d2 float64, id2 string) bool {
	if d1 != d2 {
		return d1 < d2
	}
	return id1 < id2
}

func listIDs(ids []string, total int) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	s := strings.Join(q, ", ")
	if total > len(ids) {
		s += fmt.Sprintf(" and %d more", total-len(ids))
	}
	return s
}
