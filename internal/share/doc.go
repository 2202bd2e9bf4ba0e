// Package share writes and reads the calculator's share links: the URL of
// the view that reproduces a result. The page writes its own address bar with it,
// and the CLI and the API add the same link to every result, so a result
// reopens in the calculator with the same figures wherever it was made.
//
// Contract:
//   - A view's state is a query string's text (View.Fragment), which a
//     link puts in its fragment (FragmentURL: no server receives it) or
//     in its query string (QueryURL: the server renders the answer into
//     the page it sends). URL is the form handed out. The
//     budget, decide and quarantine views hold their form's text as a
//     query string (Form: keys sorted, so the same state is the same link;
//     every input with text, at its default or not, and the format's
//     version "v=2", so a link keeps its meaning when a default changes).
//     ReadForm reads both versions: a link without one (the first format)
//     left out the inputs at the defaults of its time, kept here frozen. A decide view may add "ledger=" + a ledger's summary, the A/A
//     view holds "aa=" + its sufficient statistics; both are compact JSON,
//     DEFLATE at best compression, base64url without padding (Pack).
//   - Past MaxFragment bytes of fragment, a link leaves the long part out
//     and says so (View.Left): the page and the CLI then say what the link
//     holds instead.
//   - This package decodes what it encodes (ReadForm, DecodeAA,
//     DecodeLedger, with the core's strict JSON scanner), imports the core
//     packages and the standard library only, and is linked into the page,
//     so it holds no server code.
package share
