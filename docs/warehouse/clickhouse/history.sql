-- flakegate history from ClickHouse: a translation of ../duckdb/history.sql,
-- step by step with the same tables (hist_cells, hist_runs, hist_out1..5,
-- hist_sets, hist_groups, hist_excluded) and the same rules (see the
-- DuckDB file's header). It has not been run here: only the DuckDB text
-- is executed and checked against flakegate (docs/warehouse/check).
-- Run it in one session, which keeps the temporary tables:
--   clickhouse-client --queries-file history.sql
-- It writes history-tests.csv and history-outages.csv on the client's side.
-- Input: test_runs(run, arm, test, passed), one row per execution.

SET join_use_nulls = 1;

-- Step 1: a test failed in a run when any of its executions there failed.
CREATE TEMPORARY TABLE hist_cells ENGINE = Memory AS
SELECT run, test, max(NOT passed) AS failed
FROM test_runs GROUP BY run, test;

CREATE TEMPORARY TABLE hist_runs ENGINE = Memory AS
SELECT run, count() AS tests, countIf(failed) AS failing FROM hist_cells GROUP BY run;

-- Steps 2 and 3: five rounds, each flagging the runs (at least 5 failed
-- tests) whose binomial upper tail P(X >= failing), X ~ Binomial(tests, p),
-- summed term by term in logs with lgamma, at the failed share p of the
-- runs not flagged before, is below 0.01 / (number of runs).
CREATE TEMPORARY TABLE hist_out0 ENGINE = Memory AS SELECT run FROM hist_runs WHERE 0;

-- Round 1: flag the runs against the share of the runs not flagged in round 0.
CREATE TEMPORARY TABLE hist_out1 ENGINE = Memory AS
WITH (SELECT sum(failing) / sum(tests) FROM hist_runs WHERE run NOT IN (SELECT run FROM hist_out0)) AS p
SELECT run FROM hist_runs
WHERE failing >= 5 AND multiIf(p <= 0, 0.0, p >= 1, 1.0,
  arraySum(x -> exp(lgamma(tests + 1) - lgamma(x + 1) - lgamma(tests - x + 1) + x * log(p) + (tests - x) * log(1 - p)),
           range(toUInt64(failing), toUInt64(tests) + 1))) < 0.01 / (SELECT count() FROM hist_runs);

-- Round 2: flag the runs against the share of the runs not flagged in round 1.
CREATE TEMPORARY TABLE hist_out2 ENGINE = Memory AS
WITH (SELECT sum(failing) / sum(tests) FROM hist_runs WHERE run NOT IN (SELECT run FROM hist_out1)) AS p
SELECT run FROM hist_runs
WHERE failing >= 5 AND multiIf(p <= 0, 0.0, p >= 1, 1.0,
  arraySum(x -> exp(lgamma(tests + 1) - lgamma(x + 1) - lgamma(tests - x + 1) + x * log(p) + (tests - x) * log(1 - p)),
           range(toUInt64(failing), toUInt64(tests) + 1))) < 0.01 / (SELECT count() FROM hist_runs);

-- Round 3: flag the runs against the share of the runs not flagged in round 2.
CREATE TEMPORARY TABLE hist_out3 ENGINE = Memory AS
WITH (SELECT sum(failing) / sum(tests) FROM hist_runs WHERE run NOT IN (SELECT run FROM hist_out2)) AS p
SELECT run FROM hist_runs
WHERE failing >= 5 AND multiIf(p <= 0, 0.0, p >= 1, 1.0,
  arraySum(x -> exp(lgamma(tests + 1) - lgamma(x + 1) - lgamma(tests - x + 1) + x * log(p) + (tests - x) * log(1 - p)),
           range(toUInt64(failing), toUInt64(tests) + 1))) < 0.01 / (SELECT count() FROM hist_runs);

-- Round 4: flag the runs against the share of the runs not flagged in round 3.
CREATE TEMPORARY TABLE hist_out4 ENGINE = Memory AS
WITH (SELECT sum(failing) / sum(tests) FROM hist_runs WHERE run NOT IN (SELECT run FROM hist_out3)) AS p
SELECT run FROM hist_runs
WHERE failing >= 5 AND multiIf(p <= 0, 0.0, p >= 1, 1.0,
  arraySum(x -> exp(lgamma(tests + 1) - lgamma(x + 1) - lgamma(tests - x + 1) + x * log(p) + (tests - x) * log(1 - p)),
           range(toUInt64(failing), toUInt64(tests) + 1))) < 0.01 / (SELECT count() FROM hist_runs);

-- Round 5: flag the runs against the share of the runs not flagged in round 4.
CREATE TEMPORARY TABLE hist_out5 ENGINE = Memory AS
WITH (SELECT sum(failing) / sum(tests) FROM hist_runs WHERE run NOT IN (SELECT run FROM hist_out4)) AS p
SELECT run FROM hist_runs
WHERE failing >= 5 AND multiIf(p <= 0, 0.0, p >= 1, 1.0,
  arraySum(x -> exp(lgamma(tests + 1) - lgamma(x + 1) - lgamma(tests - x + 1) + x * log(p) + (tests - x) * log(1 - p)),
           range(toUInt64(failing), toUInt64(tests) + 1))) < 0.01 / (SELECT count() FROM hist_runs);

-- Step 4: each test's failed runs outside outages (hist_out5), as one
-- ordered list, and its runs outside outages.
CREATE TEMPORARY TABLE hist_sets ENGINE = Memory AS
SELECT c.test AS test, arrayStringConcat(arraySort(groupArray(c.run)), '\x1F') AS runs, count() AS n, any(r.ran) AS ran
FROM hist_cells AS c
INNER JOIN (SELECT test, count() AS ran FROM hist_cells WHERE run NOT IN (SELECT run FROM hist_out5) GROUP BY test) AS r ON r.test = c.test
WHERE c.failed AND c.run NOT IN (SELECT run FROM hist_out5)
GROUP BY c.test;

-- Step 5: groups, not one test and its own subtests.
CREATE TEMPORARY TABLE hist_groups ENGINE = Memory AS
SELECT runs, tests FROM (
  SELECT runs, groupArray(test) AS tests, arraySort(t -> (length(t), t), tests)[1] AS root
  FROM hist_sets WHERE n >= 2 AND n < ran GROUP BY runs HAVING count() >= 2
)
WHERE NOT arrayAll(t -> t = root OR startsWith(t, concat(root, '/')), tests);

-- Step 6: the runs left out of each test's counts: outages, and its group's runs.
CREATE TEMPORARY TABLE hist_excluded ENGINE = Memory AS
SELECT DISTINCT run, test FROM (
  SELECT run, test FROM hist_cells WHERE run IN (SELECT run FROM hist_out5)
  UNION ALL
  SELECT arrayJoin(splitByChar('\x1F', runs)) AS run, arrayJoin(tests) AS test FROM hist_groups
);

-- Step 7: the figures.
SELECT c.test AS test,
  countIf(e.run IS NULL) AS runs,
  countIf(c.failed AND e.run IS NULL) AS failures,
  countIf(c.failed AND e.run IS NOT NULL) AS incident_failures
FROM hist_cells AS c LEFT JOIN hist_excluded AS e ON e.run = c.run AND e.test = c.test
GROUP BY c.test ORDER BY c.test
INTO OUTFILE 'history-tests.csv' TRUNCATE FORMAT CSVWithNames;

SELECT run, tests, failing FROM hist_runs WHERE run IN (SELECT run FROM hist_out5) ORDER BY run
INTO OUTFILE 'history-outages.csv' TRUNCATE FORMAT CSVWithNames;
