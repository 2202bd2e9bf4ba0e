#!/bin/sh
# NUnit 3 by XPath: a trial is a test-case with result Passed, Warning or Failed, except a failure whose site is
# SetUp or Parent (the body never ran: a setup failure). Passed: result Passed or Warning.
for f in "$@"; do
  T='//test-case[(@result="Passed" or @result="Warning" or @result="Failed") and not(@site="SetUp") and not(@site="Parent")]'
  echo "$f passed=$(xmllint --xpath "count($T[@result!='Failed'])" $f) trials=$(xmllint --xpath "count($T)" $f) setup=$(xmllint --xpath 'count(//test-case[@result="Failed" and (@site="SetUp" or @site="Parent")])' $f) header_total=$(xmllint --xpath 'string(/test-run/@total)' $f)"
done
