# mochawesome: tests in results[].suites[]... .tests[] (state passed/failed/pending or null when a hook
# stopped them, skipped: true); hooks in beforeHooks/afterHooks. No retry counts: one trial per test.
[.. | objects | select(has("fullTitle") and .isHook == false)] as $t
| {passed: ([$t[] | select(.state == "passed")] | length),
   trials: ([$t[] | select(.state == "passed" or .state == "failed")] | length),
   hook_failures: ([.. | objects | select(has("fullTitle") and .isHook == true and .state == "failed")] | length),
   tool_stats: .stats}
