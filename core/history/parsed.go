package history

// Seconds is one test's timed attempts in one report file: the sum of
// their run times, in seconds, as the report gave them in its order, and
// how many there were (N >= 1).
type Seconds struct {
	Sum float64 // seconds, >= 0
	N   int64   // timed attempts, >= 1
}

// NewParsed is a report file read elsewhere (a history store keeps what
// ParseRun read): its runs in order, each with its results, the reader's
// caveats and the per-test run times. AddParsed adds it as it adds what
// ParseRun returns, so the figures are the same. metas and runs have the
// same length.
func NewParsed(file string, metas []RunMeta, runs [][]TestResult, notes []string, seconds map[string]Seconds) *Parsed {
	p := &Parsed{file: file, metas: metas, runs: runs, notes: notes}
	if len(seconds) > 0 {
		p.durs = make(map[string]duration, len(seconds))
		for t, s := range seconds {
			p.durs[t] = duration{s.Sum, s.N}
		}
	}
	return p
}

// File is the report file's name, as the run metas' File.
func (p *Parsed) File() string { return p.file }

// Runs are the file's runs, in order: what is known of each and its
// results.
func (p *Parsed) Runs() ([]RunMeta, [][]TestResult) { return p.metas, p.runs }

// Notes are the report reader's caveats, without the file's name.
func (p *Parsed) Notes() []string { return p.notes }

// Seconds are the run times the report gave, per test.
func (p *Parsed) Seconds() map[string]Seconds {
	out := make(map[string]Seconds, len(p.durs))
	for t, d := range p.durs {
		out[t] = Seconds{d.seconds, d.n}
	}
	return out
}
