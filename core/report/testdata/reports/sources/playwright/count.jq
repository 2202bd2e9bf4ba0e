# Playwright JSON reporter: every attempt is one entry of results[] (retry 0, 1, ...). A trial is a result
# with status passed, failed, timedOut or interrupted; passed when status is "passed". Skipped: none.
[.. | objects | select(has("results") and has("projectName")) | .results[] | select(.status != "skipped")] as $r
| {passed: ([$r[] | select(.status == "passed")] | length), trials: ($r | length), tool_stats: .stats}
