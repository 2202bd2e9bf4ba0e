package gate

import (
	"testing"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/stat"
)

func TestNewArm(t *testing.T) {
	a := NewArm(core.Count{Passed: 17, Trials: 20}, stat.Z(0.95))
	if a.Rate == nil || *a.Rate != 0.85 || a.Passed != 17 || a.Trials != 20 {
		t.Fatalf("%+v", a)
	}
	if e := NewArm(core.Count{}, stat.Z(0.95)); e.Rate != nil || e.Lower != 0 || e.Upper != 1 {
		t.Fatalf("an empty arm has no rate and [0,1]: %+v", e)
	}
}
