package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/internal/runner"
	"github.com/flakegate/flakegate/internal/words"
)

// How flakegate run shows its progress on standard error.
type progressMode int

const (
	progressOff   progressMode = iota
	progressLines              // a line per run: CI logs
	progressBar                // one bar, redrawn in place: a terminal
)

// progressFor picks the mode: auto is a bar when standard error is a
// terminal (and TERM is not dumb), else lines.
func progressFor(mode string, e *env) (progressMode, error) {
	switch mode {
	case "off":
		return progressOff, nil
	case "lines":
		return progressLines, nil
	case "bar":
		return progressBar, nil
	case "auto":
		if f, ok := e.stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) && os.Getenv("TERM") != "dumb" {
			return progressBar, nil
		}
		return progressLines, nil
	}
	return 0, usagef("-progress must be auto, bar, lines or off, got %q", mode)
}

// progress is the runner's observer: it draws the bar or writes the lines.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	mode     progressMode
	width    int // of the terminal, for the bar
	begin    time.Time
	status   runner.Status
	statusAt time.Time
	running  string          // the run in progress
	drawn    bool            // the bar is on the screen
	failed   []string        // tests that failed in this start's runs, in the order first seen
	seen     map[string]bool // of failed
	stop     chan struct{}
	stopped  chan struct{}
}

func newProgress(w io.Writer, mode progressMode) *progress {
	p := &progress{w: w, mode: mode, width: 80}
	if f, ok := w.(*os.File); ok && mode == progressBar {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			p.width = cols
		}
	}
	return p
}

func (p *progress) Begin(plan *runner.Plan, s runner.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.begin, p.status, p.statusAt = time.Now(), s, time.Now()
	if p.mode == progressOff {
		return
	}
	p.line(planLine(plan))
	if p.mode == progressBar && len(plan.Sequence) > 0 {
		p.stop, p.stopped = make(chan struct{}), make(chan struct{})
		go p.tick()
		p.draw()
	}
}

func (p *progress) Started(slot runner.Slot, s runner.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status, p.statusAt, p.running = s, time.Now(), slot.ID()
	if p.mode == progressBar {
		p.draw()
	}
}

func (p *progress) Finished(rec *runner.Record, s runner.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status, p.statusAt, p.running = s, time.Now(), ""
	for _, f := range rec.Failed {
		if p.seen == nil {
			p.seen = map[string]bool{}
		}
		if !p.seen[f] {
			p.seen[f] = true
			p.failed = append(p.failed, f)
		}
	}
	switch p.mode {
	case progressLines:
		p.line(fmt.Sprintf("[%*d/%d] %s · %s", len(fmt.Sprint(s.Total)), s.Ran, s.Total, runLine(rec), p.summary(", ")))
	case progressBar:
		if rec.Outcome == runner.OutcomeError {
			p.line(fmt.Sprintf("%s %s: error: %s", rec.Run, rec.Arm, rec.Error))
		}
	}
	if p.mode != progressOff {
		for _, n := range rec.Notes {
			p.line("note: " + n)
		}
	}
	if p.mode == progressBar {
		p.draw()
	}
}

func (p *progress) Warn(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mode != progressOff {
		p.line("warning: " + msg)
	}
}

// close stops the bar's clock and leaves its last state on its own line.
func (p *progress) close() {
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		p.draw()
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// tick redraws the bar every second, so that its clock moves.
func (p *progress) tick() {
	defer close(p.stopped)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw()
			p.mu.Unlock()
		}
	}
}

// line writes a line, above the bar when there is one.
func (p *progress) line(s string) {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintln(p.w, s)
	if p.drawn {
		p.draw()
	}
}

// draw redraws the bar in place, within the terminal's width.
func (p *progress) draw() {
	fmt.Fprint(p.w, "\r"+p.barLine(p.width-1)+"\x1b[K")
	p.drawn = true
}

// barLine is the bar's text in at most width characters. It always shows
// the runs done and the time elapsed and left; as room allows, each arm's
// runs and pass rate, the tests that failed, the run in progress and the
// bar itself, each shortened before the next is dropped.
func (p *progress) barLine(width int) string {
	s := p.status
	count := fmt.Sprintf("%d/%d", s.Ran, s.Total)
	clock := p.clock()
	type armForm int
	const (
		armLong armForm = iota
		armShort
		armNone
	)
	arms := func(f armForm) string {
		var parts []string
		for _, a := range s.Arms {
			switch f {
			case armLong:
				t := fmt.Sprintf("%s %d/%d runs", a.Name, a.Runs, a.Planned)
				if a.Trials > 0 {
					t += " " + words.FixedPercent(float64(a.Passed)/float64(a.Trials), 1) + " passed"
				}
				if a.Errors > 0 {
					t += fmt.Sprintf(" (%s)", core.Nouns(a.Errors, "error"))
				}
				parts = append(parts, t)
			case armShort:
				t := fmt.Sprintf("%.1s %d/%d", a.Name, a.Runs, a.Planned)
				if a.Trials > 0 {
					t += " " + words.FixedPercent(float64(a.Passed)/float64(a.Trials), 1)
				}
				if a.Errors > 0 {
					t += fmt.Sprintf(" %d err", a.Errors)
				}
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, " · ")
	}
	// The failed tests: every name (up to 3), their short names (the
	// test's own, without its package), the first and how many more, or
	// how many.
	failed := func(form int) string {
		n := len(p.failed)
		if n == 0 {
			return ""
		}
		short := make([]string, n)
		for i, f := range p.failed {
			short[i] = shortTestName(f)
		}
		switch form {
		case 0:
			return "failed: " + shortList(p.failed, 3)
		case 1:
			return "failed: " + shortList(short, 3)
		case 2:
			if n == 1 {
				return "failed: " + short[0]
			}
			return fmt.Sprintf("failed: %s +%d", short[0], n-1)
		}
		return core.Nouns(n, "test") + " failed"
	}
	join := func(parts ...string) string {
		var keep []string
		for _, x := range parts {
			if x != "" {
				keep = append(keep, x)
			}
		}
		return strings.Join(keep, " · ")
	}
	bar := func(cells int) string {
		if cells == 0 {
			return count
		}
		filled := 0
		if s.Total > 0 {
			filled = cells * s.Ran / s.Total
		}
		return strings.Repeat("█", filled) + strings.Repeat("░", cells-filled) + " " + count
	}
	running := ""
	if p.running != "" {
		running = "running " + p.running
	}
	fits := func(t string) bool { return utf8.RuneCountInString(t) <= width }
	// Given up first: the run in progress and the bar's cells (innermost),
	// then, level by level, the failed tests' packages, the arms' words,
	// the clock's words, the arms, and last the failed tests' names.
	levels := []struct {
		names int
		short bool // the clock in fewer words
		arm   armForm
	}{
		{0, false, armLong}, {1, false, armLong}, {1, false, armShort}, {2, false, armShort}, {2, true, armShort},
		{1, false, armNone}, {2, false, armNone}, {2, true, armNone}, {3, true, armNone},
	}
	for _, l := range levels {
		c := clock
		if l.short {
			c = p.clockShort()
		}
		for _, cells := range []int{24, 10, 0} {
			for _, run := range []string{running, ""} {
				if t := join(bar(cells), arms(l.arm), c, failed(l.names), run); fits(t) {
					return t
				}
			}
		}
	}
	t := join(count, clock)
	if r := []rune(t); len(r) > width && width > 1 {
		t = string(r[:width-1]) + "…"
	}
	return t
}

// clock is the time elapsed and the estimate of the time left.
func (p *progress) clock() string {
	t := words.Duration(time.Since(p.begin).Seconds()) + " elapsed"
	if s := p.status; s.Left >= 0 && s.Ran < s.Total {
		left := max(s.Left-time.Since(p.statusAt), 0)
		t += ", about " + words.Duration(left.Seconds()) + " left"
	}
	return t
}

// clockShort is clock in fewer words: "1.6 min elapsed, 4 min left".
func (p *progress) clockShort() string {
	return strings.Replace(p.clock(), ", about ", ", ", 1)
}

// shortTestName is a test's own name without its package:
// "example.com/shop/cart.TestTotals/empty" is "TestTotals/empty".
func shortTestName(id string) string {
	head, sub, _ := strings.Cut(id, "/Test")
	if sub != "" || strings.Contains(id, "/Test") {
		sub = "/Test" + sub
	}
	if i := strings.LastIndexAny(head, ".:"); i >= 0 && i+1 < len(head) {
		head = head[i+1:]
	}
	return head + sub
}

// summary is each arm's runs and pass rate so far, the time elapsed and
// the estimate of the time left; sep goes between a count and its rate.
func (p *progress) summary(sep string) string {
	parts := make([]string, 0, len(p.status.Arms)+1)
	for _, a := range p.status.Arms {
		s := fmt.Sprintf("%s %d/%d runs", a.Name, a.Runs, a.Planned)
		if a.Trials > 0 {
			s += sep + words.FixedPercent(float64(a.Passed)/float64(a.Trials), 1) + " passed"
		}
		if a.Errors > 0 {
			s += fmt.Sprintf(" (%s)", core.Nouns(a.Errors, "error"))
		}
		parts = append(parts, s)
	}
	return strings.Join(append(parts, p.clock()), " · ")
}

// runLine says how one run ended.
func runLine(rec *runner.Record) string {
	head := fmt.Sprintf("%s %s", rec.Run, rec.Arm)
	if rec.Outcome == runner.OutcomeError {
		return head + ": error: " + rec.Error
	}
	s := fmt.Sprintf("%s: %d/%d passed in %s", head, rec.Passed, rec.Trials, words.Duration(rec.Seconds))
	if len(rec.Failed) > 0 {
		s += " (failed: " + shortList(rec.Failed, 3) + ")"
	}
	return s
}

// shortList shows up to n names and how many more there are.
func shortList(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// planLine is the plan in a line, the first line of the progress.
func planLine(plan *runner.Plan) string {
	n := len(plan.Sequence)
	if n == 0 {
		return fmt.Sprintf("nothing to run: %s holds every planned run (%d per arm)", plan.Ledger, plan.RunsPerArm)
	}
	s := fmt.Sprintf("%s to go (%d per arm, %s: %s) into %s", core.Nouns(n, "run"), plan.RunsPerArm,
		orderWord(plan.Order), firstIDs(plan.SequenceIDs, 6), plan.Ledger)
	if done := doneRuns(plan); done > 0 {
		s += fmt.Sprintf(", resuming after %s", core.Nouns(done, "recorded run"))
	}
	if plan.Seconds != nil {
		s += fmt.Sprintf("; about %s at %s a run", words.Duration(*plan.Seconds), words.Duration(*plan.CostSeconds))
	}
	return s
}

func doneRuns(plan *runner.Plan) int {
	n := 0
	for _, a := range plan.Arms {
		n += a.Done
	}
	return n
}

func orderWord(order string) string {
	if order == runner.OrderRandom {
		return "pairs in random order"
	}
	return "interleaved"
}

// firstIDs shows the first n run ids of the order.
func firstIDs(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, " ")
	}
	return strings.Join(ids[:n], " ") + " …"
}
