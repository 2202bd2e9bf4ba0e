-- clickhouse-client --queries-file aa.sql > aa-counts.csv
SELECT scenario, run, passed, trials FROM (
  SELECT test AS scenario, '' AS run, countIf(passed) AS passed, count() AS trials
  FROM test_runs WHERE arm = 'baseline' GROUP BY test
  UNION ALL
  SELECT '' AS scenario, run, countIf(passed) AS passed, count() AS trials
  FROM test_runs WHERE arm = 'baseline' GROUP BY run
)
ORDER BY scenario, run
FORMAT CSVWithNames
