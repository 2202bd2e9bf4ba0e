// Package bridge serves an http.Handler to the Worker's JavaScript shim
// (functions/workers/shim/worker.mjs) from one Go instance that lives as
// long as the isolate: the shim starts the instance once and hands it every
// request; each request is served on its own goroutine, so requests that
// wait for their bodies interleave.
//
// The contract with the shim:
//
//   - At start-up Serve calls globalThis.__flakegateRegister(goSide), where
//     goSide.serve(request, source, respond) serves one request,
//     goSide.discardBytes and goSide.retireBytes are the Options and
//     goSide.failure (status, fields, body, as respond's) the answer for a
//     request the instance cannot answer, and goSide.render (with
//     Options.Pages) serves a request the shim made to render a page, as
//     serve does; and keeps what that call returns: the shim's side, with
//     retire() and stats().
//   - request is the JavaScript Request. It is read (method, url, headers)
//     during the serve call, which the shim makes in that request's own
//     context, so no request's I/O object is touched from another's.
//   - source is null when the request has no body, else an object whose
//     pull(deliver) reads the next chunk in the request's context and later
//     calls deliver with a Uint8Array, null at the end, or an error string.
//   - respond(status, header, body) is called once: header is the fields as
//     "name\nvalue\n…" and body a Uint8Array or null. respond() with no
//     arguments means the handler failed; the shim answers goSide.failure.
//
// The handler's answer is buffered, then handed over whole: the API's
// answers are bounded in size, and one copy beats a callback per chunk.
package bridge
