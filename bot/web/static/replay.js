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
  const names = [
    document.getElementById("hand0").alt.split("'s hand:")[0],
    document.getElementById("hand1").alt.split("'s hand:")[0],
  ];
  let ply = Number(slider.value);

  function frame(kind, at) {
    return "/matches/" + match + "/frames/" + at + "/" + kind + ".png";
  }

  function show(next, push) {
    next = Math.max(0, Math.min(last, next));
    if (next === ply && !push) return;
    ply = next;
    for (const kind of ["table", "hand0", "hand1"]) {
      document.getElementById(kind).src = frame(kind, ply);
    }
    const said = lines[ply]
      ? "Move " + ply + " of " + last + " — " + lines[ply]
      : "The deal (move 0 of " + last + ")";
    caption.textContent = said;
    // The scores and the hands' descriptions come a ply at a time (cached for good: a past
    // ply never changes), so a long match's page stays small.
    const asked = ply;
    fetch("/matches/" + match + "/plies/" + ply + ".json")
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (found) {
        if (!found || asked !== ply) return;
        const scores = "scores " + found.scores[0] + " – " + found.scores[1];
        caption.textContent = said + "; " + scores;
        document.getElementById("table").alt =
          "The table at move " + ply + " of " + last + "; " + scores;
        document.getElementById("hand0").alt = names[0] + "'s hand: " + found.hands[0];
        document.getElementById("hand1").alt = names[1] + "'s hand: " + found.hands[1];
      })
      .catch(function () { /* the pictures still show; only their descriptions wait */ });
    slider.value = String(ply);
    document.getElementById("prev").href = "?ply=" + Math.max(0, ply - 1);
    document.getElementById("next").href = "?ply=" + Math.min(last, ply + 1);
    for (const old of document.querySelectorAll("#moves a[aria-current]")) {
      old.removeAttribute("aria-current");
    }
    const item = document.querySelector("#ply-" + ply + " a");
    if (item) item.setAttribute("aria-current", "step");
    history.replaceState(null, "", "?ply=" + ply);
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
