// Package compare answers "is model B better than model A on this eval?"
// from two eval runs (or two sets of runs: epochs, repeats) of the same
// questions. Its input is two *aa.Side values, each question's passes out
// of its trials on that side (aa.FromLedger makes one from any eval log the
// report readers take). Compare pairs the sides by question id, names and
// leaves out the questions only one side has, and computes:
//
//   - the paired difference in accuracy, B minus A: the mean over questions
//     of d_i = b_i − a_i (each side's per-question pass rate), its standard
//     error sd(d)/√n and a two-sided Student t interval on n−1 degrees of
//     freedom (SciPy's ttest_rel on the per-question rates);
//   - with one trial a question on each side: McNemar's exact test on the
//     discordant pairs (two-sided binomial p, and its mid-p);
//   - with two or more trials a question: the split of the variance of d_i
//     into answer noise (the same question answered again) and question
//     sampling (which questions the eval happens to hold);
//   - given a cluster for each question (passage, file, task): the
//     cluster-robust (CR1) standard error of the difference, statsmodels'
//     OLS cov_type="cluster" formula;
//   - the minimum detectable effect at the eval's size and the questions
//     needed, at 1 to 10 epochs, to detect a chosen effect;
//   - sequentially (SeqPlan, CompareSequential, SequentialBatch): B better,
//     B worse, no difference of the planned size, or continue, from
//     betting e-processes on the paired differences, valid however often
//     the answer is looked at (after every batch of an eval that is still
//     running).
//
// Leaderboard ranks 2 to 50 models on the questions they all share: each
// pair by the test Compare reports (McNemar's exact p with one answer a
// question, else the paired t-test), Holm's adjustment over all pairs (and
// Benjamini–Hochberg on request; Holm and BH give statsmodels' numbers),
// the tied groups and the simultaneous rank intervals those decisions
// make, and the same per category over one corrected family.
//
// docs/STATISTICS.md (section Compare) gives every formula and its source.
// Fractions are in [0,1]; differences are fractions in [-1,1], not points.
// Results are deterministic: questions keep A's order, sums are exactly
// rounded (stat.Fmean, stat.Sum), ties sort by id. Input the statistics
// cannot use (no question in common, fewer than two) is a *core.Error of
// Kind Unusable; settings out of range are Invalid; caveats are Warnings.
package compare
