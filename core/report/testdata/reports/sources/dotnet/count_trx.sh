#!/bin/sh
# TRX by XPath: trials are UnitTestResult elements without InnerResults (a data-driven parent is the sum of its
# rows) whose outcome is Passed, Failed, Error, Timeout or Aborted; passed when Passed. NotExecuted,
# Inconclusive, NotRunnable and Pending are no trial.
for f in "$@"; do
  R='//*[local-name()="UnitTestResult"][not(*[local-name()="InnerResults"])]'
  T="$R[@outcome='Passed' or @outcome='Failed' or @outcome='Error' or @outcome='Timeout' or @outcome='Aborted' or @outcome='PassedButRunAborted' or @outcome='Warning' or @outcome='Completed']"
  echo "$f passed=$(xmllint --xpath "count($T[@outcome='Passed' or @outcome='PassedButRunAborted' or @outcome='Warning' or @outcome='Completed'])" $f) trials=$(xmllint --xpath "count($T)" $f)"
done
