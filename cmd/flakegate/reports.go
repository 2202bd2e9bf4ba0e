package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// fileList is a repeatable flag naming input files.
type fileList []string

func (f *fileList) String() string { return strings.Join(*f, ",") }

func (f *fileList) Set(s string) error {
	if s == "" {
		return fmt.Errorf("empty file name")
	}
	*f = append(*f, s)
	return nil
}

func filesFlag(fs *flag.FlagSet, name, usage string) *fileList {
	var l fileList
	fs.Var(&l, name, usage)
	return &l
}

// readReports reads test reports (seed JSONL ledger, go test -json, JUnit
// XML; format "" detects) into l; for go test -json and JUnit each file is
// one run of arm.
func readReports(e *env, l *core.Ledger, files []string, format, arm string) error {
	for _, name := range files {
		f, err := e.open(name)
		if err != nil {
			return err
		}
		err = core.ReadReport(f, core.ReportOptions{Format: format, Arm: arm}, l)
		f.Close()
		if err != nil {
			return core.WithFile(err, displayName(name))
		}
	}
	return nil
}

const formatUsage = "report `format`: ledger, gotest or junit (default: detected from the content)"
