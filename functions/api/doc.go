// Package api is flakegate's JSON API: one net/http handler that every
// platform serves unchanged (the local server, AWS Lambda, Cloudflare
// Workers).
//
// Routes live under /v1/:
//   - budget: reruns needed to catch a flake, their cost and the merge-gate
//     lane (GET with query parameters, POST with a JSON object or form of
//     the same names; so do decide, size and freeze);
//   - decide: the two-arm verdict on a patch from pass counts;
//   - size: trials per arm at which two pass rates' intervals separate;
//   - freeze: a frozen pass-rate claim, or its check against a newer count;
//   - aa (POST): the A/A noise of an eval suite and a candidate's check, from
//     scenario,run,passed CSVs (text/csv, or multipart parts baseline and
//     candidate) or test reports (format=...; each file a run);
//   - ledger (POST): per-test two-arm verdicts from a trial ledger or test
//     reports (the body, or multipart parts ledger, baseline and patched);
//   - flakes (POST): rerun budgets of every flaky test in test reports (the
//     body, or multipart parts named report, one run each);
//   - compare (POST): is model B better than model A on the same eval
//     questions: multipart parts a and b, each an eval log of that side
//     (repeated for epochs), paired by question;
//   - compare/board (POST): a leaderboard of many models on the same eval
//     questions: one multipart part a model, named after it; every pair's
//     paired test with Holm-adjusted p-values, tied groups, rank intervals;
//   - compare-sequential (GET, POST): one batch of a sequential comparison
//     (a and b, each side's score on the batch's questions, and the state
//     the previous call returned): B better, B worse, no difference of the
//     planned size, or continue, valid however often it is called;
//   - quarantine/check (POST): every quarantined test of a registry checked
//     against new reports: still flaky, stale, released, expired or missing;
//   - quarantine/write (POST): the registry such a check stores (new counts
//     recorded, released tests gone, stale claims measured again);
//   - quarantine/add (POST): tests quarantined from reports or a count, into
//     the registry sent or a new one;
//   - quarantine/renew, quarantine/remove, quarantine/rename (POST): a
//     test's expiry date (and owner or reason) moved, its entry taken out,
//     its entry moved to its new id;
//   - quarantine/release (GET, POST): the clean runs in a row that prove a
//     failure rate below a target;
//   - history (POST): the flaky tests in many CI runs' reports, outages and
//     tests failing together kept out as incidents (a zip archive as the
//     body, or parts named report, each a report or a zip, and an optional
//     manifest first);
//   - triage (POST): each failure of one run against the past runs, as a
//     known flake, new, broken since a commit, quarantined or part of an
//     outage (parts report, the past as history reads it, run, this run's
//     reports, and optional manifest and quarantine);
//   - openapi.json: the OpenAPI 3.1 description of all of them;
//   - health: a liveness probe and this deployment's limits.
//
// aa, ledger and flakes read their uploads by one path (readUpload): media
// type, body limit, the body or each multipart part in order, the reader of
// its format (detected from the content unless named), the ledger.
//
// The contract:
//   - A result body is exactly what core.WriteJSON writes for the core's
//     result, so the API, the CLI's -json and every platform give the same
//     bytes for the same question.
//   - Errors are RFC 9457 application/problem+json. A client's mistake is a
//     4xx, never a 500: 400 malformed, 404 no such route, 405 wrong method
//     (with Allow), 413 body over the limit, 415 a media type the route does
//     not read, 422 input the statistics cannot use. Parse errors carry line
//     and column, and field or file when known. A panic is a 500 and a log
//     line, never a crashed instance.
//   - Bodies are read as streams through a byte limit (Options.MaxBodyBytes):
//     no more than the limit is ever held, and multipart parts are read in
//     order with no temporary files.
//   - CORS allows any origin without credentials; GET results carry a
//     Cache-Control that lets a CDN keep them, since they are a pure function
//     of the URL.
//   - Nothing is cached in package state: each request builds what it needs,
//     which is what a platform that starts a fresh instance per request wants.
package api
