package main

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/flakegate/flakegate/internal/static"
	"github.com/flakegate/flakegate/wasm/page"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

//go:embed web/flakegate.css
var stylesheet []byte

// loaderJS goes at the top of app.js: it keeps what is typed into the
// pre-rendered page while app.wasm loads (see patchAppJS).
//
//go:embed web/loader.js
var loaderJS string

//go:embed web/first.js
var firstJS []byte

// Options says where the site goes and what it is built from.
type Options struct {
	Out     string // folder to write, created if missing
	Wasm    string // path of the built app.wasm
	Version string // build version, normally the git commit
	// Previous is a site generated before ("" for none): its compressed
	// copies of files whose bytes have not changed (app.wasm, when only
	// the version did) are reused rather than compressed again.
	Previous string
}

// Handler is the go-app handler of the calculator; Generate pre-renders it.
func Handler(version string) *app.Handler {
	return &app.Handler{
		Name:            "flakegate calculator",
		ShortName:       "flakegate",
		Title:           "flakegate",
		Description:     "Rerun budgets for flaky tests, two-arm verdicts with Wilson intervals, and A/A noise checks of eval suites, computed in your browser.",
		Lang:            "en",
		Version:         version,
		BackgroundColor: "#ffffff",
		ThemeColor:      "#0b5cad",
		LoadingLabel:    "Loading the calculator… what you type now is kept.",
		RawHeaders:      []string{preloadWasm, firstScript},
		Icon: app.Icon{
			Default:  "/web/icon-192.png",
			Large:    "/web/icon-512.png",
			Maskable: "/web/icon-512.png",
			SVG:      "/web/icon.svg",
		},
		Styles:             []string{"/web/flakegate.css"},
		CacheableResources: []string{"/decide", "/aa", "/quarantine", "/compare", "/history", "/web/icon.svg", "/web/first.js"},
	}
}

// Generate writes the complete static site: every page pre-rendered, the
// go-app scripts, manifest and service worker, app.wasm, the stylesheet,
// local icons, _headers (static.Headers, for Workers), .assetsignore, and
// brotli and gzip copies of every text file and app.wasm
// (static.Precompress).
func Generate(o Options) error {
	if o.Out == "" || o.Version == "" {
		return errors.New("generate: Out and Version are required")
	}
	wasmBytes, err := os.ReadFile(o.Wasm)
	if err != nil {
		return fmt.Errorf("generate: reading app.wasm: %w", err)
	}
	if !bytes.HasPrefix(wasmBytes, []byte("\x00asm")) {
		return fmt.Errorf("generate: %s is not a WebAssembly module", o.Wasm)
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return err
	}
	page.Register() // idempotent; Generate may run without main (tests)
	if err := app.GenerateStaticWebsite(o.Out, Handler(o.Version), page.Pages...); err != nil {
		return fmt.Errorf("generate: pre-rendering: %w", err)
	}
	if err := patchAppJS(filepath.Join(o.Out, "app.js")); err != nil {
		return err
	}
	headers, err := static.Headers.MarshalText()
	if err != nil {
		return fmt.Errorf("generate: %s: %w", static.HeadersFile, err)
	}
	files := map[string][]byte{
		"web/app.wasm":          wasmBytes,
		"web/flakegate.css":     stylesheet,
		"web/first.js":          firstJS,
		"web/icon.svg":          []byte(iconSVG),
		"web/icon-192.png":      iconPNG(192),
		"favicon.ico":           iconPNG(48), // browsers ask for it; a PNG body is accepted
		"web/icon-512.png":      iconPNG(512),
		static.HeadersFile:      headers,                     // for Workers; the local server applies static.Headers itself
		static.AssetsIgnoreFile: []byte(static.AssetsIgnore), // the compressed copies stay out of a Workers upload
		"version.txt":           []byte(o.Version + "\n"),
	}
	for name, data := range files {
		p := filepath.Join(o.Out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	if err := checkSite(o.Out); err != nil {
		return err
	}
	// Last, once every file is final: brotli and gzip copies of the text
	// files and app.wasm, which the local server negotiates.
	if _, err := static.PrecompressReusing(o.Out, o.Previous); err != nil {
		return fmt.Errorf("generate: %w", err)
	}
	return nil
}

// go-app's loader wraps the app.wasm response in a new Response to count
// bytes for its progress label. A synthetic Response has no URL, so Chrome
// could never reuse compiled code for it, and counting on a clone of the
// body instead costs a JavaScript callback and a label repaint for every
// chunk on the main thread while V8 compiles. The patch hands fetch's own
// response to WebAssembly.instantiateStreaming; the label says "Loading"
// without a percentage, and the <link rel=preload> in every page's head
// (preloadWasm) has the download under way before app.js runs.
//
// A failed download is tagged with its cause (a network failure, or the
// server's status) for the words of web/loader.js, which never show the
// browser's own message.
//
// The service worker is registered once the page is up (or app.wasm failed)
// rather than first thing: installing it fetches and stores app.wasm a
// second time, which competed with the page's own download and compile.
const (
	fetchWithProgressStart = "async function fetchWithProgress(url, progess) {\n"
	progressWrapEnd        = "  return res;\n}"
	plainFetch             = "async function fetchWithProgress(url, progess) {\n  let res;\n  try {\n    res = await fetch(url);\n  } catch (err) {\n    throw flakegateEarly.loadError(\"network\");\n  }\n  if (!res.ok) {\n    throw flakegateEarly.loadError(\"status\", res.status);\n  }\n  return res;\n}"
	goRun                  = "    go.run(wasm.instance);\n    loader.remove();\n"
	registerWorker         = "goappInitServiceWorker();\n"
	wasmLoaderEnd          = "    console.error(\"loading wasm failed: \", err);\n  }\n"
	showProgress           = "    showProgress(0);\n"
	loadFailed             = "    loaderIcon.className = \"goapp-logo\";\n    loaderLabel.innerText = err;\n"
)

// firstScript runs before the page is first drawn and marks a link whose
// figures the pre-rendered page does not hold (web/first.js).
const firstScript = `<script src="/web/first.js"></script>`

// preloadWasm starts fetching app.wasm while the page is parsed; app.js's
// fetch (a same-origin CORS request, hence crossorigin) is served from it.
const preloadWasm = `<link rel="preload" href="/web/app.wasm" as="fetch" type="application/wasm" crossorigin>`

func patchAppJS(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	i := strings.Index(s, fetchWithProgressStart)
	j := strings.Index(s, progressWrapEnd)
	if i < 0 || j < i {
		return errors.New("generate: go-app's app.js changed; review patchAppJS")
	}
	s = s[:i] + plainFetch + s[j+len(progressWrapEnd):]
	// Marks for the load-time benchmark: when the module is compiled and
	// instantiated, just before Go's runtime starts.
	if !strings.Contains(s, goRun) {
		return errors.New("generate: go-app's app.js changed; review patchAppJS")
	}
	// Then, with Go's page mounted, the edits made meanwhile are replayed
	// into it (loader.js), and a failed load says so in the loader's note.
	s = strings.Replace(s, goRun, "    performance.mark(\"wasm-ready\");\n"+
		"    const focused = document.activeElement;\n"+goRun+
		"    flakegateEarly.ready(focused);\n", 1)
	if strings.Count(s, registerWorker) != 1 || strings.Count(s, wasmLoaderEnd) != 1 || strings.Count(s, loadFailed) != 1 {
		return errors.New("generate: go-app's app.js changed; review patchAppJS")
	}
	s = strings.Replace(s, loadFailed, "    flakegateEarly.failed(err, loader, loaderIcon, loaderLabel);\n", 1)
	// The loader's label then says whose figures the page shows.
	if strings.Count(s, showProgress) != 1 {
		return errors.New("generate: go-app's app.js changed; review patchAppJS")
	}
	s = strings.Replace(s, showProgress, showProgress+"    flakegateEarly.loading(loaderLabel);\n", 1)
	s = strings.Replace(s, registerWorker, "", 1)
	s = strings.Replace(s, wasmLoaderEnd, wasmLoaderEnd+"  "+registerWorker, 1)
	return os.WriteFile(path, []byte(loaderJS+s), 0o644)
}

// remoteRef matches a reference the browser would load from another origin
// (a src or href attribute, or a quoted URL in the manifest or the worker's
// cache list); go-app's empty og: metadata ("https://") is not one.
var remoteRef = regexp.MustCompile(`(src=|href=|"src":|"url":)"?(https?:)?//[A-Za-z0-9]`)

// checkSite refuses a site that would load anything from another origin.
func checkSite(dir string) error {
	for _, name := range []string{"index.html", "decide.html", "aa.html", "manifest.webmanifest", "app-worker.js"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("generate: %w", err)
		}
		if m := remoteRef.Find(b); m != nil {
			return fmt.Errorf("generate: %s refers to another origin: %s", name, m)
		}
		if strings.HasSuffix(name, ".html") && !bytes.Contains(b, []byte(`id="main"`)) {
			return fmt.Errorf("generate: %s is not a pre-rendered calculator page", name)
		}
	}
	return nil
}

const iconSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#0b5cad"/><path d="M14 46 L26 30 L36 38 L50 18" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/></svg>`

// iconPNG draws the icon at n×n pixels: a blue square with a rising white
// stroke, the same shape as iconSVG.
func iconPNG(n int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	blue := color.RGBA{0x0b, 0x5c, 0xad, 0xff}
	white := color.RGBA{0xff, 0xff, 0xff, 0xff}
	pts := [][2]float64{{14, 46}, {26, 30}, {36, 38}, {50, 18}}
	s := float64(n) / 64
	w := 3.0 * s
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			img.Set(x, y, blue)
			px, py := (float64(x)+.5)/s, (float64(y)+.5)/s
			for i := 0; i+1 < len(pts); i++ {
				if segDist(px, py, pts[i], pts[i+1])*s <= w {
					img.Set(x, y, white)
				}
			}
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

func segDist(px, py float64, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := ((px-a[0])*dx + (py-a[1])*dy) / (dx*dx + dy*dy)
	t = max(0, min(1, t))
	ex, ey := a[0]+t*dx-px, a[1]+t*dy-py
	return math.Sqrt(ex*ex + ey*ey)
}
