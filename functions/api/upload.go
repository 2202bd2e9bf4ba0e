package api

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"strings"

	"github.com/flakegate/flakegate/core"
	"github.com/flakegate/flakegate/core/ledger"
	"github.com/flakegate/flakegate/core/report"
)

// An upload says what the POST body of /v1/aa, /v1/ledger or /v1/flakes may
// hold: one file sent as the body, or a multipart/form-data body of named
// parts, each one file. Every such route reads its body the same way, in
// readUpload: media type → body limit → the body or each part in order →
// the route's reader (a test-report reader or the A/A CSV reader) → its
// ledger or side.
type upload struct {
	// media says what the route reads, for a 415: "send ...".
	media string
	// body reports whether a single-file body may have media type mt.
	body func(mt string) bool
	// bodyAs is the part a single-file body stands for, and its name in
	// errors: "baseline", "ledger", "report".
	bodyAs string
	// parts are the part names a multipart body may hold, each mapped to
	// whether it may repeat; hint says so in words for an unknown part
	// ("send parts baseline and optional candidate").
	parts map[string]bool
	// anyParts accepts parts of any name, each of which may repeat (the
	// name is the model's: /v1/compare/board).
	anyParts bool
	hint     string
	// need is the part a multipart body must hold, "" for any one part;
	// missing is the error when it does not.
	need    string
	missing *core.Error
}

// readFile reads one uploaded file: the body (as upload.bodyAs) or a part
// named part.
type readFile func(part string, r io.Reader) error

// readUpload reads the request body as up says, handing each file to read.
// Reader errors are named after the file: the part's filename when it has
// one, else the part's name. refuseMultipart, when not nil, is the answer
// to a multipart body (a setting that only a single-file body can use).
func (h *handler) readUpload(w http.ResponseWriter, r *http.Request, up *upload, refuseMultipart error, read readFile) error {
	mt, _, err := mediaType(r, up.media)
	if err != nil {
		return err
	}
	multi := mt == "multipart/form-data"
	if !multi && !up.body(mt) {
		return unsupported(mt, up.media)
	}
	if multi && refuseMultipart != nil {
		return refuseMultipart
	}
	lb, err := h.limit(w, r, h.opt.maxBody())
	if err != nil {
		return err
	}
	if !multi {
		return lb.check(read(up.bodyAs, lb), up.bodyAs)
	}
	seen := map[string]int{}
	err = eachPart(r, lb, func(name string, p *multipart.Part) error {
		repeat, ok := up.parts[name]
		repeat, ok = repeat || up.anyParts, ok || up.anyParts
		switch {
		case !ok:
			return invalid(name, "unknown part %q; %s (options go in the query)", name, up.hint)
		case seen[name] > 0 && !repeat:
			return invalid(name, "part %q given twice", name)
		}
		seen[name]++
		return lb.check(read(name, p), partFile(name, p))
	})
	if err != nil {
		return err
	}
	if (up.need == "" && len(seen) == 0) || (up.need != "" && seen[up.need] == 0) {
		return up.missing
	}
	return nil
}

// reportMedia are the media types a single report may be sent as. What the
// report is, and so which reader reads it, comes from the format parameter
// or from its content, never from the media type.
var reportMedia = map[string]bool{
	"application/x-ndjson":    true,
	"application/jsonl":       true,
	"application/x-jsonl":     true,
	"application/jsonlines":   true,
	"application/x-jsonlines": true,
	"application/json-lines":  true,
	"application/json":        true,
	"text/plain":              true,
	"application/xml":         true,
	"text/xml":                true,
	"application/junit+xml":   true,
}

// isReportMedia accepts the media types of reportMedia, and any other
// +json or +xml type.
func isReportMedia(mt string) bool {
	return reportMedia[mt] || strings.HasSuffix(mt, "+json") || strings.HasSuffix(mt, "+xml")
}

// Upload formats. csv is the A/A scenario,run,passed CSV; the others are
// the test reports report.Read reads: auto (detect from the content) and
// every name in report.Formats.
const (
	formatCSV  = "csv"
	formatAuto = "auto"
)

func reportFormats() []string { return append([]string{formatAuto}, report.Formats...) }

func aaFormats() []string { return append([]string{formatCSV}, reportFormats()...) }

// formatParam is the format parameter of a route that reads test reports
// or eval logs, doc saying of what.
func formatParam(doc string) param {
	return param{name: "format", kind: kString, def: formatAuto, enum: reportFormats(), doc: doc}
}

// reportFormat is format checked against reportFormats, in the report
// package's name (auto is report.FormatAuto).
func reportFormat(format string) (string, error) {
	if err := checkFormat(format, reportFormats()); err != nil {
		return "", err
	}
	if format == formatAuto {
		return report.FormatAuto, nil
	}
	return format, nil
}

func checkFormat(format string, allowed []string) error {
	for _, f := range allowed {
		if format == f {
			return nil
		}
	}
	return invalid("format", "unknown format %q; this route reads %s", format, strings.Join(allowed, ", "))
}

// reportReader reads every file into l in format (a name of reportFormats),
// as runs of the arm that armOf names for the part (or the body), run the
// name of a single-file body's run ("" to number it).
func reportReader(l *ledger.Ledger, format, run string, armOf func(part string) string) readFile {
	if format == formatAuto {
		format = report.FormatAuto
	}
	return func(part string, r io.Reader) error {
		return report.Read(r, report.Options{Format: format, Arm: armOf(part), Run: run}, l)
	}
}

// limitedBody streams a request body and refuses to go past the limit. It
// remembers hitting it, or a body arriving too slowly for the server's read
// deadline, so that whatever a parser makes of the read error, the answer
// is the 413 or the 408.
type limitedBody struct {
	r    io.Reader
	err  *core.Error // the 413: Kind core.TooLarge
	fail error       // the 413 or the 408, once the body failed so
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.fail != nil {
		return 0, l.fail
	}
	n, err := l.r.Read(p)
	if err != nil && err != io.EOF {
		var mbe *http.MaxBytesError
		switch {
		case errors.As(err, &mbe):
			l.fail = l.err
		case errors.Is(err, os.ErrDeadlineExceeded):
			l.fail = errTooSlow
		}
		if l.fail != nil {
			return n, l.fail
		}
	}
	return n, err
}

// errTooSlow answers a body that fell behind the server's read deadline
// (the local server's: see cmd/flakegate-serve).
var errTooSlow = &httpError{status: http.StatusRequestTimeout,
	detail: "the request body arrived too slowly for this server; send it at a steady pace, or run the CLI on the file"}

// check returns the 413 or 408 when the body failed so, and nil for nil.
// Otherwise a reader's *core.Error is named after file, and any other error
// is a body that broke off or was not what it claimed: the client's fault,
// a 400.
func (l *limitedBody) check(err error, file string) error {
	var ce *core.Error
	switch {
	case l.fail != nil:
		return l.fail
	case err == nil:
		return nil
	case errors.As(err, &ce):
		return core.WithFile(err, file)
	}
	return &core.Error{Kind: core.Invalid, File: file, Msg: "reading the upload: " + err.Error()}
}

// tooLarge is the one 413 of the API: what was over which limit, what the
// limit means on this platform, and what to do instead.
func (h *handler) tooLarge(what string, limit int64) *core.Error {
	s := fmt.Sprintf("the %s is over this server's limit of %s", what, byteSize(limit))
	if h.opt.LimitNote != "" {
		s += " (" + h.opt.LimitNote + ")"
	}
	return &core.Error{Kind: core.TooLarge, Msg: s + "; send less, or run the CLI on the file"}
}

// limit wraps r.Body in the byte limit and refuses a declared length over it
// before reading anything.
func (h *handler) limit(w http.ResponseWriter, r *http.Request, limit int64) (*limitedBody, error) {
	tl := h.tooLarge("request body", limit)
	if r.ContentLength > limit {
		return nil, tl
	}
	lb := &limitedBody{r: http.MaxBytesReader(w, r.Body, limit), err: tl}
	r.Body = io.NopCloser(lb)
	return lb, nil
}

// mediaType returns the request's media type in lower case, and its
// parameters. A missing or malformed Content-Type is a 415.
func mediaType(r *http.Request, want string) (string, map[string]string, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return "", nil, &httpError{status: http.StatusUnsupportedMediaType,
			detail: "the request has no Content-Type; send " + want}
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", nil, &httpError{status: http.StatusUnsupportedMediaType,
			detail: fmt.Sprintf("malformed Content-Type %q: %v; send %s", clip([]byte(ct)), err, want)}
	}
	return mt, params, nil
}

func unsupported(mt, want string) error {
	return &httpError{status: http.StatusUnsupportedMediaType,
		detail: fmt.Sprintf("this route does not read %s; send %s", mt, want)}
}

// partFile names a part in errors: its filename when it has one.
func partFile(name string, p *multipart.Part) string {
	if fn := p.FileName(); fn != "" {
		return fn
	}
	return name
}

// eachPart streams the parts of a multipart body in order, with no
// temporary files (Workers has none), and hands each named part to fn.
func eachPart(r *http.Request, lb *limitedBody, fn func(name string, p *multipart.Part) error) error {
	mr, err := r.MultipartReader()
	if err != nil {
		return invalid("", "malformed multipart body: %v", err)
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return lb.check(invalid("", "malformed multipart body: %v", err), "")
		}
		name := p.FormName()
		if name == "" {
			p.Close()
			return invalid("", "a multipart part has no form name; name the parts as the route says")
		}
		err = fn(name, p)
		p.Close()
		if err != nil {
			return err
		}
	}
}
