// flakegate: runs in the head of every page, before it is first drawn (a
// blocking script, so it stays tiny). The pre-rendered figures are those
// of the built-in example; they are this URL's own only when the URL
// carries no view state, or when the server rendered the page for its
// query string (package render: the link's result is an element marked
// data-rendered="server", with the query string it was rendered for in
// data-link). A state in the fragment never reaches a server. So the root
// is marked "fg-example" for a fragment link and "fg-query" for a query
// link, and web/flakegate.css hides the pre-rendered figures behind a note
// for "fg-example", and for "fg-query" when no element is so marked;
// web/loader.js checks data-link against the URL once the page is parsed,
// and the marks go once the calculator has computed the link.
(() => {
  const stateful = (s) =>
    s.split("&").some((kv) => {
      const k = kv.split("=")[0];
      return kv.includes("=") && k !== "wasm" && !k.startsWith("utm_");
    });
  const root = document.documentElement;
  if (stateful(location.hash.slice(1))) {
    root.classList.add("fg-example");
  } else if (stateful(location.search.slice(1))) {
    root.classList.add("fg-query");
  }
})();
