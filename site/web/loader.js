
// -----------------------------------------------------------------------------
// flakegate: the pre-rendered page while app.wasm loads
// -----------------------------------------------------------------------------
// The pre-rendered page stays readable and editable while the calculator
// loads; the loader is a small note in a corner (web/flakegate.css). What
// a person types or picks meanwhile is noted here, and once Go has mounted
// the page, the same values go into the elements of the same id, with the
// input and change events the calculator listens to, so they are computed;
// the focus and caret move to the new element. If app.wasm cannot load,
// the note says so and the pre-rendered figures stay.
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

  return {
    // ready replays the edits into the mounted page; called right after
    // go.run, when Go has rendered the page and waits for events.
    ready(focused) {
      stop();
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
    // failed says in the note that the calculator did not load and that
    // the figures on the page are the pre-rendered ones.
    failed(err, loader, icon, label) {
      stop();
      loader.classList.add("fg-failed");
      loader.setAttribute("role", "alert");
      icon.className = "goapp-logo";
      label.innerText =
        "The calculator could not load (" + err + "). " +
        "The figures on this page are its built-in example, not computed " +
        "from your link or your edits. Reload the page to try again.";
    },
  };
})();
