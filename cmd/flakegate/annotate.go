package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core/gate"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/internal/words"
)

// Annotations are GitHub Actions workflow commands ("::error file=F,
// title=T::message") that a step prints on its standard output; GitHub
// shows them on the run and on the pull request. flakegate prints one per
// test that blocks (naming the report that showed its failures) and one per
// caveat. Values are escaped by GitHub's own rules (actions/toolkit,
// packages/core/src/command.ts): in the message, % CR and LF as %25 %0D
// %0A; in a property also : and , as %3A and %2C.

// annotation is one workflow command.
type annotation struct {
	level string // error, warning or notice
	file  string // the report that showed it; "" for none
	title string
	msg   string
}

func (a annotation) String() string {
	var props []string
	if a.file != "" {
		props = append(props, "file="+escapeProperty(a.file))
	}
	if a.title != "" {
		props = append(props, "title="+escapeProperty(a.title))
	}
	s := "::" + a.level
	if len(props) > 0 {
		s += " " + strings.Join(props, ",")
	}
	return s + "::" + escapeData(a.msg)
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// caveatNotes are the warnings of a result as annotations.
func caveatNotes(ws []string) []annotation {
	out := make([]annotation, len(ws))
	for i, w := range ws {
		out[i] = annotation{level: "warning", title: "flakegate caveat", msg: w}
	}
	return out
}

// answerNotes is the notes of a result about no single test: its answer
// (resultNote), then its warnings (caveatNotes).
func answerNotes(blocks bool, warnings []string, answer func() string) func() []annotation {
	return func() []annotation {
		return append([]annotation{resultNote(blocks, answer())}, caveatNotes(warnings)...)
	}
}

// resultNote is the answer of a result about no single test: an error when
// the gate blocks, a notice otherwise.
func resultNote(blocks bool, answer string) annotation {
	if blocks {
		return annotation{level: "error", title: "flakegate blocks", msg: answer}
	}
	return annotation{level: "notice", title: "flakegate", msg: answer}
}

// reportsOf lists the files (reports, each a run) that showed test
// failing, the patched arm's first, in the order they were read; when none
// did (a test that blocks for too few trials), the files it ran in.
func (e *env) reportsOf(l *ledger.Ledger, test string) []string {
	for _, failing := range []bool{true, false} {
		var out []string
		seen := map[string]bool{}
		for _, arm := range []string{ledger.ArmPatched, ledger.ArmBaseline} {
			tests, runs := l.Tests(arm), l.Runs(arm)
			for _, c := range l.Cells(arm) {
				if tests[c.Test] != test || failing && c.Passed == c.Trials {
					continue
				}
				f := e.runFile[arm+"\x00"+runs[c.Run]]
				if f != "" && !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// testNote is an annotation about one test, placed on the first report
// that showed it failing (reportsOf), naming the others.
func (e *env) testNote(l *ledger.Ledger, level, test, msg string) annotation {
	files := e.reportsOf(l, test)
	a := annotation{level: level, title: "flakegate: " + test, msg: msg}
	if len(files) > 0 {
		a.file = files[0]
		if len(files) > 1 {
			a.msg += " Reports: " + strings.Join(files[:min(len(files), 4)], ", ")
			if len(files) > 4 {
				a.msg += " and " + strconv.Itoa(len(files)-4) + " more"
			}
			a.msg += "."
		}
	}
	return a
}

// budgetNotes: each rate's sentence, an error when the cap cannot see it.
func budgetNotes(r *gate.BudgetResult) []annotation {
	var out []annotation
	for _, row := range r.Rows {
		level := "notice"
		if row.OverCap {
			level = "error"
		}
		out = append(out, annotation{level: level, title: "flakegate: " + words.Article(words.Percent(row.Rate)) + " flake", msg: sentence(words.BudgetSentence(r, row))})
	}
	return append(out, caveatNotes(r.Warnings)...)
}

// flakesNotes: each flaky test, an error when its budget is over the cap,
// a warning otherwise, on the report that showed it flaking.
func (e *env) flakesNotes(l *ledger.Ledger, r *ledger.FlakesResult) []annotation {
	var out []annotation
	for _, f := range r.Flakes {
		level := "warning"
		if f.Budget.Blocks() {
			level = "error"
		}
		msg := fmt.Sprintf("%s failed %s of %s executions; %s.", f.NodeID, words.Count(f.Fails), words.Count(f.Executions),
			words.BudgetSentence(f.Budget, f.Budget.Rows[0]))
		out = append(out, e.testNote(l, level, f.NodeID, msg))
	}
	return append(out, caveatNotes(r.Warnings)...)
}

// ledgerNotes: an error per test that blocks, on the report that showed
// its failures.
func (e *env) ledgerNotes(l *ledger.Ledger, r *ledger.Result) []annotation {
	var out []annotation
	for _, t := range r.Tests {
		if t.Blocks {
			msg := words.GateSentence(t.Gate) + ": " + words.VerdictClause(t.Verdict, t.Baseline, t.Patched, r.MinTrials, r.Confidence) + "."
			out = append(out, e.testNote(l, "error", t.NodeID, msg))
		}
	}
	return append(out, caveatNotes(r.Warnings)...)
}

// sentence is s with a capital letter and a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}
