package flaky

import (
	"os"
	"testing"
	"time"
)

func TestStable(t *testing.T) {}

func TestFlaky(t *testing.T) {
	if Fails(t.Name(), 0.3) {
		t.Fatal("flaked (seeded)")
	}
}

func TestTable(t *testing.T) {
	for _, c := range []struct {
		name string
		rate float64
	}{{"rare", 0.05}, {"often", 0.5}, {"never", 0}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if Fails(t.Name(), c.rate) {
				t.Errorf("%s flaked (seeded)", c.name)
			}
		})
	}
}

func TestSkipped(t *testing.T) { t.Skip("a skip is no trial") }

// TestHang panics (FLAKY_PANIC=1) or hangs past -timeout (FLAKY_HANG=1) so
// that a report has a test that never reports.
func TestHang(t *testing.T) {
	if os.Getenv("FLAKY_PANIC") == "1" {
		panic("seeded panic")
	}
	if os.Getenv("FLAKY_HANG") == "1" {
		time.Sleep(time.Hour)
	}
}
