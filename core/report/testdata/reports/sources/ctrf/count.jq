# CTRF: results.tests[]: status passed/failed count; retries = attempts before the last (CTRF spec:
# "retries: number of retries"). Trials: retries + 1 per passed/failed test; a passed test's retries failed.
[.results.tests[] | select(.status == "passed" or .status == "failed")] as $t
| {passed: ([$t[] | select(.status == "passed")] | length),
   trials: ([$t[] | (.retries // 0) + 1] | add), summary: .results.summary}
