package api

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/flakegate/flakegate/core"
)

// decodeBody undoes a request's Content-Encoding. gzip is decoded as the
// body is read, so the body limit applies to the decoded bytes (a small
// gzip body cannot expand past it), and limit to the encoded ones;
// identity is the body itself; any other encoding is a 415.
func decodeBody(r *http.Request, limit int64) error {
	enc := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding")))
	switch enc {
	case "", "identity":
		return nil
	case "gzip", "x-gzip":
		r.Body = &gzipBody{src: http.MaxBytesReader(nil, r.Body, limit)}
		r.Header.Del("Content-Encoding")
		return nil
	}
	return &httpError{status: http.StatusUnsupportedMediaType,
		detail: "this server reads bodies sent plain or with Content-Encoding: gzip, not " + clipEchoes(`"`+enc+`"`)}
}

// gzipBody decodes a gzip request body on the first read. Its errors are
// the client's: a 400 that says the encoding is broken, never the
// decoder's own text.
type gzipBody struct {
	src io.ReadCloser
	zr  *gzip.Reader
	err error
}

func (g *gzipBody) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	if g.zr == nil {
		zr, err := gzip.NewReader(bufio.NewReader(g.src))
		if err != nil {
			g.err = g.fail(err)
			return 0, g.err
		}
		zr.Multistream(false)
		g.zr = zr
	}
	n, err := g.zr.Read(p)
	if err != nil && err != io.EOF {
		g.err = g.fail(err)
		return n, g.err
	}
	return n, err
}

func (g *gzipBody) fail(err error) error {
	var re *flate.ReadError
	if errors.As(err, &re) {
		err = re.Err // the body's own read error
	}
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) || errors.Is(err, os.ErrDeadlineExceeded) {
		return err // the encoded body is over the limit, or too slow: a 413 or 408
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return &core.Error{Kind: core.Invalid, Msg: "the gzip-encoded body ends early"}
	}
	return &core.Error{Kind: core.Invalid, Msg: "the body is sent with Content-Encoding: gzip but is not valid gzip"}
}

func (g *gzipBody) Close() error { return g.src.Close() }

// compressedFrom is the smallest answer worth compressing, in bytes: below
// it the gzip header and a round of compression cost more than they save.
const compressedFrom = 1 << 10

// acceptsGzip reads Accept-Encoding: gzip (or x-gzip) with a quality above
// 0, or, when neither is listed, * with a quality above 0. A listed gzip
// decides over * (RFC 9110, section 12.5.3: * matches only the codings not
// listed), so "*, gzip;q=0" refuses gzip.
func acceptsGzip(values []string) bool {
	named, star := 0, 0 // 0 not listed, 1 refused, 2 accepted
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(item, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name != "gzip" && name != "x-gzip" && name != "*" {
				continue
			}
			verdict := 2
			q := strings.ReplaceAll(strings.ToLower(params), " ", "")
			if strings.HasPrefix(q, "q=0") && strings.Trim(strings.TrimPrefix(q, "q=0"), ".0") == "" {
				verdict = 1 // q=0, q=0.0, q=0.000: not acceptable
			}
			if name == "*" {
				star = max(star, verdict)
			} else {
				named = max(named, verdict)
			}
		}
	}
	if named != 0 {
		return named == 2
	}
	return star == 2
}

// GzipBytes compresses b at the default level, with no name and no time in
// the header: the same b gives the same bytes (and ETag).
func GzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
