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
	"github.com/flakegate/flakegate/runner"
	"github.com/flakegate/flakegate/words"
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
	running  string // the run in progress
	drawn    bool   // the bar is on the screen
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

// draw redraws the bar in place, cut to the terminal's width.
func (p *progress) draw() {
	const cells = 24
	s := p.status
	filled := 0
	if s.Total > 0 {
		filled = cells * s.Ran / s.Total
	}
	bar := strings.Repeat("█", filled) + strings.Repeat("░", cells-filled)
	text := fmt.Sprintf("%s %d/%d · %s", bar, s.Ran, s.Total, p.summary(" "))
	if p.running != "" {
		text += " · running " + p.running
	}
	if utf8.RuneCountInString(text) >= p.width {
		r := []rune(text)
		text = string(r[:p.width-2]) + "…"
	}
	fmt.Fprint(p.w, "\r"+text+"\x1b[K")
	p.drawn = true
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
	t := words.Duration(time.Since(p.begin).Seconds()) + " elapsed"
	if s := p.status; s.Left >= 0 && s.Ran < s.Total {
		left := max(s.Left-time.Since(p.statusAt), 0)
		t += ", about " + words.Duration(left.Seconds()) + " left"
	}
	return strings.Join(append(parts, t), " · ")
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
