package words

// Option is how a form names one option of a calculator whose input is
// files (the A/A check, compare, history): its label, and a hint that says
// what the option changes, what to type and in which unit.
type Option struct{ Label, Hint string }

// Options are the labels of the options the A/A, compare and history
// pages offer, by the calculator's schema name (param's Schema.Name) and
// the option's key.
var Options = map[string]map[string]Option{
	"aa": {
		"k":     {"Runs per side to list thresholds for", "whole numbers of runs, separated by spaces or commas: 1 2 4 8"},
		"drops": {"Drops to find the runs for", "fractions or percentages of the pass rate, separated by spaces or commas: 2% 3% 5%"},
		"rule":  {"Drop of a fixed rule", "the drop a “block if it falls by more than this” rule uses, a fraction or a percentage such as 2%; its false alarms are counted"},
		"seed":  {"Seed of the trend test", "a whole number from 0 to 2^53: the same seed shuffles the runs the same way, so the p-value repeats"},
	},
	"compare": {
		"level":      {"Confidence of the intervals", "a fraction in (0,1) or a percentage, e.g. 95%"},
		"power":      {"Power the plan wants", "the chance of detecting the change, a fraction in (0,1) or a percentage, e.g. 80%"},
		"effect":     {"Change in accuracy to plan for", "a fraction or a percentage of the questions: 2% is 2 points"},
		"max_listed": {"Questions listed of each kind", "a whole number from 1 to 1,000: the flipped questions, and those only one side has; the counts stay complete"},
	},
	"history": {
		"keep_incidents":   {"Count outages in the rates", "no: a run that failed as an outage, or tests that failed together, are kept out of each test's rate"},
		"alpha":            {"Chance of a false outage", "over the whole history, of calling one healthy run an outage: a fraction in (0,1) or a percentage, e.g. 1%"},
		"min_outage_tests": {"Fewest failed tests of an outage", "a whole number, 2 or more: lower it for a small suite, raise it when runs often fail a few tests together"},
		"target":           {"Target detection power", "of the rerun budgets: a fraction in (0,1) or a percentage, e.g. 95%"},
		"cost":             {"Runner seconds per run", "optional; seconds or a duration such as 8s or 1m30s; a flake then costs its rate times this"},
		"cap":              {"Rerun cap of the gate", "reruns the merge gate allows today, a whole number"},
		"today":            {"Date of the claims", "optional, YYYY-MM-DD; by default the day of the last run"},
		"confidence":       {"Confidence of the intervals", "of the rates' intervals and the claims: a fraction in (0,1) or a percentage, e.g. 95%"},
	},
}
