package report

import (
	"bufio"
	"strconv"

	"github.com/flakegate/flakegate/core/ledger"
)

// pfResult is one entry of a promptfoo output's results.results[].
type pfResult struct {
	desc, vars, provider string
	strategy             string // testCase.metadata.strategyId, else the test's own provider
	prompt               int64
	success, errored     bool
}

// readPromptfoo reads `promptfoo eval --output results.json` as one run.
// Each result (a test, with one provider and one prompt) is a trial that
// passes when promptfoo marked it a success. A result that failed with an
// error (failureReason 2, which promptfoo's stats count as errors apart
// from failures) is a failed trial counted apart as an error, as a JUnit
// <error> is. A scenario is the test's description (or, without one, its
// vars), its red-team strategy (testCase.metadata.strategyId, or else the
// test's own provider: one plugin's test in several strategies is several
// scenarios), the provider, and the prompt when the eval has several;
// --repeat N gives each scenario N trials.
func readPromptfoo(r *bufio.Reader, opt Options, run string, l *ledger.Ledger) error {
	j := newJSONReader(r, "promptfoo output")
	var results []pfResult
	err := j.member(func() error {
		return j.array(func(int) error {
			var res pfResult
			err := j.object(func(key string) error {
				var err error
				switch key {
				case "success":
					var v jsonScalar
					v, err = j.scalar("true or false")
					res.success = v.kind == "true"
				case "failureReason":
					var n int64
					n, err = j.integer("a failure reason")
					res.errored = n == 2
				case "promptIdx":
					res.prompt, err = j.integer("a prompt index")
				case "vars":
					res.vars, err = j.compact()
				case "provider":
					err = j.object(func(key string) error {
						if key != "id" && key != "label" {
							return j.skip()
						}
						s, err := j.text("the provider")
						if key == "label" && s != "" || res.provider == "" {
							res.provider = s
						}
						return err
					})
				case "testCase":
					var own string
					err = j.object(func(key string) error {
						var err error
						switch key {
						case "description":
							res.desc, err = j.text("the test's description")
						case "metadata":
							err = j.object(func(key string) error {
								if key != "strategyId" {
									return j.skip()
								}
								return j.textInto(&res.strategy, "the red-team strategy")
							})
						case "provider":
							own, err = pfProvider(j)
						default:
							err = j.skip()
						}
						return err
					})
					res.strategy = cmpOr(res.strategy, own)
				default:
					err = j.skip()
				}
				return err
			})
			results = append(results, res)
			return err
		})
	}, "results", "results")
	if err != nil {
		return err
	}
	if err := j.end(); err != nil {
		return err
	}
	prompts := map[int64]bool{}
	for _, res := range results {
		prompts[res.prompt] = true
	}
	var t evalTally
	for _, res := range results {
		name := cmpOr(res.desc, res.vars)
		if res.strategy != "" {
			name += " · " + res.strategy
		}
		if res.provider != "" {
			name += " · " + res.provider
		}
		if len(prompts) > 1 {
			name += " · prompt " + strconv.FormatInt(res.prompt+1, 10)
		}
		if res.errored {
			t.errored++
			l.AddSideFailure(opt.Arm, run, name, "error")
		}
		l.AddTrial(opt.Arm, run, name, res.success)
	}
	if len(results) == 0 {
		warnf(l, "run %s: the promptfoo output has no results", run)
	}
	t.warn(l, run, "promptfoo output", 1)
	return nil
}

// pfProvider reads a test's own provider, a string or an object with an
// id, and returns its id ("" for null).
func pfProvider(j *jsonReader) (string, error) {
	k, err := j.kind()
	switch {
	case err != nil:
		return "", err
	case k == "string" || k == "null":
		return j.text("the test's provider")
	case k != "object":
		return "", j.skip()
	}
	var id string
	err = j.object(func(key string) error {
		if key != "id" {
			return j.skip()
		}
		return j.textInto(&id, "the test's provider id")
	})
	return id, err
}
