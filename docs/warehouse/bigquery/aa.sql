-- bq query --use_legacy_sql=false --format=csv --max_rows=1000000 < aa.sql > aa-counts.csv
SELECT test AS scenario, '' AS run, COUNTIF(passed) AS passed, COUNT(*) AS trials
FROM `project.dataset.test_runs` WHERE arm = 'baseline' GROUP BY test
UNION ALL
SELECT '' AS scenario, run, COUNTIF(passed) AS passed, COUNT(*) AS trials
FROM `project.dataset.test_runs` WHERE arm = 'baseline' GROUP BY run
ORDER BY scenario, run
