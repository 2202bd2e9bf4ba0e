// The Worker's entry point: one Go instance (app.wasm) per isolate, started
// by the first request and handed every request after it, until it fails.
//
// `make worker` copies this file, Go's own wasm_exec.js (from the toolchain
// that builds app.wasm, so the two always match) and app.wasm into
// dist/worker/. The Go side is functions/workers/bridge; its package comment
// states the contract between the two.
//
// Why not start an instance per request: the Go runtime's start-up was most
// of every request's time and CPU. Why a request may share the instance with
// others: each runs on its own goroutine, and the Go scheduler switches
// between them whenever one waits for its body. Two rules keep requests
// apart, as workerd wants: every read of a request's body starts in that
// request's own context (the Go side only asks; the read begins in the
// reaction to the request's previous read, or in its own serve call), and
// the Response is built in the request's own fetch call, from plain data.

import "./wasm_exec.js";
import mod from "./app.wasm";

const REGISTER = "__flakegateRegister";

// failure is the answer when the Go side cannot give one (a panic escaped
// its recovery, or its runtime died): the API's own 500 problem, which each
// instance hands over as it registers (bridge.Options.Failure).
let failure = null;

function failed() {
  if (failure === null) {
    // No instance ever started: there is nothing better to say.
    return new Response("the server failed to start; the failure is logged\n", { status: 500 });
  }
  return toResponse({ ...failure, body: failure.body === null ? null : failure.body.slice() });
}

// instance is the live Go instance, null before the first request and after
// the live one was retired or died.
let instance = null;
// started counts the instances this isolate has started.
let started = 0;

// goEnv is the Go program's environment: the Worker's variables
// (wrangler.toml's [vars]) whose names begin FLAKEGATE_, such as
// FLAKEGATE_PLAN; bindings and other variables stay out of it.
function goEnv(env) {
  const out = {};
  for (const [name, value] of Object.entries(env || {})) {
    if (name.startsWith("FLAKEGATE_") && typeof value === "string") out[name] = value;
  }
  return out;
}

// Instance is one running app.wasm and the requests it is answering.
class Instance {
  constructor(env) {
    this.id = ++started;
    this.go = new Go();
    this.go.env = goEnv(env);
    this.goSide = null; // serve(request, source, respond), from registration
    this.pending = new Set(); // the settle functions of unanswered requests
    this.retired = false; // no new requests: a fresh instance takes them
    this.dead = false; // the Go program exited or trapped
    this.served = 0; // requests answered
    this.busyMs = 0; // time spent inside Go, as performance.now() tells it
    this.chunks = 0; // body chunks handed to Go
    this.startMs = 0; // of busyMs, the Go program's start-up
    this.go.exit = (code) => this.die(`the Go program exited with status ${code}`);
    globalThis[REGISTER] = (goSide) => {
      this.goSide = goSide;
      if (goSide.failure !== undefined) failure = goSide.failure;
      return {
        retire: (reason) => this.retire(reason),
        stats: () => JSON.stringify(this.stats()),
      };
    };
    try {
      const wasm = new WebAssembly.Instance(mod, this.go.importObject);
      this.memory = wasm.exports.mem;
      // run() is async, but everything up to the Go program's first wait,
      // registration included, happens before it returns; a trap in that
      // part rejects its promise.
      this.enter(() => {
        this.go.run(wasm).catch((err) => this.die(`the Go program failed: ${err && err.stack ? err.stack : err}`));
      });
      this.startMs = this.busyMs;
    } catch (err) {
      this.die(`app.wasm did not start: ${err && err.stack ? err.stack : err}`);
    } finally {
      delete globalThis[REGISTER];
    }
    if (!this.dead && this.goSide === null) {
      this.die("app.wasm did not register with the shim");
    }
  }

  // enter runs fn, a call into Go, and keeps the time it took. An exception
  // out of Go is a trap: the instance cannot be trusted with anything more.
  enter(fn) {
    const t0 = performance.now();
    try {
      fn();
    } catch (err) {
      this.die(`the Go program failed: ${err && err.stack ? err.stack : err}`);
    } finally {
      this.busyMs += performance.now() - t0;
    }
  }

  retire(reason) {
    if (!this.retired) {
      console.error(`flakegate worker: retiring Go instance ${this.id}: ${reason}`);
    }
    this.retired = true;
    if (instance === this) instance = null;
  }

  die(reason) {
    if (this.dead) return;
    this.retire(reason);
    this.dead = true;
    for (const settle of this.pending) settle(null);
    this.pending.clear();
  }

  // serve hands request to Go and waits for its answer, then discards what
  // the handler left of a body it began to read.
  async serve(request) {
    const got = await this.call("serve", request);
    return got === null ? failed() : toResponse(got);
  }

  // call hands request to Go's entry (goSide.serve, or goSide.render for a
  // request the shim made) and waits for the answer: { status, fields,
  // body }, or null when Go could not give one.
  async call(entry, request) {
    if (this.dead) return null;
    const source = request.body === null ? null : new Source(this, request.body, this.goSide.discardBytes);
    let settle;
    const answer = new Promise((resolve) => (settle = resolve));
    this.pending.add(settle);
    const respond = (status, fields, body) => {
      if (source !== null) source.handedOver = true;
      this.pending.delete(settle);
      this.served++;
      settle(status === undefined ? null : { status, fields, body });
      const bytes = this.memory.buffer.byteLength;
      if (this.goSide.retireBytes > 0 && bytes > this.goSide.retireBytes) {
        this.retire(`its memory grew to ${(bytes / 2 ** 20).toFixed(1)} MiB, and a wasm memory never shrinks`);
      }
    };
    this.enter(() => this.goSide[entry](request, source, respond));
    const got = await answer;
    if (source !== null) await source.discard();
    return got;
  }

  stats() {
    return {
      instance: this.id,
      started,
      served: this.served,
      pending: this.pending.size,
      busy_ms: this.busyMs,
      start_ms: this.startMs,
      chunks: this.chunks,
      wasm_memory_bytes: this.memory ? this.memory.buffer.byteLength : 0,
      // JavaScript values the Go side holds references to: a leak shows here.
      js_refs: this.go._values ? this.go._values.length - this.go._idPool.length : 0,
    };
  }
}

// Source is a request body as the Go side reads it: pull(deliver) starts the
// next read, and its reaction, which runs in the request's own context,
// hands the chunk to Go.
class Source {
  constructor(inst, stream, limit) {
    this.inst = inst;
    this.stream = stream;
    this.limit = limit; // bytes read in all before discard gives up
    this.reader = null; // taken at the first pull: an untouched body is the runtime's to drop
    this.reading = null; // the read in flight
    this.bytes = 0;
    this.done = false;
    this.handedOver = false; // Go has answered: no more deliveries
  }

  pull(deliver) {
    if (this.reader === null) this.reader = this.stream.getReader();
    this.reading = this.reader.read().then(
      ({ done, value }) => {
        this.reading = null;
        if (done) this.done = true;
        else this.bytes += value.byteLength;
        this.inst.chunks++;
        if (!this.handedOver) this.inst.enter(() => deliver(done ? null : value));
      },
      (err) => {
        this.reading = null;
        this.done = true;
        if (!this.handedOver) this.inst.enter(() => deliver(String(err)));
      },
    );
  }

  async discard() {
    if (this.reader === null || this.done) return;
    try {
      if (this.reading !== null) await this.reading;
      while (!this.done && this.bytes <= this.limit) {
        const { done, value } = await this.reader.read();
        if (done) this.done = true;
        else this.bytes += value.byteLength;
      }
      if (!this.done) await this.reader.cancel();
    } catch {
      // The client went away: there is nobody left to answer.
    }
  }
}

function toResponse({ status, fields, body }) {
  const headers = new Headers();
  const f = fields.split("\n");
  for (let i = 0; i + 1 < f.length; i += 2) {
    // The runtime sets Content-Length from the body.
    if (f[i].toLowerCase() !== "content-length") headers.append(f[i], f[i + 1]);
  }
  const nobody = status === 204 || status === 304 || (status >= 100 && status < 200);
  return new Response(nobody ? null : body, { status, headers });
}

// live is the live instance, started with the Worker's variables env if
// there is none; null when it could not start.
function live(env) {
  let inst = instance;
  if (inst === null) {
    inst = new Instance(env);
    if (inst.dead) return null;
    instance = inst;
  }
  return inst;
}

// PAGES are the calculator's pages (wrangler.toml's run_worker_first names
// them too): with a query, their URL is a link, rendered by Go.
const PAGES = new Set(["/", "/decide", "/aa", "/quarantine", "/compare", "/history"]);

// MAX_QUERY is render.MaxQuery: a longer query is not rendered. Cloudflare
// refuses URLs over 16 KB itself (its documented limit, "URL size").
const MAX_QUERY = 9216;

// page answers a request outside /v1/. A calculator page whose URL holds a
// query (a link) is fetched as pre-rendered from the assets and handed to
// Go with the request, which renders the link into it; the answer keeps
// the asset's headers (the site's _headers: CSP and the rest), and takes
// Go's Content-Type and ETag. Anything else, or a link Go does not render
// (it answers 204), is the asset itself.
async function page(request, env) {
  const url = new URL(request.url);
  const get = request.method === "GET" || request.method === "HEAD";
  if (!PAGES.has(url.pathname) || url.search.length <= 1 || url.search.length - 1 > MAX_QUERY || !get) {
    return env.ASSETS.fetch(request);
  }
  const asset = await env.ASSETS.fetch(new Request(new URL(url.pathname, url), { headers: { "accept-encoding": "identity" } }));
  if (asset.status !== 200) return asset;
  const html = new Uint8Array(await asset.arrayBuffer());
  const headers = new Headers(asset.headers);
  for (const name of ["content-length", "content-encoding", "etag"]) headers.delete(name);
  const inst = live(env);
  const got = inst === null ? null : await inst.call("render", new Request(request.url, { method: "POST", headers: request.headers, body: html }));
  if (got === null || got.status === 204) {
    return new Response(request.method === "HEAD" ? null : html, { status: 200, headers });
  }
  const answer = toResponse(got);
  for (const [name, value] of answer.headers) headers.set(name, value);
  return new Response(request.method === "HEAD" || got.status === 304 ? null : answer.body, { status: got.status, headers });
}

async function fetch(request, env) {
  if (env && env.ASSETS && !new URL(request.url).pathname.startsWith("/v1/")) return page(request, env);
  const inst = live(env);
  return inst === null ? failed() : inst.serve(request);
}

export default { fetch };
