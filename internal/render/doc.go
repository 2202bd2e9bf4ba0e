// Package render renders a calculator link into the page the server sends,
// so a link opens on its own answer and a chat or tracker that unfurls it
// shows the verdict.
//
// Contract:
//   - A link is a calculator page (share.BudgetPath, DecidePath, AAPath,
//     QuarantinePath, ComparePath, HistoryPath) and a query string in the
//     format share writes into fragments: a form's text, versioned ("v=2")
//     or of the first format, and the packed aa=, ledger=, registry=,
//     compare=, board= (a leaderboard, on ComparePath) and history=
//     values, read by share's own decoders.
//   - Every result is computed by the core as the CLI computes it, and its
//     answer and summary are package words' (the Markdown's first line is
//     the answer the CLI, the API and the page give). Every figure of a
//     result is a <data data-field="NAME" value="EXACT"> element under
//     data-scope ancestors, the page's contract (package page), so
//     page/fieldcheck reads it back as the CLI's -json.
//   - The answer goes into the pre-rendered page (Splice): in place of the
//     example's result (the element of id RegionID), marked
//     data-rendered="server" with the link's query in data-link (and on
//     the root element in data-rendered-link, read by the page's head
//     script before the body is parsed), with the
//     form's inputs holding the link's text, and into the head's title,
//     description and Open Graph and Twitter card tags; the head holds
//     the first paint until the parser has reached the empty element
//     that ends the region (<link rel="expect" blocking="render">), so
//     the first frame a browser paints shows the answer.
//   - Bounded: a query past MaxQuery bytes, or a template past MaxTemplate,
//     is not rendered (the page is served as pre-rendered), nor is an A/A
//     link whose check costs more than MaxWorkSteps; packed values are
//     unpacked within share.MaxJSON. The same link and template give
//     the same bytes, whose hash is the ETag (Respond).
//   - It imports the core, share and words and the standard library only
//     (no go-app, no page, and no regexp: hand-written scanners find the
//     tags Splice replaces), so the Worker links it at a small cost.
package render
