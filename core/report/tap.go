package report

import (
	"bufio"
	"bytes"
	"cmp"
	"strconv"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// tapPoint parses a TAP test point (after its indent): "ok" or "not ok",
// an optional number, an optional "-", and the rest (the description and
// a directive). ok is false when the line is no test point.
func tapPoint(body string) (passed bool, num, rest string, ok bool) {
	switch {
	case strings.HasPrefix(body, "not ok"):
		body = body[len("not ok"):]
	case strings.HasPrefix(body, "ok"):
		passed = true
		body = body[len("ok"):]
	default:
		return false, "", "", false
	}
	if body != "" && body[0] != ' ' && body[0] != '\t' && body[0] != '-' {
		return false, "", "", false // "okay", "nothing"; "ok-name" is taken
	}
	body = strings.TrimLeft(body, " \t")
	i := 0
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	num, body = body[:i], strings.TrimLeft(body[i:], " \t")
	if strings.HasPrefix(body, "-") {
		body = strings.TrimLeft(body[1:], " \t")
	}
	return passed, num, body, true
}

// tapDirective finds an unescaped "# SKIP" or "# TODO" (any case, words
// like "skipped" too) in the rest of a point: the description is what
// comes before it.
func tapDirective(rest string) (desc, directive string) {
	for i := 0; i < len(rest); i++ {
		if rest[i] != '#' || (i > 0 && rest[i-1] == '\\') {
			continue
		}
		word := strings.ToLower(strings.TrimLeft(rest[i+1:], " \t"))
		for _, d := range []string{"skip", "todo"} {
			if strings.HasPrefix(word, d) {
				return rest[:i], d
			}
		}
	}
	return rest, ""
}

// readTAP reads a TAP stream (TAP 12, 13 and 14: node --test's tap
// reporter, Perl's Test::More as prove runs it, node-tap) as one run. Each
// test point is a trial, passed when it says "ok", except:
//   - a point with a # SKIP or # TODO directive (no trial: skipped, or an
//     expected failure);
//   - a point that closes a subtest: its indented block comes right
//     before it, and the subtest's own points are the trials.
//
// A subtest's points are named after it ("group › inner"), from the
// "# Subtest: name" comment TAP 14, node and Perl write before the block;
// a point without a description is named by its number. A point without a
// number has the number of the harness's own counter, as the TAP
// specification says (one more than the point before it in its block,
// until the numbers resume). YAML diagnostic
// blocks are skipped. "Bail out!" ends the run: the points before it count
// and a warning says so; so does a plan that promised more points than ran.
func readTAP(r *bufio.Reader, arm, run string, l *ledger.Ledger) error {
	lr := newLineReader(r, MaxLineBytes)
	var (
		subtests []tapSubtest // "# Subtest:" names by indent, outermost first
		prevInd  = -1         // indent of the previous point or plan line
		yamlInd  = -1         // indent of an open YAML block, or -1
		planned  = -1
		top      int // points at indent 0
		points   int
		seen     = map[string]int{}
		counter  = map[int]int{} // the last point's number, per indent
		bailLine int
		bailWhy  string
		anyLine  bool
	)
	for line, err := range lr.lines(true) {
		if err != nil {
			return err
		}
		if err := checkUTF8(line, lr.line); err != nil {
			return err
		}
		text := string(bytes.TrimRight(line, " \t\r"))
		ind := len(text) - len(strings.TrimLeft(text, " "))
		body := strings.TrimLeft(text, " \t")
		if yamlInd >= 0 {
			if body == "..." && ind >= yamlInd {
				yamlInd = -1
			}
			continue
		}
		switch {
		case body == "":
			continue
		case body == "---":
			yamlInd = ind
			continue
		case strings.HasPrefix(body, "# Subtest:"):
			tapNewBlock(counter, ind)
			for len(subtests) > 0 && subtests[len(subtests)-1].ind >= ind {
				subtests = subtests[:len(subtests)-1]
			}
			subtests = append(subtests, tapSubtest{ind: ind, name: strings.TrimSpace(strings.TrimPrefix(body, "# Subtest:"))})
			continue
		case strings.HasPrefix(body, "TAP version"):
			anyLine = true
			continue
		case strings.HasPrefix(body, "#"), strings.HasPrefix(body, "pragma "):
			continue
		case strings.HasPrefix(body, "Bail out!"):
			bailLine, bailWhy = lr.line, strings.TrimSpace(strings.TrimPrefix(body, "Bail out!"))
		case strings.HasPrefix(body, "1.."):
			anyLine = true
			tapEnterBlock(counter, prevInd, ind)
			if ind == 0 {
				if f := strings.Fields(body[3:]); len(f) > 0 {
					if n, err := strconv.Atoi(f[0]); err == nil {
						planned = n
					}
				}
			}
			prevInd = ind
			continue
		}
		if bailLine > 0 {
			break
		}
		passed, num, rest, isPoint := tapPoint(body)
		if !isPoint {
			continue // output that is not TAP
		}
		anyLine = true
		tapEnterBlock(counter, prevInd, ind)
		if n, err := strconv.Atoi(num); err == nil && n >= 0 {
			counter[ind] = n
		} else {
			counter[ind]++
			num = strconv.Itoa(counter[ind])
		}
		desc, directive := tapDirective(rest)
		desc = strings.TrimSpace(strings.ReplaceAll(desc, `\#`, "#"))
		if desc == "" {
			desc = "#" + num
		}
		var b strings.Builder
		for _, s := range subtests {
			if s.ind < ind {
				b.WriteString(s.name)
				b.WriteString(" › ")
			}
		}
		b.WriteString(desc)
		// A point right after a more indented block closes that subtest.
		isParent := prevInd > ind
		points++
		if ind == 0 {
			top++
		}
		prevInd = ind
		if isParent || directive != "" {
			continue
		}
		l.AddTrial(arm, run, b.String(), passed)
		seen[b.String()]++
	}
	if !anyLine && points == 0 && bailLine == 0 {
		return core.PosErrorf(core.Invalid, max(lr.line, 1), 1, "no TAP test points or plan in the file")
	}
	if bailLine > 0 {
		warnf(l, "run %s: the TAP stream bailed out at line %d (%s): the points after it never ran", run, bailLine, cmp.Or(bailWhy, "no reason given"))
	} else if planned >= 0 && top < planned {
		warnf(l, "run %s: the TAP plan promised %d tests but %d ran (did the run crash?)", run, planned, top)
	}
	if twice := repeated(seen); len(twice) > 0 {
		warnf(l, "run %s: test points with the same name: %d (%s); each is a trial", run, len(twice), core.ListNames(twice))
	}
	return nil
}

type tapSubtest struct {
	ind  int
	name string
}

// tapEnterBlock keeps the counters of test points per indent: a line
// indented deeper than the one before it starts a subtest block, counted
// from 1, and a line less indented closes the blocks deeper than it.
func tapEnterBlock(counter map[int]int, prevInd, ind int) {
	if prevInd < ind {
		delete(counter, ind)
	}
	tapNewBlock(counter, ind)
}

// tapNewBlock forgets the counters of the blocks deeper than ind.
func tapNewBlock(counter map[int]int, ind int) {
	for k := range counter {
		if k > ind {
			delete(counter, k)
		}
	}
}
