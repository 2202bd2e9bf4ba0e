# Playwright JSON: each attempt (results[]) that ran to its end is a trial: not skipped, not interrupted
# (the run was stopped under it). It passes when its status is the test's expectedStatus: a test.fail()
# test passes by failing.
[.. | objects | select(has("expectedStatus") and has("results")) | .expectedStatus as $e
 | .results[] | select(.status != "skipped" and .status != "interrupted") | (.status == $e)] as $t
| {passed: ($t | map(select(.)) | length), trials: ($t | length), tool_stats: .stats}
