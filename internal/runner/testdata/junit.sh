#!/bin/sh
# junit.sh writes the JUnit report of one run of flakegate run's tests to
# $FLAKEGATE_TMPDIR/junit.xml. Its outcomes are arithmetic on the run's
# number (FLAKEGATE_RUN is b7 or p7: number 7), so a test can count them on
# its own:
#   suite.stable  passes in every run
#   suite.flaky   fails when the number is a multiple of 3 in the baseline,
#                 never in the patched arm
#   suite.skip    is skipped (no trial)
# Before it writes, it appends the run's id to $JUNIT_ORDER (when set) and
# sleeps $JUNIT_SLEEP seconds (default 0). JUNIT_FAIL_RUN=<id> makes that
# run exit 3 without a report, as a harness that breaks would.
set -eu
run=$FLAKEGATE_RUN
n=${run#?}
if [ -n "${JUNIT_ORDER:-}" ]; then
	echo "$run" >>"$JUNIT_ORDER"
fi
sleep "${JUNIT_SLEEP:-0}"
if [ "${JUNIT_FAIL_RUN:-}" = "$run" ]; then
	echo "junit.sh: planted harness failure in $run" >&2
	exit 3
fi
flaky='<testcase classname="suite" name="flaky"/>'
if [ "$FLAKEGATE_ARM" = baseline ] && [ $((n % 3)) -eq 0 ]; then
	flaky='<testcase classname="suite" name="flaky"><failure message="planted">every third baseline run</failure></testcase>'
fi
cat >"$FLAKEGATE_TMPDIR/junit.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="suite" tests="3">
    <testcase classname="suite" name="stable"/>
    $flaky
    <testcase classname="suite" name="skip"><skipped/></testcase>
  </testsuite>
</testsuites>
XML
