package report

import (
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// mochaTest is what one entry of a Mocha JSON report's tests[] says.
type mochaTest struct {
	name    string
	retries int64 // currentRetry: attempts that failed before the last
	failed  bool  // err holds something
}

// readMocha reads `mocha --reporter json` output as one run. Each test of
// tests[] that is not in pending[] is currentRetry + 1 attempts: the last
// passed unless the test has an error, the ones before it failed. A failed
// hook ("before all" hook for ..., in failures[] but not in tests[]) is a
// setup failure: the tests it stopped never ran.
func readMocha(j *jsonReader, arm, run string, l *ledger.Ledger) error {
	var tests []mochaTest
	pending := map[string]bool{}
	var hooks []string
	sawTests := false
	titles := func(dst func(name string)) error {
		return j.array(func(int) error {
			var name string
			err := j.texts(jsonField{"fullTitle", &name, "the test's full title"})
			dst(name)
			return err
		})
	}
	err := j.object(func(key string) error {
		switch key {
		case "tests":
			sawTests = true
			return j.array(func(int) error {
				line, col := j.at()
				var t mochaTest
				err := j.object(func(key string) error {
					var err error
					switch key {
					case "fullTitle":
						t.name, err = j.text("the test's full title")
					case "currentRetry":
						t.retries, err = j.integer("a whole number of retries")
					case "err":
						k, kerr := j.kind()
						if kerr != nil {
							return kerr
						}
						if k == "object" {
							return j.object(func(string) error { t.failed = true; return j.skip() })
						}
						t.failed = k == "string"
						return j.skip()
					default:
						err = j.skip()
					}
					return err
				})
				if err == nil && t.name == "" {
					return j.errAt(line, col, "a test without a fullTitle")
				}
				tests = append(tests, t)
				return err
			})
		case "pending":
			return titles(func(n string) { pending[n] = true })
		case "failures":
			return titles(func(n string) {
				if strings.Contains(n, `" hook`) {
					hooks = append(hooks, n)
				}
			})
		}
		return j.skip()
	})
	if err != nil {
		return err
	}
	if err := j.end(); err != nil {
		return err
	}
	if !sawTests {
		return core.PosErrorf(core.Unusable, 1, 1, "this Mocha JSON report has only its stats, no tests[] to count (write it with mocha --reporter json)")
	}
	for _, t := range tests {
		if pending[t.name] && !t.failed {
			continue
		}
		for i := int64(0); i < t.retries; i++ {
			l.AddTrial(arm, run, t.name, false)
		}
		l.AddTrial(arm, run, t.name, !t.failed)
	}
	for _, h := range hooks {
		l.AddSideFailure(arm, run, h, "setup")
	}
	if len(hooks) > 0 {
		warnf(l, "run %s: %s failed; the tests they guard did not run: %s", run, core.Nouns(len(hooks), "hook"), core.ListNames(hooks))
	}
	return nil
}

// readMochawesome reads mochawesome's JSON (mochawesome.json) as one run.
// Each test whose state is passed or failed is one trial: mochawesome keeps
// no retry count, so a test that passed on a retry reads as one pass. A
// failed before or after hook is a setup or teardown failure.
func readMochawesome(j *jsonReader, arm, run string, l *ledger.Ledger) error {
	var suite func() error
	suite = func() error {
		return j.object(func(key string) error {
			switch key {
			case "suites":
				return j.array(func(int) error { return suite() })
			case "tests", "beforeHooks", "afterHooks":
				return j.array(func(int) error { return mochawesomeTest(j, key, arm, run, l) })
			}
			return j.skip()
		})
	}
	err := j.member(func() error {
		return j.array(func(int) error { return suite() })
	}, "results")
	if err != nil {
		return err
	}
	return j.end()
}

func mochawesomeTest(j *jsonReader, list, arm, run string, l *ledger.Ledger) error {
	name, state, err := j.test("a test", jsonField{key: "fullTitle", want: "the test's full title"}, jsonField{key: "state", want: "a state"})
	if err != nil {
		return err
	}
	switch {
	case list == "beforeHooks" && state == "failed":
		l.AddSideFailure(arm, run, name, "setup")
	case list == "afterHooks" && state == "failed":
		l.AddSideFailure(arm, run, name, "teardown")
	case list == "tests" && (state == "passed" || state == "failed"):
		l.AddTrial(arm, run, name, state == "passed")
	}
	return nil
}
