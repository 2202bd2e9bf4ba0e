package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// bodyKind is one way a POST may send its upload; the OpenAPI document
// lists them.
type bodyKind int

const (
	bodyCSV bodyKind = iota
	bodyMultipartAA
	bodyJSONL
	bodyMultipartLedger
)

// limitedBody streams a request body and refuses to go past the limit. It
// remembers hitting it, so that whatever a parser makes of the read error,
// the answer is a 413.
type limitedBody struct {
	r   io.Reader
	err *tooLarge
	hit bool
}

func (l *limitedBody) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		l.hit = true
		return n, l.err
	}
	return n, err
}

// check returns the 413 when the limit was hit. Otherwise a reader's
// *core.Error is named after file, and any other error is a body that broke
// off or was not what it claimed: the client's fault, a 400.
func (l *limitedBody) check(err error, file string) error {
	var ce *core.Error
	switch {
	case l.hit:
		return l.err
	case errors.As(err, &ce):
		return core.WithFile(err, file)
	}
	return &core.Error{Kind: core.Invalid, File: file, Msg: "reading the upload: " + err.Error()}
}

// limit wraps r.Body in the byte limit and refuses a declared length over it
// before reading anything.
func (h *handler) limit(w http.ResponseWriter, r *http.Request, limit int64) (*limitedBody, error) {
	tl := &tooLarge{limit: limit, what: "request body", note: h.opt.LimitNote}
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

const paramsMedia = "application/json (a JSON object of the parameters) or application/x-www-form-urlencoded"

// postArgs reads the parameters of a POST to budget, decide, size or
// freeze: a JSON object, or a urlencoded form.
func (h *handler) postArgs(rt *route, r *http.Request) (*args, error) {
	if r.URL.RawQuery != "" {
		return nil, invalid("", "a POST sends its parameters in the body, not the query string")
	}
	mt, _, err := mediaType(r, paramsMedia)
	if err != nil {
		return nil, err
	}
	isJSON := mt == "application/json" || strings.HasSuffix(mt, "+json")
	if !isJSON && mt != "application/x-www-form-urlencoded" {
		return nil, unsupported(mt, paramsMedia)
	}
	limit := min(h.opt.maxBody(), maxParamBodyBytes)
	lb, err := h.limit(nil, r, limit)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(lb)
	if err != nil {
		return nil, lb.check(err, "")
	}
	if isJSON {
		return jsonArgs(rt.params, body), nil
	}
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '{' {
		return nil, &httpError{status: http.StatusUnsupportedMediaType,
			detail: "the body looks like JSON but is sent as a form; set Content-Type: application/json"}
	}
	return queryArgs(rt.params, string(body)), nil
}

const aaMedia = "text/csv (the baseline's scenario,run,passed rows) or multipart/form-data with parts baseline and optional candidate"

func aa(h *handler, w http.ResponseWriter, r *http.Request) error {
	rt := h.routes["aa"]
	a := queryArgs(rt.params, r.URL.RawQuery)
	opt := core.DefaultAAOptions
	a.integers("k", &opt.Ks)
	a.numbers("drops", &opt.Drops)
	if a.err != nil {
		return a.err
	}
	mt, _, err := mediaType(r, aaMedia)
	if err != nil {
		return err
	}
	lb, err := h.limit(w, r, h.opt.maxBody())
	if err != nil {
		return err
	}
	var base, cand *core.AASide
	switch mt {
	case "text/csv", "application/csv":
		if base, err = core.ReadAA(lb); err != nil {
			return lb.check(err, "baseline")
		}
	case "multipart/form-data":
		err = eachPart(r, lb, func(name string, p *multipart.Part) error {
			var dst **core.AASide
			switch name {
			case "baseline":
				dst = &base
			case "candidate":
				dst = &cand
			default:
				return invalid(name, "unknown part %q; send parts baseline and optional candidate (options go in the query)", name)
			}
			if *dst != nil {
				return invalid(name, "part %q given twice", name)
			}
			side, err := core.ReadAA(p)
			if err != nil {
				return lb.check(err, name)
			}
			*dst = side
			return nil
		})
		if err != nil {
			return err
		}
		if base == nil {
			return invalid("baseline", "the multipart body has no baseline part")
		}
	default:
		return unsupported(mt, aaMedia)
	}
	res, err := core.AA(base, cand, opt)
	if err != nil {
		return err // core.AA names the side at fault
	}
	return h.writeResult(w, res, cacheNone)
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

// Ledger formats. The seed's per-trial JSONL is read by core.ReadLedger.
const formatJSONL = "jsonl"

func ledgerFormats() []string { return []string{formatJSONL} }

const ledgerMedia = "application/x-ndjson (the JSONL ledger) or multipart/form-data with one or more parts named ledger"

// jsonlMedia are the names people give JSON Lines.
var jsonlMedia = map[string]bool{
	"application/x-ndjson":      true,
	"application/jsonl":         true,
	"application/x-jsonl":       true,
	"application/jsonlines":     true,
	"application/x-jsonlines":   true,
	"application/json-lines":    true,
	"application/json":          true,
	"text/plain":                true,
	"application/jsonl+json":    true,
	"application/x-ndjson+json": true,
}

func ledger(h *handler, w http.ResponseWriter, r *http.Request) error {
	rt := h.routes["ledger"]
	a := queryArgs(rt.params, r.URL.RawQuery)
	opt := core.DefaultLedgerOptions
	format := formatJSONL
	a.str("format", &format)
	a.integer("min_trials", &opt.MinTrials)
	a.number("confidence", &opt.Confidence)
	a.str("property", &opt.Property)
	if a.err != nil {
		return a.err
	}
	if format != formatJSONL {
		return invalid("format", "unknown format %q; this server reads %s", format, strings.Join(ledgerFormats(), ", "))
	}
	mt, _, err := mediaType(r, ledgerMedia)
	if err != nil {
		return err
	}
	lb, err := h.limit(w, r, h.opt.maxBody())
	if err != nil {
		return err
	}
	l := core.NewLedger()
	switch {
	case jsonlMedia[mt]:
		if err := core.ReadLedger(lb, l); err != nil {
			return lb.check(err, "ledger")
		}
	case mt == "multipart/form-data":
		parts := 0
		err := eachPart(r, lb, func(name string, p *multipart.Part) error {
			if name != "ledger" {
				return invalid(name, "unknown part %q; send one or more parts named ledger (options go in the query)", name)
			}
			parts++
			file := "ledger"
			if fn := p.FileName(); fn != "" {
				file = fn
			}
			if err := core.ReadLedger(p, l); err != nil {
				return lb.check(err, file)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if parts == 0 {
			return invalid("ledger", "the multipart body has no ledger part")
		}
	default:
		return unsupported(mt, ledgerMedia)
	}
	res, err := l.Result(opt)
	if err != nil {
		return err
	}
	return h.writeResult(w, res, cacheNone)
}
