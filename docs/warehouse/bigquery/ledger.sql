-- bq query --use_legacy_sql=false --format=csv --max_rows=1000000 < ledger.sql > ledger-counts.csv
SELECT test, arm, COUNTIF(passed) AS passed, COUNT(*) AS trials
FROM `project.dataset.test_runs`
GROUP BY test, arm
ORDER BY test, arm
