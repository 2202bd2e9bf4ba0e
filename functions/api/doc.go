// Package api is flakegate's JSON API: one net/http handler that every
// platform serves unchanged (the local server, AWS Lambda, Cloudflare
// Workers).
//
// Routes live under /v1/. budget, decide, size and freeze answer GET with
// query parameters and POST with a JSON object of the same names; aa reads a
// scenario,run,passed CSV (text/csv, or multipart parts baseline and
// candidate); ledger reads a per-trial JSONL ledger (its body, or multipart
// parts named ledger). openapi.json describes all of them and health answers
// a liveness probe.
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
