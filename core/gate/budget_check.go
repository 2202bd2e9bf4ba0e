package gate

import (
	"math"

	"github.com/flakegate/flakegate/core"
)

// CheckSettings reports the first of in's settings out of its range, in
// the order target, cap, cost, confidence, runner and setting, as a *core.Error of Kind
// Invalid naming the field; nil when all are in range. It leaves the rates
// and the observed count alone: it is the check of a question that brings
// its own rates, such as BudgetFlakes (a budget per flaky test's history).
func (in BudgetInput) CheckSettings() error {
	if errs := in.settingProblems(); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// Check reports the first thing Budget would refuse in: a setting out of
// range (CheckSettings), a rate outside [0,1], an observed count that is
// not fails/runs with 0 <= fails <= runs and runs >= 1, or neither a rate
// nor an observed count. Nil means Budget answers.
func (in BudgetInput) Check() error {
	if errs := in.Problems(); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// Problems lists everything Check would refuse, the first fault of each
// field, in Check's order (target, cap, cost, confidence, runner, setting, rates, observe):
// a form shows each beside its field. Each is a *core.Error naming the
// field.
func (in BudgetInput) Problems() []error {
	errs := in.settingProblems()
	for i, p := range in.Rates {
		if !(p >= 0 && p <= 1) {
			errs = append(errs, core.FieldErrorf("rates", "rate %d must be in [0,1], got %v", i+1, p))
			break
		}
	}
	if o := in.Observed; o != nil {
		switch {
		case o.Trials <= 0:
			errs = append(errs, core.FieldErrorf("observe", "needs at least one run, got %d/%d", o.Passed, o.Trials))
		case o.Passed < 0 || o.Passed > o.Trials:
			errs = append(errs, core.FieldErrorf("observe", "failures must be in [0, %d], got %d", o.Trials, o.Passed))
		}
	}
	if len(in.Rates) == 0 && in.Observed == nil {
		errs = append(errs, core.FieldErrorf("rates", "give at least one rate or an observed fails/runs"))
	}
	return errs
}

// settingProblems is the fault of each setting out of range.
func (in BudgetInput) settingProblems() []error {
	var errs []error
	if !(in.Target > 0 && in.Target < 1) {
		errs = append(errs, core.FieldErrorf("target", "must be in (0,1), got %v", in.Target))
	}
	if in.Cap < 0 {
		errs = append(errs, core.FieldErrorf("cap", "must not be negative, got %d", in.Cap))
	}
	if c := in.CostSeconds; c != nil && !(*c >= 0 && !math.IsInf(*c, 1)) {
		errs = append(errs, core.FieldErrorf("cost", "must be a finite number of seconds >= 0, got %v", *c))
	}
	if err := core.CheckConfidence(in.Confidence); err != nil {
		errs = append(errs, err)
	}
	if err := in.checkRunner(); err != nil {
		errs = append(errs, err)
	}
	return errs
}
