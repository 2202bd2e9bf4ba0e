
// -----------------------------------------------------------------------------
// flakegate: the pre-rendered page while app.wasm loads
// -----------------------------------------------------------------------------
// The pre-rendered page stays readable and editable while the calculator
// loads; the loader is a small note in a corner (web/flakegate.css). What
// a person types or picks meanwhile is noted here, and once Go has mounted
// the page, the same values go into the elements of the same id, with the
// input and change events the calculator listens to, so they are computed;
// the focus and caret move to the new element. If app.wasm cannot load,
// the note says why in plain words, with a Retry button that loads it
// again; the pre-rendered figures stay, unless they are not the link's
// (web/first.js), which stay hidden.
const flakegateEarly = (() => {
  const edits = new Map(); // element id → the pre-rendered element edited
  const editable = (el) =>
    el && el.id && el.matches && el.matches("input, textarea, select");
  const note = (e) => {
    if (editable(e.target)) {
      edits.delete(e.target.id); // keep the order of the last edits
      edits.set(e.target.id, e.target);
    }
  };
  // Edits made while the page was parsed, before this script ran.
  for (const el of document.querySelectorAll("input, textarea, select")) {
    const changed =
      el.type === "checkbox" || el.type === "radio"
        ? el.checked !== el.defaultChecked
        : el.type === "file"
          ? el.files && el.files.length > 0
          : el.tagName === "SELECT"
            ? Array.from(el.options).some((o) => o.selected !== o.defaultSelected)
            : el.value !== el.defaultValue;
    if (editable(el) && changed) edits.set(el.id, el);
  }
  document.addEventListener("input", note, true);
  document.addEventListener("change", note, true);
  const stop = () => {
    document.removeEventListener("input", note, true);
    document.removeEventListener("change", note, true);
  };
  const fire = (el, type) =>
    el.dispatchEvent(new Event(type, { bubbles: true }));

  // Whether the pre-rendered figures are another view's than the URL's
  // (web/first.js decided it in the head): a fragment link, or a query
  // link the page was not rendered for.
  const root = document.documentElement;
  const notYours = root.classList.contains("fg-example");
  const loadingWords = notYours
    ? "Loading the calculator… This link's figures appear once it has " +
      "computed them; the built-in example's are hidden meanwhile."
    : null;

  // Why app.wasm did not load, in the reader's words: never the
  // browser's own message ("TypeError: Failed to fetch").
  const why = (err) => {
    if (err && err.flakegate === "status") {
      return (
        "the server answered " + err.status +
        (err.status === 404 ? " (not found)" : "") +
        " when asked for its code (web/app.wasm)"
      );
    }
    if (err && err.flakegate === "network") {
      return navigator.onLine === false
        ? "this device is offline, and the calculator's code is not saved " +
            "in this browser yet"
        : "the browser could not download its code (web/app.wasm): the " +
            "network failed, or an extension, proxy or firewall blocked it";
    }
    return (
      "the browser could not start its code (web/app.wasm): it needs " +
      "WebAssembly, which this browser refused or had no memory for"
    );
  };

  return {
    // loading says in the loader's label, once go-app has written its
    // own, that the figures on the page are not the link's, when so.
    loading(label) {
      if (loadingWords) label.innerText = loadingWords;
    },
    // loadError tags why the download of app.wasm failed, for why():
    // "network" (fetch rejected) or "status" (an answer other than 2xx).
    loadError(kind, status) {
      return { flakegate: kind, status };
    },
    // ready replays the edits into the mounted page; called right after
    // go.run, when Go has rendered the page, computed its link and waits
    // for events.
    ready(focused) {
      stop();
      root.classList.remove("fg-example");
      for (const [id, old] of edits) {
        const el = document.getElementById(id);
        if (!el || !editable(el)) continue;
        if (old.type === "file") {
          if (!old.files || old.files.length === 0) continue;
          if (el !== old) el.files = old.files;
          fire(el, "change");
          continue;
        }
        if (el !== old) {
          if (old.type === "checkbox" || old.type === "radio") {
            el.checked = old.checked;
          } else {
            el.value = old.value;
          }
        }
        fire(el, "input");
        fire(el, "change");
      }
      edits.clear();
      if (focused && focused.id && !focused.isConnected) {
        const el = document.getElementById(focused.id);
        if (el && el !== focused) {
          el.focus();
          try {
            el.setSelectionRange(focused.selectionStart, focused.selectionEnd);
          } catch {} // not a text field
        }
      }
    },
    // failed says in the loader's note, as an alert, that the calculator
    // did not load and why, what the figures on the page are, and offers
    // Retry, which loads app.wasm again (edits made meanwhile are still
    // kept).
    failed(err, loader, icon, label) {
      loader.classList.add("fg-failed");
      loader.setAttribute("role", "alert");
      icon.className = "goapp-logo";
      label.innerText =
        "The calculator could not load: " + why(err) + ". " +
        (notYours
          ? "This link's figures cannot be shown until it loads."
          : "The figures on this page are those of its built-in inputs; " +
            "what you type is computed once it loads.");
      const note = document.getElementById("example-note");
      if (note) {
        if (!note.dataset.loading) note.dataset.loading = note.innerText;
        note.innerText =
          "The calculator could not load, so this link's figures cannot " +
          "be shown: the note at the bottom of the page says why, and " +
          "can try again.";
      }
      let retry = document.getElementById("retry-load");
      if (!retry) {
        retry = document.createElement("button");
        retry.type = "button";
        retry.id = "retry-load";
        retry.textContent = "Retry";
        loader.appendChild(retry);
      }
      retry.onclick = () => {
        retry.remove();
        loader.classList.remove("fg-failed");
        loader.removeAttribute("role");
        icon.className = "goapp-logo goapp-spin";
        label.innerText = goappLoadingLabel;
        if (note) note.innerText = note.dataset.loading || note.innerText;
        goappInitWebAssembly();
      };
    },
  };
})();
