package api

import (
	"bytes"
	"testing"

	"github.com/flakegate/flakegate/functions/api/apitest"
	"github.com/flakegate/flakegate/internal/testfile"
)

// The API's check of the week's third night is the CLI's, byte for byte:
// flakegate quarantine check -json on the same registry and report wrote
// cmd/flakegate/testdata/quarantine/night3.json.
func TestQuarantineCheckIsTheCLIs(t *testing.T) {
	want := testfile.Read(t, "../../cmd/flakegate/testdata/quarantine/night3.json")
	var c apitest.Case
	for _, k := range loadCorpus(t) {
		if k.Name == "quarantine-check-reports" {
			c = k
		}
	}
	// Without a link: the CLI's golden was made without -site.
	got, err := apitest.InProcess(New(Options{NoLinks: true}), c, "testdata", DefaultMaxBodyBytes)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != 200 || !bytes.Equal(got.Body, want) {
		t.Errorf("status %d; the body differs from the CLI's:\n%s", got.Status, got.Body)
	}
}
