package words

import (
	"strings"
	"testing"

	"github.com/flakegate/flakegate/core"
)

// The anytime sentence says the anytime verdict, not the fixed one: 10/20
// against 19/20 rose by Wilson's intervals but shows no change yet when
// the counts may have been watched (core/gate's TestAnytimeVerdict);
// 10/50 against 45/50 rose either way.
func TestAnytimeSentence(t *testing.T) {
	for _, c := range []struct {
		b, p core.Count
		want string
	}{
		{core.Count{Passed: 10, Trials: 20}, core.Count{Passed: 19, Trials: 20}, "Checked after every trial, no change is shown yet: baseline ["},
		{core.Count{Passed: 10, Trials: 50}, core.Count{Passed: 45, Trials: 50}, "Checked after every trial, the pass rate rose: baseline ["},
	} {
		got := AnytimeSentence(decided(t, c.b, c.p))
		if !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, "(95% anytime intervals, which hold however often the counts were looked at).") {
			t.Errorf("%q", got)
		}
	}
}
