-- flakegate A/A counts: per-scenario rows (run empty) and per-run rows (scenario empty).
COPY (
  SELECT test AS scenario, '' AS run, count_if(passed) AS passed, count(*) AS trials
  FROM test_runs WHERE arm = 'baseline' GROUP BY test
  UNION ALL
  SELECT '' AS scenario, run, count_if(passed) AS passed, count(*) AS trials
  FROM test_runs WHERE arm = 'baseline' GROUP BY run
  ORDER BY scenario, run
) TO 'aa-counts.csv' (HEADER);
