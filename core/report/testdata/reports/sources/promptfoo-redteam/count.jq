# promptfoo output: one trial per result; errors are failureReason 2 (promptfoo's stats.errors);
# a scenario is description, strategy (metadata.strategyId, else the test's own provider id) and provider.
[.results.results[] | {name: ([.testCase.description, (.testCase.metadata.strategyId // .testCase.provider.id), (.provider.label // .provider.id)] | map(select(. != null and . != "")) | join(" · ")), success, error: (.failureReason == 2)}] as $r
| {passed: ($r | map(select(.success)) | length), trials: ($r | length), errors: ($r | map(select(.error)) | length),
   scenarios: ($r | group_by(.name) | map({name: .[0].name, passed: (map(select(.success)) | length), trials: length, errors: (map(select(.error)) | length)})),
   tool_stats: (.results.stats | {successes, failures, errors})}
