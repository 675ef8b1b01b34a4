// The replay of a finished match: ← and →, the slider and the move list step through the
// moves without reloading the page; each step swaps the three pictures (drawn by the server)
// and keeps the address pointing at the move shown, so it can be shared.
"use strict";
(function () {
  const box = document.getElementById("replay");
  const dataNode = document.getElementById("replay-data");
  if (!box || !dataNode) return;
  const lines = JSON.parse(dataNode.textContent);
  const match = box.dataset.match;
  const last = Number(box.dataset.last);
  const slider = document.getElementById("slider");
  const caption = document.getElementById("caption");
  // Every sentence comes from the page, in its language, with {blanks} to fill here; the
  // pictures and the plies' texts are asked for in the same language.
  const said = box.dataset;
  const names = [said.name0, said.name1];
  const lang = said.lang ? "?lang=" + encodeURIComponent(said.lang) : "";
  let ply = Number(slider.value);

  function fill(template, blanks) {
    return template.replace(/\{(\w+)\}/g, function (whole, key) {
      return key in blanks ? String(blanks[key]) : whole;
    });
  }

  function frame(kind, at) {
    return "/matches/" + match + "/frames/" + at + "/" + kind + ".png" + lang;
  }

  // The address of a move of this page: its other parameters (the language) kept.
  function at(n) {
    const query = new URLSearchParams(location.search);
    query.set("ply", String(n));
    return "?" + query.toString();
  }

  function show(next, push) {
    next = Math.max(0, Math.min(last, next));
    if (next === ply && !push) return;
    ply = next;
    for (const kind of ["table", "hand0", "hand1"]) {
      document.getElementById(kind).src = frame(kind, ply);
    }
    const told = lines[ply]
      ? fill(said.move, { ply: ply, said: lines[ply] })
      : said.deal;
    caption.textContent = told;
    // The scores and the hands' descriptions come a ply at a time (cached for good: a past
    // ply never changes), so a long match's page stays small.
    const asked = ply;
    fetch("/matches/" + match + "/plies/" + ply + ".json" + lang)
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (found) {
        if (!found || asked !== ply) return;
        caption.textContent = fill(said.caption, { move: told, scores: found.said });
        document.getElementById("table").alt = fill(said.table, { ply: ply, scores: found.said });
        for (const seat of [0, 1]) {
          document.getElementById("hand" + seat).alt =
            fill(said.hand, { name: names[seat], cards: found.hands[seat] });
        }
      })
      .catch(function () { /* the pictures still show; only their descriptions wait */ });
    slider.value = String(ply);
    document.getElementById("prev").href = at(Math.max(0, ply - 1));
    document.getElementById("next").href = at(Math.min(last, ply + 1));
    for (const old of document.querySelectorAll("#moves a[aria-current]")) {
      old.removeAttribute("aria-current");
    }
    const item = document.querySelector("#ply-" + ply + " a");
    if (item) item.setAttribute("aria-current", "step");
    history.replaceState(null, "", at(ply));
    // The language switch leads to this very move in another language.
    for (const other of document.querySelectorAll("nav.langs a[hreflang]")) {
      const query = new URLSearchParams(location.search);
      query.set("lang", other.getAttribute("hreflang"));
      other.href = "?" + query.toString();
    }
    // Fetch the next picture ahead, so holding → plays smoothly.
    if (ply < last) new Image().src = frame("table", ply + 1);
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target instanceof HTMLInputElement && event.target !== slider) return;
    if (event.key === "ArrowLeft" && event.target !== slider) { show(ply - 1); event.preventDefault(); }
    if (event.key === "ArrowRight" && event.target !== slider) { show(ply + 1); event.preventDefault(); }
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  for (const [id, step] of [["first", -Infinity], ["prev", -1], ["next", 1], ["last", Infinity]]) {
    document.getElementById(id).addEventListener("click", function (event) {
      event.preventDefault();
      show(step === -Infinity ? 0 : step === Infinity ? last : ply + step);
    });
  }
  document.getElementById("moves").addEventListener("click", function (event) {
    const link = event.target.closest("a");
    if (!link) return;
    event.preventDefault();
    show(Number(link.parentElement.id.slice(4)));
  });
})();
