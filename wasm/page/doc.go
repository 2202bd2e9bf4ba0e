// Package page is flakegate's in-browser calculator: go-app v10 components
// for the rerun budget, the two-arm decision (with a ledger table) and the
// A/A check, the URL state behind share links, and the inline SVG plots.
//
// Contract:
//   - Every number comes from the core packages and every unit and Markdown
//     summary from package words; nothing is computed here except layout.
//     All work happens in the page: no network call is made.
//   - Every computed figure is rendered as <data data-field="NAME"
//     value="EXACT">text</data>, where NAME is the result's JSON field name
//     and EXACT is the value in Go's shortest round-trip form ("null" for a
//     JSON null, "true"/"false" for booleans). An ancestor's data-scope
//     ("rows.0", "baseline") gives the field's place in the JSON result, so
//     the page can be read back as the CLI's -json output.
//   - The view's state lives in the URL: in the query string, where the
//     server can render the link's answer into the page it sends, or for a
//     private link in the fragment, which never reaches a server (state.go:
//     the same text either way, the fragment winning when a URL holds
//     both). A/A links carry the sufficient statistics (aa.Side),
//     DEFLATE-compressed and base64url-encoded.
//   - Input errors are shown at the field they concern, with the core's
//     message; a result is never shown for input that failed to parse.
//
// The package builds natively (for component tests and pre-rendering) and
// for GOOS=js GOARCH=wasm; it holds no server code.
package page
