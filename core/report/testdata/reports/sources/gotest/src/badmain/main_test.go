package badmain

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	println("setup failed")
	os.Exit(1)
}

func TestNeverRuns(t *testing.T) {}
