package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// EvalOptions say how to read an eval harness's log: which score decides
// whether a sample passed, and where a numeric score passes.
type EvalOptions struct {
	// Score names the score that decides: an inspect_ai scorer, an
	// lm-evaluation-harness metric, or the score field of a samples file.
	// Empty picks the log's first scorer (inspect), the first metric whose
	// values are 0 or 1 (lm-eval), or the field "score" (samples).
	Score string
	// Threshold is where a numeric score passes: a sample passes when its
	// score is at least Threshold. 0 means 1: only a full mark passes
	// (inspect's C is 1, P 0.5, I and N 0; a true is 1).
	Threshold float64
	// Filter is the lm-evaluation-harness filter whose rows count (gsm8k
	// writes strict-match and flexible-extract); empty takes the first
	// filter in the file.
	Filter string
	// ID and Run name the fields of a samples file (JSONL or CSV, one row
	// per sample) that hold the sample's id and, optionally, its run; an
	// empty Run makes the file one run. Empty ID means "id".
	ID, Run string
}

func (o EvalOptions) threshold() float64 {
	if o.Threshold == 0 {
		return 1
	}
	return o.Threshold
}

// scoreValue turns a score as eval harnesses write it into a number, as
// inspect_ai's value_to_float does: "C" 1, "P" 0.5, "I" and "N" 0, a
// boolean 1 or 0, "yes"/"true" 1, "no"/"false" 0, a number or a numeric
// string as itself. ok is false for anything else, and for null or a
// string that reads as NaN (a sample that was not scored). A NaN or
// infinite number (Python's json writes them) is a number here: the
// readers count it as missing first (nonFinite).
func scoreValue(v jsonScalar) (float64, bool) {
	switch v.kind {
	case "number":
		return v.n, true
	case "true":
		return 1, true
	case "false":
		return 0, true
	case "string":
		switch v.s {
		case "C":
			return 1, true
		case "P":
			return 0.5, true
		case "I", "N":
			return 0, true
		}
		switch strings.ToLower(strings.TrimSpace(v.s)) {
		case "yes", "true", "correct", "pass", "passed":
			return 1, true
		case "no", "false", "incorrect", "fail", "failed":
			return 0, true
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v.s), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// nonFinite counts the scores a Python harness wrote as NaN, Infinity or
// -Infinity (json.dumps writes float("nan") so): each is a missing score,
// left out, and the reader's warning counts and names them.
type nonFinite struct{ nan, inf int }

// missing reports whether v is a non-finite number, counting it.
func (n *nonFinite) missing(v jsonScalar) bool {
	switch {
	case v.kind != "number":
		return false
	case math.IsNaN(v.n):
		n.nan++
	case math.IsInf(v.n, 0):
		n.inf++
	default:
		return false
	}
	return true
}

// warn says how many scores of the run's file were not finite.
func (n nonFinite) warn(l interface{ Warn(string) }, run, what string) {
	if n.nan > 0 {
		l.Warn(fmt.Sprintf("run %s: %s of the %s %s NaN (Python's not-a-number): counted as missing", run, plural(n.nan, "score"), what, wereWas(n.nan)))
	}
	if n.inf > 0 {
		l.Warn(fmt.Sprintf("run %s: %s of the %s %s Infinity or -Infinity (Python's infinite floats): counted as missing", run, plural(n.inf, "score"), what, wereWas(n.inf)))
	}
}

func wereWas(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// evalTally counts what an eval reader saw, for its warnings.
type evalTally struct {
	unscored, errored int
	partial           bool // a score strictly between 0 and the threshold's full mark
}

func (t *evalTally) warn(l interface{ Warn(string) }, run, what string, threshold float64) {
	if t.errored > 0 {
		l.Warn("run " + run + ": " + plural(t.errored, "sample") + " of the " + what + " failed with an error; each is counted as a failed trial")
	}
	if t.unscored > 0 {
		l.Warn("run " + run + ": " + plural(t.unscored, "sample") + " of the " + what + " had no score; they are left out")
	}
	if t.partial {
		l.Warn("run " + run + ": some scores lie between 0 and 1; a sample passes at " + strconv.FormatFloat(threshold, 'g', -1, 64) + " or more (set the threshold to change that)")
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
