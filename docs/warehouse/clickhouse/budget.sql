-- clickhouse-client --queries-file budget.sql > budget-counts.csv
SELECT test, countIf(NOT passed) AS fails, count() AS runs
FROM test_runs
WHERE arm = 'baseline'
GROUP BY test
ORDER BY test
FORMAT CSVWithNames
