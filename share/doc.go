// Package share writes the calculator's share links: the URL of the view
// that reproduces a result. The page writes its own address bar with it,
// and the CLI and the API add the same link to every result, so a result
// reopens in the calculator with the same figures wherever it was made.
//
// Contract:
//   - A view's state is in the URL fragment, never the query string. The
//     budget and decide views hold their form's text as a query string
//     (Form: keys sorted, a field at its default left out, an emptied field
//     that has a default kept as "key="), so the same state is the same
//     link. A decide view may add "ledger=" + a ledger's summary, the A/A
//     view holds "aa=" + its sufficient statistics; both are compact JSON,
//     DEFLATE at best compression, base64url without padding (Pack).
//   - Past MaxFragment bytes of fragment, a link leaves the long part out
//     and says so (View.Left): the page and the CLI then say what the link
//     holds instead.
//   - Decoding stays with the page (package wasm): this package only
//     encodes, imports the core packages and the standard library only, and
//     is linked into the page, so it holds no server code.
package share
