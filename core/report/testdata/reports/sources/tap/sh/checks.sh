#!/bin/sh
# A shell test script that writes TAP without test numbers or descriptions, as the TAP
# specification allows ("If the test number is omitted, the harness must maintain its own
# counter until the test numbers resume"). The third check fails; "ok 6 - numbered again"
# resumes the numbers; the subtest has its own counter.
check() { if "$@"; then echo ok; else echo not ok; fi; }
echo "TAP version 13"
echo "1..7"
check test -d /
check test -f /etc/hostname
check test 1 -eq 2
echo "ok - described, no number"
check true
echo "ok 6 - numbered again"
echo "# Subtest: inner"
echo "    ok"
echo "    not ok"
echo "    1..2"
echo "not ok 7 - inner"
