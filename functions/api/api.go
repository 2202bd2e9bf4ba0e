package api

import (
	"fmt"
	"log"
	"net/http"
	"runtime/debug"
	"sort"
	"strings"
)

// Prefix is the path every route lives under.
const Prefix = "/v1/"

// Body limits.
const (
	// DefaultMaxBodyBytes is the body limit of the local server and the
	// Worker: 32 MiB.
	DefaultMaxBodyBytes = 32 << 20
	// LambdaMaxBodyBytes is AWS Lambda's request payload limit, 6 MB. A
	// Function URL delivers binary and multipart bodies base64-encoded, which
	// leaves about 4.5 MB of raw data.
	LambdaMaxBodyBytes = 6_000_000
	// maxParamBodyBytes caps the JSON parameter objects of budget, decide,
	// size and freeze, which are a few hundred bytes when sane.
	maxParamBodyBytes = 1 << 20
)

// Options configure a Handler. The zero value is usable: it means the
// defaults below.
type Options struct {
	// MaxBodyBytes is the most a request body may hold, in bytes, > 0;
	// 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// LimitNote is appended to the detail of a 413, to say what the limit
	// means on this platform. May be empty.
	LimitNote string
	// Log receives one line per panic and per failed response write; nil
	// means the standard logger.
	Log *log.Logger
	// WorkSteps is the most steps one A/A check may take (see aa.Work),
	// > 0; 0 means DefaultWorkSteps.
	WorkSteps float64
	// Gzip compresses answers of 1 KiB or more for clients that accept
	// gzip. The Worker leaves it off: Cloudflare compresses at its edge.
	Gzip bool
	// Site is the calculator's address (a share.ParseSite address) that
	// results link to; "" means each request's own origin, where the
	// local server and the Worker serve the calculator beside the API.
	Site string
	// ForwardedProto takes a request's scheme from X-Forwarded-Proto: set
	// it only behind a proxy that sets that header itself (the Worker's
	// bridge does), never where a client's own header reaches the API.
	ForwardedProto bool
	// NoLinks leaves the link out of every result: for a deployment that
	// serves no calculator and knows of none.
	NoLinks bool
	// MaxRates is the most rates one budget request plans, > 0; 0 means
	// MaxRates.
	MaxRates int
	// MaxUnzippedBytes is the most a history request's zip archives may
	// unpack to, in bytes, > 0; 0 means MaxHistoryUnzippedBytes.
	MaxUnzippedBytes int64
	// Plan names the Cloudflare Workers plan the limits are sized for
	// (WorkerPlanOptions); /v1/health reports it. Empty elsewhere.
	Plan string
}

// LocalOptions are the options of the local server: the default limits,
// answers compressed.
func LocalOptions() Options { return Options{Gzip: true} }

// LambdaOptions are the options of the Lambda deployment: its 6 MB payload
// limit, explained in every 413, a work budget for its one core, answers
// compressed.
func LambdaOptions() Options {
	return Options{
		MaxBodyBytes: LambdaMaxBodyBytes,
		LimitNote:    "Lambda's payload limit; a Function URL base64-encodes uploads, which leaves about 4.5 MB of raw data",
		WorkSteps:    LambdaWorkSteps,
		Gzip:         true,
		NoLinks:      true, // a Function URL serves no calculator; the Lambda main links to FLAKEGATE_SITE
	}
}

// WorkerOptions are the options of the Cloudflare Worker on the Workers
// Paid plan (30 s of CPU time per request): a work budget for WebAssembly
// under a CPU-time limit. WorkerPlanOptions gives the Free plan's.
//
// Its bridge sets X-Forwarded-Proto from the request's URL, so result links
// carry the scheme the Worker was reached with.
func WorkerOptions() Options {
	return Options{WorkSteps: WorkerWorkSteps, ForwardedProto: true, Plan: WorkerPlanPaid}
}

func (o Options) workSteps() float64 {
	if o.WorkSteps > 0 {
		return o.WorkSteps
	}
	return DefaultWorkSteps
}

func (o Options) maxRates() int {
	if o.MaxRates > 0 {
		return o.MaxRates
	}
	return MaxRates
}

func (o Options) maxUnzipped() int64 {
	if o.MaxUnzippedBytes > 0 {
		return o.MaxUnzippedBytes
	}
	return MaxHistoryUnzippedBytes
}

// note is LimitNote as a refusal appends it: " (note)", or "".
func (o Options) note() string {
	if o.LimitNote == "" {
		return ""
	}
	return " (" + o.LimitNote + ")"
}

// workNote says what the A/A work budget is: the plan's limit, or a few
// seconds of one core.
func (o Options) workNote() string {
	if o.Plan != "" {
		return o.note()
	}
	return " (a few seconds of one core)"
}

func (o Options) maxBody() int64 {
	if o.MaxBodyBytes > 0 {
		return o.MaxBodyBytes
	}
	return DefaultMaxBodyBytes
}

func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log.Printf(format, args...)
		return
	}
	log.Printf(format, args...)
}

// route is one path and what each method does there.
type route struct {
	path    string // below Prefix, such as "budget"
	summary string
	get     handlerFunc
	post    handlerFunc
	params  []param // query parameters, and the JSON object of a params POST
	// format, on a route reading test reports or eval logs, is the doc of
	// its format parameter (formatParam), which routes puts first in params.
	format string
	// body describes what a POST reads; empty for the params routes.
	body    []bodyKind
	results string // name of the result schema in the OpenAPI document
}

// handlerFunc answers one request; a returned error becomes problem+json.
type handlerFunc func(h *handler, w http.ResponseWriter, r *http.Request) error

func (rt *route) methods() []string {
	var m []string
	if rt.get != nil {
		m = append(m, http.MethodGet, http.MethodHead)
	}
	if rt.post != nil {
		m = append(m, http.MethodPost)
	}
	return append(m, http.MethodOptions)
}

// handler is the API. It holds only its options and the route table, both
// fixed at construction.
type handler struct {
	opt    Options
	routes map[string]*route
}

// New returns the API handler. It expects the full request path, /v1/...;
// mount it at Prefix.
func New(opt Options) http.Handler {
	h := &handler{opt: opt, routes: map[string]*route{}}
	for _, rt := range routes() {
		h.routes[rt.path] = rt
	}
	return recoverer(opt, h)
}

// Routes lists the served paths, such as "/v1/budget", with their methods
// other than HEAD and OPTIONS (which every GET route, and every route,
// answers). The OpenAPI test holds the document to it.
func Routes() map[string][]string {
	out := map[string][]string{}
	for _, rt := range routes() {
		var m []string
		if rt.get != nil {
			m = append(m, http.MethodGet)
		}
		if rt.post != nil {
			m = append(m, http.MethodPost)
		}
		out[Prefix+rt.path] = m
	}
	return out
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodHead {
		w = headWriter{w} // also for a 404 or 405: Lambda sends what is written
	}
	hdr := w.Header()
	hdr.Set("Access-Control-Allow-Origin", "*")
	hdr.Set("X-Content-Type-Options", "nosniff")
	name, ok := strings.CutPrefix(r.URL.Path, Prefix)
	rt := h.routes[name]
	if !ok || rt == nil {
		h.problem(w, r, &httpError{status: http.StatusNotFound,
			detail: fmt.Sprintf("no route %s; the routes are listed at %sopenapi.json", r.URL.Path, Prefix)})
		return
	}
	allow := strings.Join(rt.methods(), ", ")
	var fn handlerFunc
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		fn = rt.get
	case http.MethodPost:
		fn = rt.post
	case http.MethodOptions:
		hdr.Set("Allow", allow)
		if r.Header.Get("Access-Control-Request-Method") != "" {
			hdr.Set("Access-Control-Allow-Methods", allow)
			if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
				hdr.Set("Access-Control-Allow-Headers", req)
				hdr.Add("Vary", "Access-Control-Request-Headers")
			}
			hdr.Set("Access-Control-Max-Age", "86400")
		}
		hdr.Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if fn == nil {
		hdr.Set("Allow", allow)
		h.problem(w, r, &httpError{status: http.StatusMethodNotAllowed,
			detail: fmt.Sprintf("%s does not answer %s; it answers %s", r.URL.Path, r.Method, allow)})
		return
	}
	if err := decodeBody(r, h.opt.maxBody()); err != nil {
		h.problem(w, r, err)
		return
	}
	if err := fn(h, w, r); err != nil {
		h.problem(w, r, err)
	}
}

// headWriter answers HEAD with GET's status and headers and no body. It
// drops Content-Length: Workers turns a declared length into a stream that
// must see that many bytes, and a HEAD answer has none.
type headWriter struct{ http.ResponseWriter }

func (headWriter) Write(p []byte) (int, error) { return len(p), nil }

func (w headWriter) WriteHeader(code int) {
	w.Header().Del("Content-Length")
	w.ResponseWriter.WriteHeader(code)
}

// recoverer turns a panic below it into a 500 problem+json and one log line.
// lambdaurl does not recover a panic, and on Workers the log line is what
// tells the shim to replace the instance (functions/workers).
func recoverer(opt Options, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			stack := strings.ReplaceAll(strings.TrimSpace(string(debug.Stack())), "\n", " | ")
			opt.logf("flakegate api: panic serving %s %s: %v; stack: %s", r.Method, r.URL.Path, v, stack)
			if tw.wrote {
				return // the status is gone; the client sees a truncated body
			}
			writeFailure(opt, w)
		}()
		next.ServeHTTP(tw, r)
	})
}

// WriteFailure writes the answer to a request the server failed on: the
// 500 problem+json a panic gets. The Worker's shim keeps a copy, for the
// requests a Go instance that died cannot answer.
func WriteFailure(w http.ResponseWriter) { writeFailure(Options{}, w) }

func writeFailure(opt Options, w http.ResponseWriter) {
	hdr := w.Header()
	for k := range hdr {
		delete(hdr, k)
	}
	hdr.Set("Access-Control-Allow-Origin", "*")
	hdr.Set("X-Content-Type-Options", "nosniff")
	writeProblem(opt, w, problem{Type: "about:blank", Title: http.StatusText(http.StatusInternalServerError),
		Status: http.StatusInternalServerError,
		Detail: "the server failed while answering this request; the failure is logged"})
}

// trackingWriter remembers whether the status line has been sent.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (t *trackingWriter) WriteHeader(code int) {
	t.wrote = true
	t.ResponseWriter.WriteHeader(code)
}

func (t *trackingWriter) Write(p []byte) (int, error) {
	t.wrote = true
	return t.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the platform's writer.
func (t *trackingWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
