-- clickhouse-client --queries-file ledger.sql > ledger-counts.csv
SELECT test, arm, countIf(passed) AS passed, count() AS trials
FROM test_runs
GROUP BY test, arm
ORDER BY test, arm
FORMAT CSVWithNames
