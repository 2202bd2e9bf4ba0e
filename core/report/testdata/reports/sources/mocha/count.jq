# mocha --reporter json: tests[] are the tests that ran or were pending; currentRetry is how many attempts
# failed before the last. A passed test: currentRetry failed + 1 passed trials; a failed one: currentRetry+1
# failed trials; pending: none. failures[] that are not in tests[] are hook failures (setup, no trial).
(.passes | map(.fullTitle)) as $p
| [.tests[] | select(.fullTitle as $n | ($p | index($n)) != null or (.err|length) > 0)] as $t
| {passed: ([$t[] | select(.err|length == 0)] | length),
   trials: ([$t[] | .currentRetry + 1] | add),
   hook_failures: ([.failures[] | .fullTitle] - [.tests[] | .fullTitle] | length),
   tool_stats: .stats}
