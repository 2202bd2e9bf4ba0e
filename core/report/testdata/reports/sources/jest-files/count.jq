# Jest --json: per test FILE, a trial per invocation of a passed/failed test; files that failed to run
# (status "failed", no assertionResults) listed apart. Ids relative to the files' common folder.
[.testResults[] | .name] as $names
| ($names | map(split("/")[:-1]) | reduce .[1:][] as $p (.[0]; . as $r | [range(0; [length, ($p|length)] | min)] | map(select($r[.] == $p[.])) | . as $i | $r[:([range(0; $i|length)] | map(select($i[.] == .)) | length)])) as $root
| {passed: ([.testResults[].assertionResults[] | select(.status=="passed")] | length),
   trials: ([.testResults[].assertionResults[] | select(.status=="passed" or .status=="failed") | (.invocations // 1)] | add),
   tests: [.testResults[] | (.name | split("/")[($root|length):] | join("/")) as $f | .assertionResults[] | select(.status=="passed" or .status=="failed") | "\($f) › \(.fullName)"],
   broken_files: [.testResults[] | select(.status=="failed" and (.assertionResults|length)==0) | .name | split("/")[($root|length):] | join("/")],
   tool_summary: {numPassedTests, numFailedTests, numTotalTests, numFailedTestSuites, numRuntimeErrorTestSuites}}
