// flakegate: runs in the head of every page, before it is first drawn (a
// blocking script, so it stays tiny). The pre-rendered figures are those
// of the built-in example; they are this URL's own only when the URL
// carries no view state, or when the server rendered the page for its
// query string (package render: the root element carries the query it was
// rendered for in data-rendered-link, and the result region is marked
// data-rendered="server"). A state in the fragment never reaches a server.
// So the root is marked "fg-example" for a fragment link and for a query
// link the page was not rendered for, and web/flakegate.css hides the
// pre-rendered figures behind a note; web/loader.js says the same in the
// corner note, and the mark goes once the calculator has computed the
// link. The mark is decided here, from the root element, which exists
// before the body is parsed: a browser paints a page it has not finished
// parsing (a slow or busy device), and such a frame must neither hide the
// link's own answer nor show another view's figures.
(() => {
  const stateful = (s) =>
    s.split("&").some((kv) => {
      const k = kv.split("=")[0];
      return kv.includes("=") && k !== "wasm" && !k.startsWith("utm_");
    });
  const canonical = (q) => {
    const p = new URLSearchParams(q);
    p.sort();
    return p.toString();
  };
  const root = document.documentElement;
  const query = location.search.slice(1);
  const rendered = root.getAttribute("data-rendered-link");
  if (
    stateful(location.hash.slice(1)) ||
    (stateful(query) &&
      (rendered === null || canonical(rendered) !== canonical(query)))
  ) {
    root.classList.add("fg-example");
  }
})();
