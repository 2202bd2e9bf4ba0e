package report

import (
	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
)

// readRSpec reads `rspec --format json` output as one run. Each example
// with status passed or failed is a trial, named by its full description;
// pending examples are no trial. rspec-retry's tries are not in the file.
// A run that loaded no example because a spec file failed to load (errors
// outside of examples) has nothing to count and is Unusable.
func readRSpec(j *jsonReader, arm, run string, l *ledger.Ledger) error {
	trials, examples := 0, 0
	var outside int64
	var firstMessage string
	err := j.object(func(key string) error {
		switch key {
		case "examples":
			return j.array(func(int) error {
				examples++
				name, status, err := j.test("an example", jsonField{key: "full_description", want: "the example's full description"}, jsonField{key: "status", want: "a status"})
				if err != nil {
					return err
				}
				if status == "passed" || status == "failed" {
					l.AddTrial(arm, run, name, status == "passed")
					trials++
				}
				return nil
			})
		case "summary":
			return j.object(func(key string) error {
				if key != "errors_outside_of_examples_count" {
					return j.skip()
				}
				var err error
				outside, err = j.integer("a whole number")
				return err
			})
		case "messages":
			return j.array(func(int) error {
				s, err := j.text("a message")
				if firstMessage == "" {
					firstMessage = firstLine(s)
				}
				return err
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
	switch {
	case trials == 0 && outside > 0:
		return core.PosErrorf(core.Unusable, 1, 1, "RSpec ran no example: %s outside of examples (%s)", core.Nouns(outside, "error"), cmpOr(firstMessage, "see the messages in the file"))
	case outside > 0:
		warnf(l, "run %s: RSpec reports %s outside of examples (%s)", run, core.Nouns(outside, "error"), cmpOr(firstMessage, "see the messages in the file"))
	case examples == 0:
		warnf(l, "run %s: the RSpec report has no examples (%s)", run, cmpOr(firstMessage, "no message"))
	}
	return nil
}
