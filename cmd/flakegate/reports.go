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

// armFlags are the flags of a command that reads each arm's runs from
// report files: the baseline arm's files, the other arm's (patched,
// candidate, side B) and the -format of them all.
type armFlags struct {
	baseline, other fileList
	format          string
}

// addArmFlags defines the flags of the arms' files, named baseline and
// other, and -format.
func addArmFlags(fs *flag.FlagSet, baseline, baselineUsage, other, otherUsage string) *armFlags {
	a := &armFlags{}
	fs.Var(&a.baseline, baseline, baselineUsage)
	fs.Var(&a.other, other, otherUsage)
	fs.StringVar(&a.format, "format", "", formatUsage)
	return a
}

// given is how many files the arms name.
func (a *armFlags) given() int { return len(a.baseline) + len(a.other) }

// read reads each arm's files into l with opt, in its format: the
// baseline's as ledger.ArmBaseline, the other's as ledger.ArmPatched.
func (a *armFlags) read(e *env, l *ledger.Ledger, opt report.Options) error {
	opt.Format = a.format
	for _, arm := range []struct {
		name  string
		files []string
	}{{ledger.ArmBaseline, a.baseline}, {ledger.ArmPatched, a.other}} {
		opt.Arm = arm.name
		if err := readRuns(e, l, arm.files, opt); err != nil {
			return err
		}
	}
	return nil
}

// readReports reads test reports and eval logs (format "" detects) into
// l, each file but a seed ledger one run of arm, named after the file.
func readReports(e *env, l *ledger.Ledger, files []string, format, arm string) error {
	return readRuns(e, l, files, report.Options{Format: format, Arm: arm})
}

// readRuns reads files into l with opt, naming each file's run after the
// file (a second file of the same name gets "#2").
func readRuns(e *env, l *ledger.Ledger, files []string, opt report.Options) error {
	for _, name := range files {
		f, err := e.open(name)
		if err != nil {
			return err
		}
		o := opt
		o.Run = runName(l, opt.Arm, displayName(name))
		before := runSet(l)
		err = report.Read(f, o, l)
		f.Close()
		if err != nil {
			return core.WithFile(err, displayName(name))
		}
		e.recordRuns(l, before, displayName(name))
	}
	return nil
}

// runSet is every run of l, as arm, NUL and run.
func runSet(l *ledger.Ledger) map[string]bool {
	out := map[string]bool{}
	for _, arm := range []string{ledger.ArmBaseline, ledger.ArmPatched} {
		for _, r := range l.Runs(arm) {
			out[arm+"\x00"+r] = true
		}
	}
	return out
}

// recordRuns notes file as the file of every run of l not in before: a
// report is a run named after its file, a seed ledger holds its own.
func (e *env) recordRuns(l *ledger.Ledger, before map[string]bool, file string) {
	if e.runFile == nil {
		e.runFile = map[string]string{}
	}
	for k := range runSet(l) {
		if !before[k] {
			e.runFile[k] = file
		}
	}
}

// runName is name, or name#2, #3... when arm already has a run of that name.
func runName(l *ledger.Ledger, arm, name string) string {
	taken := map[string]bool{}
	for _, r := range l.Runs(arm) {
		taken[r] = true
	}
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		if n := name + "#" + strconv.Itoa(i); !taken[n] {
			return n
		}
	}
}

// evalFlags are the flags that say how to read eval harness logs.
func evalFlags(fs *flag.FlagSet) *report.EvalOptions {
	var o report.EvalOptions
	fs.StringVar(&o.Score, "score", "", "eval logs: the `scorer` (inspect_ai), metric (lm-eval) or score field (samples) that decides a pass")
	fs.Var(core.FloatVar{P: &o.Threshold}, "threshold", "eval logs: a numeric score passes at this `value` or more (default 1)")
	fs.StringVar(&o.Filter, "filter", "", "lm-eval logs: the `filter` whose rows count (default: the first in the file)")
	fs.StringVar(&o.ID, "id-field", "", "samples files: the `field` that names the sample (default id)")
	fs.StringVar(&o.Run, "run-field", "", "samples files: the `field` that names the run (default: each file is one run)")
	return &o
}

// reportFileUsage says what a flag naming report files takes: any format
// Read reads, not the first few it read.
const reportFileUsage = "a test report `file` in any format -format names (go test -json, JUnit, TAP, Jest, Playwright, an eval log, a JSONL ledger, ...; detected from its content)"

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
