package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
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
func readReports(e *env, l *ledger.Ledger, files []string, format, arm string) error {
	for _, name := range files {
		f, err := e.open(name)
		if err != nil {
			return err
		}
		err = report.Read(f, report.Options{Format: format, Arm: arm}, l)
		f.Close()
		if err != nil {
			return core.WithFile(err, displayName(name))
		}
	}
	return nil
}

var formatUsage = "report `format`: " + strings.Join(report.Formats, ", ") + " (default: detected from the content)"

// decimalInt is an int64 flag read in decimal only, as the calculator's
// form and the API read the same number: flag.Int64Var also takes 0x14,
// 0o24 and 1_000.
type decimalInt struct{ p *int64 }

func (d decimalInt) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.FormatInt(*d.p, 10)
}

func (d decimalInt) Set(s string) error {
	v, err := core.ParseInt(s)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%q is out of range", s)
		}
		return fmt.Errorf("%q is not a whole number in decimal", s)
	}
	*d.p = v
	return nil
}

// int64Flag defines a decimal int64 flag with a default of *p.
func int64Flag(fs *flag.FlagSet, p *int64, name, usage string) {
	fs.Var(decimalInt{p}, name, usage)
}
