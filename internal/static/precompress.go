package static

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// AssetsIgnoreFile names the file that keeps files out of a Workers
// upload; AssetsIgnore is what the generator writes in it: the compressed
// copies stay home, because Cloudflare compresses assets itself (see
// docs/WEB.md, "Compressed assets") and would serve a copy only as
// a file of its own, at its own path.
const (
	AssetsIgnoreFile = ".assetsignore"
	AssetsIgnore     = "*.br\n*.gz\n"
)

// compressible are the extensions of the files Precompress compresses:
// text and WebAssembly. Images in PNG and fonts in WOFF2 are compressed
// already.
var compressible = map[string]bool{
	".css": true, ".csv": true, ".html": true, ".js": true, ".json": true, ".map": true,
	".md": true, ".mjs": true, ".svg": true, ".txt": true, ".wasm": true,
	".webmanifest": true, ".xml": true,
}

// Compressible reports whether Precompress writes copies of a file of this
// name.
func Compressible(name string) bool { return compressible[strings.ToLower(path.Ext(name))] }

// Compression levels of the copies: the smallest each format makes, since a
// site is compressed once and downloaded many times. Brotli's window is
// the smallest power of two that holds the file, at most 2^24 bytes (the
// largest the format allows without the large-window extension browsers
// lack, so a 7 MB app.wasm is one window); a larger window would not
// shrink the file and only costs the encoder memory and time.
const (
	BrotliQuality   = 11
	MaxBrotliWindow = 24
	GzipLevel       = gzip.BestCompression
)

// brotliWindow is the base-2 logarithm of the window for n bytes: 10 to
// MaxBrotliWindow (a window of 2^w holds 2^w−16 bytes).
func brotliWindow(n int) int {
	w := 10
	for w < MaxBrotliWindow && (1<<w)-16 < n {
		w++
	}
	return w
}

// Compress returns data in the coding e (one of Encodings) at the levels
// above. The same bytes give the same output on every machine and run: no
// timestamps or names go into the gzip header, and both encoders are
// deterministic.
func Compress(e Encoding, data []byte) ([]byte, error) {
	var b bytes.Buffer
	switch e.Name {
	case "br":
		w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: BrotliQuality, LGWin: brotliWindow(len(data))})
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
	case "gzip":
		w, err := gzip.NewWriterLevel(&b, GzipLevel)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(data); err != nil {
			return nil, err
		}
		if err := w.Close(); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("compress: unknown coding %q", e.Name)
	}
	return b.Bytes(), nil
}

// Precompress writes, beside every Compressible file under dir, a copy in
// each of Encodings ("app.js.br", "app.js.gz"), when the copy is smaller
// than the file; copies already there are removed first, so none outlives
// its file. It returns the copies written, as slash-separated paths under
// dir, sorted.
func Precompress(dir string) ([]string, error) { return PrecompressReusing(dir, "") }

// PrecompressReusing is Precompress with the copies of an earlier build
// at prev reused: a file whose bytes equal prev's file of the same path
// gets prev's copy, which decodes to it, instead of being compressed
// again (brotli at q11 is half a minute of app.wasm). A copy in prev for
// a file that changed, or that does not decode to prev's file, is never
// used. prev "" compresses every file.
func PrecompressReusing(dir, prev string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if _, _, ok := encodingOf(rel); ok {
			return os.Remove(p)
		}
		if Compressible(rel) {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("precompress: %w", err)
	}
	// One job per file and coding, the largest files first, on as many
	// goroutines as Go runs at once: brotli at q11 takes half a minute
	// for a 9 MB app.wasm, so the other files are done meanwhile. The
	// copies do not depend on the order they are written in.
	type job struct {
		rel  string
		data []byte
		e    Encoding
	}
	var jobs []job
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, fmt.Errorf("precompress: %w", err)
		}
		for _, e := range Encodings {
			jobs = append(jobs, job{rel, data, e})
		}
	}
	sort.SliceStable(jobs, func(i, j int) bool { return len(jobs[i].data) > len(jobs[j].data) })
	var (
		mu      sync.Mutex
		next    int
		written []string
		failed  error
	)
	work := func() {
		for {
			mu.Lock()
			if next == len(jobs) || failed != nil {
				mu.Unlock()
				return
			}
			j := jobs[next]
			next++
			mu.Unlock()
			c, err := reused(prev, j.rel, j.e, j.data)
			if c == nil && err == nil {
				c, err = Compress(j.e, j.data)
			}
			if err == nil && len(c) < len(j.data) {
				err = os.WriteFile(filepath.Join(dir, filepath.FromSlash(j.rel+j.e.Suffix)), c, 0o644)
			} else if err == nil {
				continue // no smaller: the file is sent as it is
			}
			mu.Lock()
			if err != nil && failed == nil {
				failed = fmt.Errorf("precompress %s: %w", j.rel, err)
			} else if err == nil {
				written = append(written, j.rel+j.e.Suffix)
			}
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(work)
	}
	wg.Wait()
	if failed != nil {
		return nil, failed
	}
	sort.Strings(written)
	return written, nil
}

// Decode undoes Compress.
func Decode(e Encoding, c []byte) ([]byte, error) {
	var r io.Reader
	switch e.Name {
	case "br":
		r = brotli.NewReader(bytes.NewReader(c))
	case "gzip":
		z, err := gzip.NewReader(bytes.NewReader(c))
		if err != nil {
			return nil, err
		}
		r = z
	default:
		return nil, fmt.Errorf("decode: unknown coding %q", e.Name)
	}
	return io.ReadAll(r)
}

// reused returns prev's copy of rel in coding e when prev's rel holds
// data and the copy decodes to it; nil when there is none to reuse.
func reused(prev, rel string, e Encoding, data []byte) ([]byte, error) {
	if prev == "" {
		return nil, nil
	}
	p := filepath.Join(prev, filepath.FromSlash(rel))
	if old, err := os.ReadFile(p); err != nil || !bytes.Equal(old, data) {
		return nil, nil
	}
	c, err := os.ReadFile(p + e.Suffix)
	if err != nil {
		return nil, nil
	}
	if d, err := Decode(e, c); err != nil || !bytes.Equal(d, data) {
		return nil, nil
	}
	return c, nil
}
