-- bq query --use_legacy_sql=false --format=csv --max_rows=1000000 < budget.sql > budget-counts.csv
SELECT test, COUNTIF(NOT passed) AS fails, COUNT(*) AS runs
FROM `project.dataset.test_runs`
WHERE arm = 'baseline'
GROUP BY test
ORDER BY test
