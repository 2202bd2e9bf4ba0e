package compare

import (
	"cmp"
	"fmt"
	"github.com/flakegate/flakegate/core/internal/sorts"
	"math"
	"unicode/utf8"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/aa"
	"github.com/flakegate/flakegate/core/ledger"
)

// Options say what Compare reports and plans for.
type Options struct {
	// Level is the confidence level of the intervals, in (0,1); the tests
	// are two-sided at 1−Level.
	Level float64
	// Power is the chance the plan wants of detecting Effect, in (0,1).
	Power float64
	// Effect is the difference in accuracy the plan sizes the eval for, a
	// fraction in [0.0001, 1].
	Effect float64
	// Clusters maps a question id (side A's) to the group it belongs to
	// (its passage, file or task); nil compares without clusters. A paired
	// question without a cluster is a cluster of its own, with a warning.
	Clusters map[string]string
	// ClusterField names what the clusters are ("passage"), for the words.
	ClusterField string
	// MaxListed caps each list of questions (improved, worsened, only on
	// one side), in [1, 100000]; the counts are always complete.
	MaxListed int
}

// DefaultOptions: 95% intervals, a plan for 80% power against a 2-point
// change, up to 100 questions in each list.
var DefaultOptions = Options{Level: 0.95, Power: 0.8, Effect: 0.02, MaxListed: 100}

// Side sums up one side over all its questions.
type Side struct {
	Questions int   `json:"questions"` // questions this side has
	Trials    int64 `json:"trials"`    // answers scored, every epoch counted
	// Epochs is the trials of every question when they all have the same
	// number (the epochs or repeats); null when they differ.
	Epochs *int64 `json:"epochs"`
	// Accuracy is the mean over the paired questions of this side's pass
	// rate on each, in [0,1].
	Accuracy  float64  `json:"accuracy"`
	Only      []string `json:"only"`       // questions only this side has, in its order, up to MaxListed
	OnlyCount int      `json:"only_count"` // all of them
}

// Flip is a paired question whose pass rate differs between the sides.
type Flip struct {
	ID string  `json:"id"`
	A  float64 `json:"a"` // side A's pass rate on the question, in [0,1]
	B  float64 `json:"b"` // side B's, in [0,1]
}

// Result is a comparison of side B against side A. Its JSON is the public
// contract.
type Result struct {
	A         Side `json:"a"`
	B         Side `json:"b"`
	Questions int  `json:"questions"` // n, the questions both sides have
	// Diff is B's accuracy minus A's over the paired questions, the mean of
	// d_i = b_i − a_i, a fraction in [-1,1].
	Diff float64 `json:"diff"`
	// SE is sd(d)/√n, the paired standard error, a fraction.
	SE    float64 `json:"se"`
	DF    int     `json:"df"`    // n−1
	Level float64 `json:"level"` // of the interval, in (0,1)
	Low   float64 `json:"low"`   // Diff − t·SE, t the Student quantile at (1+Level)/2 on DF, cut to -1
	High  float64 `json:"high"`  // Diff + t·SE, cut to 1
	// TooFew says the interval the answer quotes (the clustered one with
	// clusters) covers all of [−1, 1]: the questions are too few to say
	// anything about the difference.
	TooFew bool `json:"too_few"`
	// T is Diff/SE; null when every d_i is the same (SE = 0).
	T *float64 `json:"t"`
	// PValue is the two-sided paired t-test's, in [0,1].
	PValue float64 `json:"p_value"`
	// Improved, Worsened and Unchanged count the paired questions whose
	// pass rate rose, fell or stayed (with one trial each: went from wrong
	// to right, from right to wrong, or neither).
	Improved  int `json:"improved"`
	Worsened  int `json:"worsened"`
	Unchanged int `json:"unchanged"`
	// Flips lists the improved questions and then the worsened ones, each
	// largest change first (ties in A's order), up to MaxListed of each.
	Flips []Flip `json:"flips"`
	// McNemar is the exact test on the discordant pairs; null unless every
	// paired question has one trial on each side.
	McNemar *McNemar `json:"mcnemar"`
	// Noise splits the variance of d_i into answer noise and question
	// sampling; null unless every paired question has two or more trials
	// on each side.
	Noise *Noise `json:"noise"`
	// Cluster is the cluster-robust comparison; null without clusters.
	Cluster  *Cluster `json:"cluster"`
	Plan     Plan     `json:"plan"`
	Warnings []string `json:"warnings"`
	// Link is the address of the calculator view that reproduces this
	// result; empty without a site. LinkNote says what it leaves out.
	Link     string `json:"link,omitempty"`
	LinkNote string `json:"link_note,omitempty"`
}

// pair is one paired question: its tallies on each side.
type pair struct {
	id   string // side A's id
	a, b aa.Tally
}

func (p pair) d() float64 { return rate(p.b) - rate(p.a) }

func rate(t aa.Tally) float64 { return float64(t.Passed) / float64(t.Total) }

// Compare compares side b against side a, question by question.
func Compare(a, b *aa.Side, opt Options) (*Result, error) {
	if err := checkOptions(opt); err != nil {
		return nil, err
	}
	for _, s := range []struct {
		name string
		side *aa.Side
	}{{"a", a}, {"b", b}} {
		if err := checkSide(s.name, s.side); err != nil {
			return nil, err
		}
	}
	res := &Result{Level: opt.Level, Warnings: []string{}, Flips: []Flip{}}
	pairs, onlyA, onlyB, note := pairUp(a, b)
	if note != "" {
		res.Warnings = append(res.Warnings, note)
	}
	res.A = summarize(a, onlyA, opt.MaxListed)
	res.B = summarize(b, onlyB, opt.MaxListed)
	for _, o := range []struct {
		name, other string
		ids         []string
	}{{"A", "B", onlyA}, {"B", "A", onlyB}} {
		if len(o.ids) > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("side %s has %s that side %s lacks, left out of the comparison: %s",
				o.name, core.Nouns(len(o.ids), "question"), o.other, core.ListNames(o.ids)))
		}
	}
	n := len(pairs)
	res.Questions = n
	if n < 2 {
		return nil, &core.Error{Kind: core.Unusable, Msg: fmt.Sprintf(
			"the two sides have %s in common; a comparison needs 2 or more, paired by id (side A's ids: %s; side B's: %s)",
			core.Nouns(n, "question"), core.ListNames(ids(a)[:min(3, len(a.Scenarios))]), core.ListNames(ids(b)[:min(3, len(b.Scenarios))]))}
	}
	as, bs := make([]float64, n), make([]float64, n)
	d := make([]float64, n)
	for i, p := range pairs {
		as[i], bs[i], d[i] = rate(p.a), rate(p.b), p.d()
	}
	res.A.Accuracy, res.B.Accuracy = fmean(as), fmean(bs)
	pt := pairedT(d, opt.Level, equalDiffs(pairs))
	res.Diff, res.SE, res.DF, res.Low, res.High, res.T, res.PValue = pt.mean, pt.se, pt.df, pt.low, pt.high, pt.t, pt.p
	if pt.se == 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("every question's difference is %+.4f, so the spread is zero and the interval a point", pt.mean))
	}
	res.Improved, res.Worsened, res.Unchanged, res.Flips = flips(pairs, opt.MaxListed)
	res.McNemar = mcnemarOf(pairs)
	var warns []string
	res.Noise, warns = noiseOf(pairs, d)
	res.Warnings = append(res.Warnings, warns...)
	if opt.Clusters != nil {
		res.Cluster, warns = clusterOf(pairs, d, opt)
		res.Warnings = append(res.Warnings, warns...)
		if res.McNemar != nil && res.Cluster != nil {
			res.Warnings = append(res.Warnings, "McNemar's test treats questions as independent; with clusters, read the clustered interval")
		}
	}
	bound(res)
	res.Plan = plan(res, d, opt)
	if n < 30 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("only %s in common: the interval leans on the t distribution's assumption of normal differences", core.Nouns(n, "question")))
	}
	return res, nil
}

func checkOptions(opt Options) error {
	switch {
	case !(opt.Level > 0 && opt.Level < 1):
		return core.FieldErrorf("level", "must be between 0 and 1, got %v", opt.Level)
	case !(opt.Power > 0 && opt.Power < 1):
		return core.FieldErrorf("power", "must be between 0 and 1, got %v", opt.Power)
	case !(opt.Effect >= 1e-4 && opt.Effect <= 1):
		return core.FieldErrorf("effect", "must be a fraction from 0.0001 to 1, got %v", opt.Effect)
	case opt.MaxListed < 1 || opt.MaxListed > 100000:
		return core.FieldErrorf("max_listed", "must be from 1 to 100000, got %d", opt.MaxListed)
	}
	return nil
}

// maxTrials bounds a question's trials so that every sum here is exact.
const maxTrials = 1 << 26

func checkSide(name string, s *aa.Side) error {
	if s == nil {
		return core.FieldErrorf(name, "is missing")
	}
	if len(s.Scenarios) == 0 {
		return &core.Error{Kind: core.Unusable, Field: name, Msg: "has no questions"}
	}
	seen := make(map[string]bool, len(s.Scenarios))
	for _, t := range s.Scenarios {
		switch {
		case !utf8.ValidString(t.ID):
			return core.FieldErrorf(name, "a question id is not valid UTF-8")
		case t.Total < 1 || t.Total > maxTrials || t.Passed < 0 || t.Passed > t.Total:
			return core.FieldErrorf(name, "question %q: %d passed of %d trials is out of range", t.ID, t.Passed, t.Total)
		case seen[t.ID]:
			return core.FieldErrorf(name, "question %q is listed twice", t.ID)
		}
		seen[t.ID] = true
	}
	return nil
}

// summarize sums up a side; Accuracy is set later, over the paired
// questions.
func summarize(s *aa.Side, only []string, maxListed int) Side {
	out := Side{Questions: len(s.Scenarios), OnlyCount: len(only), Only: append([]string{}, only[:min(len(only), maxListed)]...)}
	same := true
	for _, t := range s.Scenarios {
		out.Trials += t.Total
		same = same && t.Total == s.Scenarios[0].Total
	}
	if same {
		e := s.Scenarios[0].Total
		out.Epochs = &e
	}
	return out
}

// flips counts the questions whose rate rose, fell or stayed, and lists
// the risers then the fallers, largest change first, up to max of each.
func flips(pairs []pair, max int) (up, down, same int, list []Flip) {
	var ups, downs []Flip
	for _, p := range pairs {
		f := Flip{ID: p.id, A: rate(p.a), B: rate(p.b)}
		switch c := cmpRates(p.b, p.a); {
		case c > 0:
			ups = append(ups, f)
		case c < 0:
			downs = append(downs, f)
		default:
			same++
		}
	}
	byChange := func(x, y Flip) int { return cmp.Compare(math.Abs(y.B-y.A), math.Abs(x.B-x.A)) }
	sorts.Stable(ups, byChange)
	sorts.Stable(downs, byChange)
	list = make([]Flip, 0, min(len(ups), max)+min(len(downs), max))
	list = append(list, ups[:min(len(ups), max)]...)
	list = append(list, downs[:min(len(downs), max)]...)
	return len(ups), len(downs), same, list
}

// cmpRates compares two tallies' pass rates exactly: x.P/x.T against
// y.P/y.T by cross products, below 2^52 since trials are below 2^26.
func cmpRates(x, y aa.Tally) int {
	return cmp.Compare(x.Passed*y.Total, y.Passed*x.Total)
}

// CompareLedger compares the patched arm of l (side B) against its
// baseline arm (side A): each test or sample a question, every trial of it
// in every run of the arm one of its answers. The ledger's notes follow
// the comparison's warnings.
func CompareLedger(l *ledger.Ledger, opt Options) (*Result, error) {
	a, b, err := SidesOf(l)
	if err != nil {
		return nil, err
	}
	res, err := Compare(a, b, opt)
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, l.Notes()...)
	return res, nil
}

// SidesOf is the two sides of a ledger: side A its baseline arm, side B its
// patched arm, each test a question (aa.FromLedger).
func SidesOf(l *ledger.Ledger) (a, b *aa.Side, err error) {
	if a, err = aa.FromLedger(l, ledger.ArmBaseline); err != nil {
		return nil, nil, &core.Error{Kind: core.Unusable, Field: "a", Msg: "side A has no scored answers"}
	}
	if b, err = aa.FromLedger(l, ledger.ArmPatched); err != nil {
		return nil, nil, &core.Error{Kind: core.Unusable, Field: "b", Msg: "side B has no scored answers"}
	}
	return a, b, nil
}
