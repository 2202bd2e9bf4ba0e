-- flakegate budget counts: test,fails,runs (executions) of the baseline arm.
COPY (
  SELECT test, count_if(NOT passed) AS fails, count(*) AS runs
  FROM test_runs
  WHERE arm = 'baseline'
  GROUP BY test
  ORDER BY test
) TO 'budget-counts.csv' (HEADER);
