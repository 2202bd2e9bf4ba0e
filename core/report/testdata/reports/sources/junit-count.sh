#!/bin/sh
# junit-count.sh FILE...: trials and passes in JUnit XML by XPath (xmllint), independent of flakegate.
# A trial is a <testcase> with no <skipped> child whose status is not disabled/notrun and whose
# result is not suppressed/skipped (googletest, ctest). Passed: a trial with no <failure>/<error>.
# Surefire/Playwright rerun records (flakyFailure, flakyError, rerunFailure, rerunError) are one failed
# trial each, counted apart (reruns).
for f in "$@"; do
  T='//testcase[not(skipped) and not(@status="disabled") and not(@status="notrun") and not(@result="suppressed") and not(@result="skipped")]'
  trials=$(xmllint --xpath "count($T)" "$f")
  passed=$(xmllint --xpath "count($T[not(failure) and not(error)])" "$f")
  reruns=$(xmllint --xpath "count(//testcase/flakyFailure|//testcase/flakyError|//testcase/rerunFailure|//testcase/rerunError)" "$f")
  printf '%s\tpassed=%s\ttrials=%s\treruns=%s\ttotal_trials=%s\n' "$f" "$passed" "$trials" "$reruns" $((trials + reruns))
done
