# Vitest --reporter=json (Jest's shape without invocations): each failed attempt leaves one failureMessages
# entry, so a passed test's trials are its failures + 1, a failed test's are its failures (at least 1).
[.testResults[].assertionResults[] | select(.status=="passed" or .status=="failed")] as $t
| {passed: ([$t[] | select(.status=="passed")] | length),
   trials: ([$t[] | (.failureMessages|length) + (if .status=="passed" then 1 else 0 end) | if . < 1 then 1 else . end] | add),
   tool_summary: {numPassedTests, numFailedTests, numPendingTests, numTodoTests, numTotalTests}}
