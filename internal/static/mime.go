package static

import (
	"path"
	"strings"
)

// types maps an extension to its Content-Type. It is fixed here rather than
// taken from the machine's mime.types, so every machine sends the same
// headers; the values are those wrangler uploads (text types carry
// "; charset=utf-8").
var types = map[string]string{
	".avif":        "image/avif",
	".css":         "text/css; charset=utf-8",
	".csv":         "text/csv; charset=utf-8",
	".gif":         "image/gif",
	".html":        "text/html; charset=utf-8",
	".ico":         "image/vnd.microsoft.icon",
	".jpeg":        "image/jpeg",
	".jpg":         "image/jpeg",
	".js":          "text/javascript; charset=utf-8",
	".json":        "application/json",
	".map":         "application/json",
	".md":          "text/markdown; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".pdf":         "application/pdf",
	".png":         "image/png",
	".svg":         "image/svg+xml",
	".txt":         "text/plain; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
	".webp":        "image/webp",
	".woff":        "font/woff",
	".woff2":       "font/woff2",
	".xml":         "application/xml",
}

// ContentType is the Content-Type served for a file name:
// "application/octet-stream" for an extension not in the table.
func ContentType(name string) string {
	if t, ok := types[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}
