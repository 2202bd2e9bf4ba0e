-- flakegate ledger counts: test,arm,passed,trials from one row per execution.
COPY (
  SELECT test, arm, count_if(passed) AS passed, count(*) AS trials
  FROM test_runs
  GROUP BY test, arm
  ORDER BY test, arm
) TO 'ledger-counts.csv' (HEADER);
