package apitest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/quarantine"
)

// The worst quarantine requests: a registry of the most tests the API
// takes (worstTests), as large as the registry format allows
// (quarantine.MaxBytes), written back by /v1/quarantine/write; and a
// check of such a registry against reports of every test in as many runs
// as the body and the cells limit let in.

// worstToday is the date of every worst quarantine request.
const worstToday = "2026-11-25"

// worstRegistry is a registry of n tests whose ids, owners and reasons
// are each about field bytes long (at least what numbers them), in the
// form the CLI writes.
func worstRegistry(n, field int) []byte {
	reg := &quarantine.Registry{Version: quarantine.Version}
	for i := range n {
		reg.Tests = append(reg.Tests, quarantine.NewEntry(registryID(i, field), padded("owner", i, field), padded("reason", i, field),
			worstToday, "2026-12-31", core.Count{Passed: int64(40 + i%20), Trials: 60}, core.DefaultConfidence, quarantine.DefaultRelease))
	}
	var b bytes.Buffer
	if err := quarantine.Write(&b, reg); err != nil {
		panic(err) // the entries are built valid
	}
	return b.Bytes()
}

// registryID is the id of test i, about field bytes long.
func registryID(i, field int) string { return padded("example.com/worst/pkg.Test", i, field) }

// padded is what, numbered i, padded with letters to n bytes.
func padded(what string, i, n int) string {
	s := fmt.Sprintf("%s%05d", what, i)
	return s + strings.Repeat("x", max(0, n-len(s)))
}

// registryField is the longest id, owner and reason (at most
// quarantine.MaxTextBytes) that keep a registry of worstTests tests within
// quarantine.MaxBytes, with 2% to spare.
func registryField() int {
	short := len(worstRegistry(2, 0)) - len(worstRegistry(1, 0)) // one entry, fields as short as they come
	spare := (quarantine.MaxBytes*98/100)/worstTests - short
	return min(quarantine.MaxTextBytes, len(padded("reason", 0, 0))+spare/3)
}

// worstQuarantineWrite sends the largest registry the API takes to
// /v1/quarantine/write with no reports: the answer is the registry again.
func worstQuarantineWrite() Case {
	body := worstRegistry(worstTests, registryField())
	return Case{Name: fmt.Sprintf("worst-quarantine-write-%d-tests-%d-bytes", worstTests, len(body)), Method: "POST",
		URL:    "/v1/quarantine/write?today=" + worstToday,
		Header: map[string]string{"Content-Type": "application/json"}, Status: 200, Body: string(body)}
}

// worstQuarantineCheck checks a registry of worstTests tests (fields of
// 48 bytes, so that the answer, with every test's evidence, fits the
// answer limit) against a seed ledger of every one of them in as many runs as the
// body limit (base64-encoded, as Lambda sends it) and the cells limit let
// in, one test in seven failing in each.
func worstQuarantineCheck(limit int64) Case {
	const field = 48
	reg := worstRegistry(worstTests, field)
	id := func(i int) string { return registryID(i, field) }
	rowBytes, _ := ledgerRow(io.Discard, 99, "baseline", id(0), "passed")
	perRun := int64(worstTests * (rowBytes + 1))
	// A multipart body reaches Lambda base64-encoded, a third larger: 70%
	// of the limit leaves room for that.
	runs := max(1, int(min((limit*70/100-int64(len(reg)))/perRun, int64(worstCells/worstTests))))
	return Case{Name: fmt.Sprintf("worst-quarantine-check-%d-tests-%d-runs", worstTests, runs), Method: "POST",
		URL:    "/v1/quarantine/check?today=" + worstToday,
		Header: map[string]string{"Content-Type": "multipart/form-data; boundary=" + Boundary}, Status: 200,
		Gen: func(w io.Writer) {
			bw := bufio.NewWriterSize(w, 64<<10)
			mw := multipart.NewWriter(bw)
			mw.SetBoundary(Boundary)
			p, _ := mw.CreateFormFile("registry", "quarantine.json")
			p.Write(reg)
			p, _ = mw.CreateFormFile("report", "ledger.jsonl")
			for run := range runs {
				for i := range worstTests {
					out := "passed"
					if (i+run)%7 == 0 {
						out = "failed"
					}
					ledgerRow(p, run, "baseline", id(i), out)
				}
			}
			mw.Close()
			bw.Flush()
		}}
}

// pastQuarantine are registries past the API's limits: one test more than
// it takes, as many short entries as the format's size lets in, and as
// many values.
func pastQuarantine() []Case {
	c := func(name, body string) Case {
		return Case{Name: name, Method: "POST", URL: "/v1/quarantine/check?today=" + worstToday,
			Header: map[string]string{"Content-Type": "application/json"}, Status: 413, Body: body}
	}
	return []Case{
		c("past-quarantine-tests", string(worstRegistry(worstTests+1, 0))),
		c("past-quarantine-9000-short-tests", registryMany(9000)),
		c("past-quarantine-value-bomb", RegistryValueBomb()),
	}
}

// RegistryValueBomb is a registry file within the format's size
// (quarantine.MaxBytes) made of lists of zeros: two million values, which
// a reader that builds a tree of the file before it checks the fields
// would hold in hundreds of MB.
func RegistryValueBomb() string {
	var b strings.Builder
	b.WriteString(`{"version":1,"tests":[`)
	row := "[" + strings.Repeat("0,", 9999) + "0]"
	for i := 0; b.Len()+len(row)+3 < quarantine.MaxBytes; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(row)
	}
	b.WriteString("]}")
	return b.String()
}

// registryMany is a registry of n entries as short as the format allows,
// written compactly: as many tests as fit in few bytes.
func registryMany(n int) string {
	var b strings.Builder
	b.WriteString(`{"version":1,"tests":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"test":"t%d","owner":"o","reason":"r","opened":"2026-11-20","expires":"2026-12-31",`+
			`"claim":{"passed":60,"trials":60,"rate":1,"lower":0.93982814785791,"upper":1,"confidence":0.95,"date":"2026-11-20"},`+
			`"release":{"below":0.001,"confidence":0.95},"since":{"passed":0,"trials":0,"clean":0}}`, i)
	}
	b.WriteString("]}")
	return b.String()
}
