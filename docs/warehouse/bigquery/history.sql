-- flakegate history from BigQuery: a translation of ../duckdb/history.sql,
-- step by step with the same tables (hist_cells, hist_runs, hist_outage,
-- hist_sets, hist_groups, hist_excluded) and the same rules (see the
-- DuckDB file's header). It has not been run here: only the DuckDB text
-- is executed and checked against flakegate (docs/warehouse/check).
-- Differences: BigQuery has no lgamma, so ln(n!) comes from a table of
-- running sums of ln(i) (hist_lnfact); the five rounds are a WHILE loop;
-- the results go to two tables, read with
--   bq query --use_legacy_sql=false < history.sql
--   bq query --use_legacy_sql=false --format=csv --max_rows=1000000 'SELECT * FROM `project.dataset.history_tests` ORDER BY test' > history-tests.csv
--   bq query --use_legacy_sql=false --format=csv 'SELECT * FROM `project.dataset.history_outages` ORDER BY run' > history-outages.csv
-- Input: `project.dataset.test_runs`(run, arm, test, passed), one row per execution.

DECLARE rounds_done INT64 DEFAULT 0;

-- Step 1: a test failed in a run when any of its executions there failed.
CREATE TEMP TABLE hist_cells AS
SELECT run, test, LOGICAL_OR(NOT passed) AS failed
FROM `project.dataset.test_runs` GROUP BY run, test;

CREATE TEMP TABLE hist_runs AS
SELECT run, COUNT(*) AS tests, COUNTIF(failed) AS failing FROM hist_cells GROUP BY run;

-- Step 2: ln(n!) for n up to the largest run, for the binomial tail
-- P(X >= k), X ~ Binomial(n, p), summed term by term in logs.
CREATE TEMP TABLE hist_lnfact AS
SELECT n, SUM(LN(GREATEST(n, 1))) OVER (ORDER BY n) AS lf
FROM UNNEST(GENERATE_ARRAY(0, (SELECT MAX(tests) FROM hist_runs))) AS n;

-- Step 3: five rounds, each flagging the runs (at least 5 failed tests)
-- whose tail, at the failed share of the runs not flagged before, is below
-- 0.01 / (number of runs).
CREATE TEMP TABLE hist_outage AS SELECT run FROM hist_runs WHERE FALSE;
WHILE rounds_done < 5 DO
  CREATE OR REPLACE TEMP TABLE hist_outage AS
  WITH share AS (
    SELECT SUM(failing) / SUM(tests) AS p FROM hist_runs WHERE run NOT IN (SELECT run FROM hist_outage)
  ), tails AS (
    SELECT r.run, r.failing, r.tests, share.p,
      SUM(EXP(fn.lf - fx.lf - fnx.lf + x * LN(share.p) + (r.tests - x) * LN(1 - share.p))) AS tail
    FROM hist_runs r CROSS JOIN share CROSS JOIN UNNEST(GENERATE_ARRAY(r.failing, r.tests)) AS x
    JOIN hist_lnfact fn ON fn.n = r.tests
    JOIN hist_lnfact fx ON fx.n = x
    JOIN hist_lnfact fnx ON fnx.n = r.tests - x
    WHERE r.failing >= 5 AND share.p > 0 AND share.p < 1
    GROUP BY r.run, r.failing, r.tests, share.p
  )
  SELECT run FROM tails WHERE tail < 0.01 / (SELECT COUNT(*) FROM hist_runs)
  UNION DISTINCT
  -- p = 0: any failure is beyond chance (the tail is 0); p = 1: never.
  SELECT r.run FROM hist_runs r CROSS JOIN share WHERE r.failing >= 5 AND share.p <= 0;
  SET rounds_done = rounds_done + 1;
END WHILE;

-- Step 4: each test's failed runs outside outages, as one ordered list,
-- and its runs outside outages.
CREATE TEMP TABLE hist_sets AS
WITH ran AS (
  SELECT test, COUNT(*) AS ran FROM hist_cells WHERE run NOT IN (SELECT run FROM hist_outage) GROUP BY test
)
SELECT c.test, STRING_AGG(c.run, '\x1f' ORDER BY c.run) AS runs, COUNT(*) AS n, ANY_VALUE(ran.ran) AS ran
FROM hist_cells c JOIN ran USING (test)
WHERE c.failed AND c.run NOT IN (SELECT run FROM hist_outage)
GROUP BY c.test;

-- Step 5: groups, not one test and its own subtests.
CREATE TEMP TABLE hist_groups AS
WITH g AS (
  SELECT runs, ARRAY_AGG(test) AS tests
  FROM hist_sets WHERE n >= 2 AND n < ran GROUP BY runs HAVING COUNT(*) >= 2
), fam AS (
  SELECT runs, tests, (SELECT t FROM UNNEST(tests) AS t ORDER BY LENGTH(t), t LIMIT 1) AS root FROM g
)
SELECT runs, tests FROM fam
WHERE EXISTS (SELECT 1 FROM UNNEST(tests) AS t WHERE NOT (t = root OR STARTS_WITH(t, CONCAT(root, '/'))));

-- Step 6: the runs left out of each test's counts: outages, and its group's runs.
CREATE TEMP TABLE hist_excluded AS
SELECT c.run, c.test FROM hist_cells c WHERE c.run IN (SELECT run FROM hist_outage)
UNION DISTINCT
SELECT run, test FROM hist_groups g, UNNEST(g.tests) AS test, UNNEST(SPLIT(g.runs, '\x1f')) AS run;

-- Step 7: the figures.
CREATE OR REPLACE TABLE `project.dataset.history_tests` AS
SELECT c.test,
  COUNTIF(e.run IS NULL) AS runs,
  COUNTIF(c.failed AND e.run IS NULL) AS failures,
  COUNTIF(c.failed AND e.run IS NOT NULL) AS incident_failures
FROM hist_cells c LEFT JOIN hist_excluded e ON e.run = c.run AND e.test = c.test
GROUP BY c.test;

CREATE OR REPLACE TABLE `project.dataset.history_outages` AS
SELECT run, tests, failing FROM hist_runs WHERE run IN (SELECT run FROM hist_outage);
