package report

import (
	"bytes"
	"cmp"
	"io"
	"sort"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// MaxGoTestLineBytes is the longest go test -json line readGoTest accepts.
// One line is one event; a test that prints a very long line makes a long
// output event.
const MaxGoTestLineBytes = 4 << 20

// goTestEvent is the part of a test2json event (go doc test2json) we use.
type goTestEvent struct {
	Action      string
	Package     string
	Test        string
	ImportPath  string // build-output and build-fail events (Go 1.24+)
	FailedBuild string // on a package's fail event when its build failed
	// Elapsed is the seconds of a pass or fail event, when the scanner was
	// asked for it (goTestScanner.elapsed) and the event has a finite
	// number >= 0 there; HasElapsed says so.
	Elapsed    float64
	HasElapsed bool
}

// goTestPackage is what readGoTest tracks of one package in the stream.
type goTestPackage struct {
	running  map[string]bool // tests started and not yet ended
	reported int             // test pass and fail events
	failed   int             // test fail events
	ended    bool
}

// readGoTest reads a go test -json stream as one run of arm; dur, when
// not nil, is given each test attempt's Elapsed (Options.Durations).
func readGoTest(r io.Reader, arm, run string, l *ledger.Ledger, dur func(string, float64)) error {
	lr := newLineReader(r, MaxGoTestLineBytes)
	scan := goTestScanner{elapsed: dur != nil}
	pkgs := map[string]*goTestPackage{}
	pkg := func(name string) *goTestPackage {
		p := pkgs[name]
		if p == nil {
			p = &goTestPackage{running: map[string]bool{}}
			pkgs[name] = p
		}
		return p
	}
	builds := map[string]bool{} // packages whose build failed, by import path
	var broken []string         // packages with no trials, and why
	brokenLine, trials := 0, 0
	var foreign, events int
	firstForeign := 0
	for line, err := range lr.lines(false) {
		if err != nil {
			return err
		}
		t := bytes.TrimSpace(line)
		if t[0] != '{' {
			// go test writes some lines outside test2json when stderr is
			// mixed in (go: downloading ..., a vet failure); they carry no
			// outcome.
			if foreign == 0 {
				firstForeign = lr.line
			}
			foreign++
			continue
		}
		if err := checkUTF8(line, lr.line); err != nil {
			return err
		}
		ev, err := scan.event(line, lr.line)
		if err != nil {
			return err
		}
		if ev.Action == "" {
			return core.PosErrorf(core.Invalid, lr.line, column(line, len(line)-len(bytes.TrimLeft(line, " \t"))),
				"not a go test -json event: no Action field")
		}
		events++
		switch ev.Action {
		case "build-fail":
			builds[buildPackage(ev.ImportPath)] = true
		case "output":
			// Before Go 1.24 a build failure shows only in the package's
			// output, "FAIL\tpkg [build failed]"; the text has no escapes.
			if ev.Test == "" && bytes.Contains(line, []byte("[build failed]")) {
				builds[ev.Package] = true
			}
		case "run":
			if ev.Test != "" {
				pkg(ev.Package).running[ev.Test] = true
			}
		case "pass", "fail":
			if ev.Test != "" {
				p := pkg(ev.Package)
				delete(p.running, ev.Test)
				p.reported++
				if ev.Action == "fail" {
					p.failed++
				}
				name := goTestName(ev.Package, ev.Test)
				l.AddTrial(arm, run, name, ev.Action == "pass")
				if dur != nil && ev.HasElapsed {
					dur(name, ev.Elapsed)
				}
				trials++
				continue
			}
			p := pkg(ev.Package)
			p.ended = true
			if ev.Action == "pass" {
				continue
			}
			if ev.FailedBuild != "" || builds[ev.Package] {
				broken = append(broken, ev.Package+" did not build")
				brokenLine = cmp.Or(brokenLine, lr.line)
				continue
			}
			if len(p.running) > 0 {
				trials += len(p.running)
				neverReported(l, arm, run, ev.Package, p, "the package failed while they ran (a panic or a timeout)")
				continue
			}
			if p.reported == 0 {
				broken = append(broken, ev.Package+" failed before any of its tests reported (TestMain, init or a crash)")
				brokenLine = cmp.Or(brokenLine, lr.line)
				continue
			}
			if p.failed == 0 {
				warnf(l, "run %s: package %s failed outside its tests (TestMain or a check after the tests)", run, ev.Package)
			}
		case "skip":
			if ev.Test != "" {
				delete(pkg(ev.Package).running, ev.Test)
			}
		}
	}
	names := make([]string, 0, len(pkgs))
	for name := range pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if p := pkgs[name]; len(p.running) > 0 {
			trials += len(p.running)
			neverReported(l, arm, run, name, p, "the stream ends before they do")
		}
	}
	failed := make([]string, 0, len(builds))
	for name := range builds {
		failed = append(failed, name)
	}
	sort.Strings(failed)
	for _, name := range failed {
		if p := pkgs[name]; p == nil || !p.ended {
			broken = append(broken, name+" did not build")
			brokenLine = cmp.Or(brokenLine, lr.line)
		}
	}
	if events == 0 {
		return core.PosErrorf(core.Invalid, max(lr.line, 1), 1, "no go test -json events in the report")
	}
	if len(broken) > 0 {
		// The other packages' tests still count; the broken ones have no
		// trials in this run, which the reader says rather than hides.
		if trials == 0 {
			return core.PosErrorf(core.Unusable, brokenLine, 1, "no test ran: package %s, so this run has no trials (fix the package or leave the file out)", core.ListNames(broken))
		}
		warnf(l, "run %s: %s left no trials in this run, the other packages' tests are counted: %s", run, core.Nouns(len(broken), "package"), core.ListNames(broken))
	}
	if foreign > 0 {
		warnf(l, "run %s: %d lines that are not go test -json events were left out (the first is line %d): is stderr mixed in?", run, foreign, firstForeign)
	}
	return nil
}

// neverReported counts each test still running in p as a failed trial.
func neverReported(l *ledger.Ledger, arm, run, pkgName string, p *goTestPackage, why string) {
	tests := make([]string, 0, len(p.running))
	for t := range p.running {
		tests = append(tests, t)
	}
	sort.Strings(tests)
	for _, t := range tests {
		l.AddTrial(arm, run, goTestName(pkgName, t), false)
	}
	clear(p.running)
	warnf(l, "run %s: %s of %s never reported, counted as failed trials: %s; %s", run, core.Nouns(len(tests), "test"), pkgName, core.ListNames(tests), why)
}

// goTestName is a test's ledger name: the package's import path, a dot,
// and the test's name with its subtests (example.com/p.TestX/sub). It is
// the name gotestsum's JUnit output gives the same test.
func goTestName(pkg, test string) string {
	if pkg == "" {
		return test
	}
	return pkg + "." + test
}

// buildPackage strips the " [pkg.test]" variant from a build-fail import path.
func buildPackage(importPath string) string {
	if i := strings.Index(importPath, " ["); i >= 0 {
		return importPath[:i]
	}
	return importPath
}
