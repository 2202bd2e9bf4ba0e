package words

import (
	"fmt"

	"github.com/flakegate/flakegate/core/gate"
)

// AnytimeSentence says what a two-arm verdict is when the counts may have
// been looked at after every trial: "Checked after every trial, the pass
// rate rose: baseline [4.4%, 43.9%], patched [70.5%, 99.5%] (95% anytime
// intervals, which hold however often the counts were looked at)."
func AnytimeSentence(r *gate.DecideResult) string {
	a := r.Anytime
	what := "no change is shown yet"
	if v := VerdictWords(a.Verdict); a.Verdict != "" && v != "no change shown" {
		what = "the pass rate " + v
	}
	return fmt.Sprintf("Checked after every trial, %s: baseline %s, patched %s (%s anytime intervals, which hold however often the counts were looked at).",
		what, Interval(a.Baseline.Lower, a.Baseline.Upper), Interval(a.Patched.Lower, a.Patched.Upper), Level(r.Confidence))
}
