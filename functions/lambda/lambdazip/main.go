// Command lambdazip writes the zip archive that Lambda's provided.al2023
// runtime takes as a function's code: one file, bootstrap, executable, at
// the archive's root. The archive is a function of the binary alone (a
// fixed time stamp), so the same build gives the same bytes.
//
//	go run ./functions/lambda/lambdazip -o flakegate-lambda-arm64.zip path/to/bootstrap
//
// `make lambda-zip` builds bootstrap for arm64 and x86_64 and runs it.
package main

import (
	"archive/zip"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	out := flag.String("o", "", "the zip `file` to write")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: lambdazip -o out.zip bootstrap")
		os.Exit(2)
	}
	if err := write(*out, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "lambdazip:", err)
		os.Exit(1)
	}
}

// stamp is every archive's time stamp: the runtime reads none.
var stamp = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// write zips the file bootstrap into out as "bootstrap", mode 0755.
func write(out, bootstrap string) (err error) {
	in, err := os.Open(bootstrap)
	if err != nil {
		return err
	}
	defer in.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(out)
		}
	}()
	zw := zip.NewWriter(f)
	hdr := &zip.FileHeader{Name: "bootstrap", Method: zip.Deflate, Modified: stamp}
	hdr.SetMode(0o755)
	w, err := zw.CreateHeader(hdr)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, in); err != nil {
		return fmt.Errorf("%s: %v", bootstrap, err)
	}
	return zw.Close()
}
