// Package sim is the gate simulator: given a model of an eval suite (each
// scenario's chance of passing a run, and where the A/A check puts the
// threshold gates), it plants four shapes of regression and measures, over
// many simulated comparisons of k runs per side, how often each of four
// gates fires with no change (false alarms) and with each shape
// (detection). aa.Simulate fits the model to a baseline and runs it.
//
// A simulation is deterministic: its draws come from a PCG seeded by
// Options.Seed in a fixed order, and the gates decide from integer counts,
// so every platform gives the same table. Its work is bounded: Run refuses
// more than 2e8 draws with a TooLarge *core.Error before it starts.
package sim
