#!/bin/sh
# summary.sh: flakegate as a gate in any CI. Runs one flakegate command,
# writes its Markdown summary (the answer, the table, the caveats, the link)
# to a file the CI can show or post to the merge request, prints it, and
# exits with the gate's status:
#   0  the gate passes      1  the gate blocks      2  bad input or usage
#
# usage: summary.sh COMMAND [FLAGS] [ARGS]
#   summary.sh budget -cap 3 -cost 8 -from run1.xml -from run2.xml
#   summary.sh ledger -min-trials 20 -baseline b1.json -patched p1.json
#
# Environment (all optional):
#   FLAKEGATE       the flakegate command (default flakegate)
#   SUMMARY         where the summary goes (default flakegate-summary.md)
#   FLAKEGATE_SITE  a calculator's address: the summary links to its view
set -u

FLAKEGATE=${FLAKEGATE:-flakegate}
SUMMARY=${SUMMARY:-flakegate-summary.md}

if [ $# -eq 0 ]; then
	echo "usage: $0 COMMAND [FLAGS] [ARGS]" >&2
	exit 2
fi
"$FLAKEGATE" "$@" -markdown >"$SUMMARY"
status=$?
case $status in
0) echo "flakegate $1: the gate passes" >&2 ;;
1) echo "flakegate $1: the gate blocks" >&2 ;;
*)
	echo "flakegate $1: could not run (exit status $status); see the message above" >&2
	exit "$status"
	;;
esac
cat "$SUMMARY"
exit "$status"
