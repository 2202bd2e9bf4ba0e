#!/usr/bin/env bash
# timed.sh STAGE COMMAND...: runs COMMAND and then says how long STAGE took
# and how long since `make` started (FLAKEGATE_T0, seconds since the epoch,
# set by the Makefile), so a `make test` log shows where its time went.
# The command's exit status is kept.
stage=$1
shift
start=$(date +%s)
"$@"
rc=$?
now=$(date +%s)
echo "make test: ${stage} took $((now - start)) s ($((now - ${FLAKEGATE_T0:-start})) s since make started, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
exit $rc
