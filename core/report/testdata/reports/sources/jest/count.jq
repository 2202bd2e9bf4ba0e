# Jest --json: a trial per invocation of a passed/failed test; a passed test's earlier invocations failed.
[.testResults[].assertionResults[] | select(.status=="passed" or .status=="failed")] as $t
| {passed: ([$t[] | select(.status=="passed")] | length),
   trials: ([$t[] | (.invocations // 1)] | add),
   tests: ($t | length),
   tool_summary: {numPassedTests, numFailedTests, numPendingTests, numTodoTests, numTotalTests}}
