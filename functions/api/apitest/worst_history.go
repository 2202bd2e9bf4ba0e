package apitest

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// The history route's limits (functions/api/history.go): what zip
// archives unpack to, and the distinct tests.
const (
	worstHistoryUnzipped = 64 << 20
	worstHistoryTests    = 20_000
)

// worstHistory is a zip archive of go test -json runs of worstHistoryTests
// tests each (names of worstName bytes), as many runs as unpack within the
// route's limit and fit the body limit; each of the first 2,900 tests
// fails in one of the first 8 runs (every one of them flaky, none failing
// with another in two runs: the answer lists nearly MaxTests) and the
// others pass.
func worstHistory(limit int64) Case {
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	var unzipped int64
	runs := 0
	for {
		var run bytes.Buffer
		bw := bufio.NewWriter(&run)
		for i := range worstHistoryTests {
			action := "pass"
			if i < 2900 && runs == i%8 {
				action = "fail"
			}
			fmt.Fprintf(bw, `{"Action":"run","Package":"example.com/worst","Test":"Test%s"}`+"\n", name("x", i)[2:])
			fmt.Fprintf(bw, `{"Action":"%s","Package":"example.com/worst","Test":"Test%s"}`+"\n", action, name("x", i)[2:])
		}
		bw.Flush()
		if unzipped+int64(run.Len()) > worstHistoryUnzipped*97/100 {
			break
		}
		before := z.Len()
		w, _ := zw.Create(fmt.Sprintf("runs/run%03d.json", runs+1))
		w.Write(run.Bytes())
		zw.Flush()
		if int64(z.Len())+int64(z.Len()-before) > limit*90/100 {
			break
		}
		unzipped += int64(run.Len())
		runs++
	}
	zw.Close()
	body := z.Bytes()
	return Case{Name: fmt.Sprintf("worst-history-%d-tests-%d-runs", worstHistoryTests, runs), Method: "POST", URL: "/v1/history",
		Header: map[string]string{"Content-Type": "application/zip"}, Status: 200,
		Gen: func(w io.Writer) { w.Write(body) }}
}
