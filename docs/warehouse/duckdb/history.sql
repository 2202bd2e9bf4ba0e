-- flakegate history from a warehouse: each test's runs and failed runs
-- outside the incidents, the incidents' failures, and the outage runs, by
-- the rules of `flakegate history` (core/history's package doc):
--   a test failed in a run when any of its executions there failed;
--   an outage is a run with at least 5 failed tests whose binomial upper
--   tail, at the failed share of the runs not flagged, is below
--   0.01 / (number of runs); the share is recomputed without the flagged
--   runs, five rounds (flakegate iterates until nothing changes, which
--   real histories reach in two or three);
--   a group is two or more tests that failed, outside outages, in exactly
--   the same runs (at least two), passed in another run, and are not one
--   test and its own subtests ("TestX", "TestX/case"); the group's runs
--   are left out of its tests' counts.
-- Input: test_runs(run, arm, test, passed), one row per execution.
-- Output: history-tests.csv (test,runs,failures,incident_failures) and
-- history-outages.csv (run,tests,failing).
-- ../bigquery/history.sql and ../clickhouse/history.sql are translations of
-- this file, step by step with the same tables; only this one is executed
-- and checked against flakegate (docs/warehouse/check).

-- Step 1: a test failed in a run when any of its executions there failed.

CREATE OR REPLACE TEMP TABLE hist_cells AS
SELECT run, test, bool_or(NOT passed) AS failed
FROM test_runs GROUP BY run, test;

CREATE OR REPLACE TEMP TABLE hist_runs AS
SELECT run, count(*) AS tests, count_if(failed) AS failing FROM hist_cells GROUP BY run;

-- Step 2: P(X >= k) for X ~ Binomial(n, p), summed term by term in logs.
CREATE OR REPLACE TEMP MACRO hist_tail(k, n, p) AS (
  CASE WHEN k <= 0 THEN 1.0 WHEN p <= 0 OR k > n THEN 0.0 WHEN p >= 1 THEN 1.0 ELSE
    (SELECT sum(exp(lgamma(n + 1) - lgamma(x + 1) - lgamma(n - x + 1) + x * ln(p) + (n - x) * ln(1 - p)))
     FROM range(k::BIGINT, n::BIGINT + 1) t(x)) END
);

-- Step 3: five rounds; one round flags the runs (at least 5 failed tests)
-- against the share of the runs not flagged before.
CREATE OR REPLACE TEMP MACRO hist_round(prev) AS TABLE
  WITH share AS (
    SELECT sum(failing)::DOUBLE / sum(tests) AS p FROM hist_runs WHERE run NOT IN (SELECT run FROM query_table(prev))
  )
  SELECT r.run FROM hist_runs r, share
  WHERE r.failing >= 5 AND hist_tail(r.failing, r.tests, share.p) < 0.01 / (SELECT count(*) FROM hist_runs);

CREATE OR REPLACE TEMP TABLE hist_out0 AS SELECT run FROM hist_runs WHERE false;
CREATE OR REPLACE TEMP TABLE hist_out1 AS FROM hist_round('hist_out0');
CREATE OR REPLACE TEMP TABLE hist_out2 AS FROM hist_round('hist_out1');
CREATE OR REPLACE TEMP TABLE hist_out3 AS FROM hist_round('hist_out2');
CREATE OR REPLACE TEMP TABLE hist_out4 AS FROM hist_round('hist_out3');
CREATE OR REPLACE TEMP TABLE hist_outage AS FROM hist_round('hist_out4');

-- Step 4: each test's failed runs outside outages, as one ordered list,
-- and its runs outside outages.
CREATE OR REPLACE TEMP TABLE hist_sets AS
SELECT c.test, string_agg(c.run, chr(31) ORDER BY c.run) AS runs, count(*) AS n,
  (SELECT count(*) FROM hist_cells d WHERE d.test = c.test AND d.run NOT IN (SELECT run FROM hist_outage)) AS ran
FROM hist_cells c
WHERE c.failed AND c.run NOT IN (SELECT run FROM hist_outage)
GROUP BY c.test;

-- Step 5: groups, not one test and its own subtests.
CREATE OR REPLACE TEMP TABLE hist_groups AS
WITH g AS (
  SELECT runs, list(test) AS tests, min(length(test)) AS shortest
  FROM hist_sets WHERE n >= 2 AND n < ran GROUP BY runs HAVING count(*) >= 2
), fam AS (
  SELECT runs, tests, (SELECT t FROM unnest(tests) u(t) ORDER BY length(t), t LIMIT 1) AS root FROM g
)
SELECT runs, tests FROM fam
WHERE NOT list_bool_and(list_transform(tests, t -> t = root OR starts_with(t, root || '/')));

-- Step 6: the runs left out of each test's counts: outages, and its group's runs.
CREATE OR REPLACE TEMP TABLE hist_excluded AS
SELECT c.run, c.test FROM hist_cells c WHERE c.run IN (SELECT run FROM hist_outage)
UNION
SELECT unnest(string_split(g.runs, chr(31))) AS run, t.test
FROM hist_groups g, (SELECT unnest(tests) AS test, runs FROM hist_groups) t
WHERE t.runs = g.runs;

-- Step 7: the figures.
COPY (
  SELECT c.test,
    count(*) FILTER (WHERE e.run IS NULL) AS runs,
    count_if(c.failed AND e.run IS NULL) AS failures,
    count_if(c.failed AND e.run IS NOT NULL) AS incident_failures
  FROM hist_cells c LEFT JOIN hist_excluded e ON e.run = c.run AND e.test = c.test
  GROUP BY c.test ORDER BY c.test
) TO 'history-tests.csv' (HEADER);

COPY (
  SELECT run, tests, failing FROM hist_runs WHERE run IN (SELECT run FROM hist_outage) ORDER BY run
) TO 'history-outages.csv' (HEADER);
