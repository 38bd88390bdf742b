// The PRD generation page: polls the run and marks the stage reached (a file, not inline: the
// Content-Security-Policy runs scripts from this site only).
(function () {
  const box = document.getElementById("prd-progress");
  const items = Array.from(document.querySelectorAll("#prd-stages li"));
  function mark(stage) {
    let reached = false;
    for (let i = items.length - 1; i >= 0; i--) {
      const li = items[i];
      li.classList.remove("current", "done");
      if (li.dataset.stage === stage) { li.classList.add("current"); reached = true; }
      else if (reached) { li.classList.add("done"); }
    }
  }
  async function poll() {
    try {
      const response = await fetch(box.dataset.statusUrl, {headers: {"Accept": "application/json"}});
      if (response.ok) {
        const state = await response.json();
        if (state.url) { window.location.assign(state.url); return; }
        if (state.status === "failed") {
          box.textContent = "Generation failed: " + state.error;
          box.classList.add("prd-error");
          return;
        }
        box.textContent = state.stage_label + "…";
        mark(state.stage);
      }
    } catch (e) { /* the next poll retries */ }
    window.setTimeout(poll, 1000);
  }
  if (box.dataset.status !== "failed") { poll(); }
})();
