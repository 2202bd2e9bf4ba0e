// Package gate answers a merge gate's questions about flaky tests from
// counts of passes and failures.
//
//   - Budget: how many reruns k catch a flake of per-run failure rate p with
//     a target detection power, 1-(1-p)^k (Power, RerunsFor), what they
//     cost in runner seconds, and which lane of the gate they belong in
//     (Lane, LaneAction). An observed fails/runs is
//     planned against the upper end of its Wilson interval. With a Runner
//     the cap is read from, and each budget written as, a test runner's own
//     retry setting, counted as that runner counts it (Runners).
//   - Decide: the two-arm verdict of a patch from the Wilson intervals of
//     the baseline's and the patched pass rates, and what the gate does with
//     it (Action, Blocks).
//   - Size: the trials per arm at which two pass rates separate.
//   - SequentialPlan: the cost of an experiment that looks after every
//     pair of runs and stops once the answer is known (stat.TwoArm),
//     beside the fixed plan's runs per arm at the target power
//     (FixedPower, FixedPairsFor, by exact enumeration).
//   - Freeze: a frozen rate claim, and whether a newer count leaves it.
//
// Each question is an input struct with a Default value and a result
// struct whose JSON is the public contract; rates and powers are fractions
// in [0,1]. A setting out of range is a *core.Error of Kind Invalid naming
// the field; caveats are the result's Warnings. Every answer is the same
// bits on every platform (package stat).
package gate
