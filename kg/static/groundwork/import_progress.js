// A long import's progress on the chat page: its status is asked every two seconds until
// every recorded episode is analysed (or the file was refused); the page is then loaded again
// and shows the file's report.
(function () {
  "use strict";

  var POLL_MS = 2000;

  function describe(status) {
    if (status.status === "recorded") {
      return status.file + ": " + status.recorded + " episode" + (status.recorded === 1 ? "" : "s") +
        " recorded, " + status.processed + " analysed";
    }
    return status.file + ": reading and recording…";
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("source-import");
    var url = box && box.dataset.statusUrl;
    if (!url) return;
    var bar = document.getElementById("source-import-bar");
    var text = document.getElementById("source-import-text");

    function poll() {
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error(response.status);
          return response.json();
        })
        .then(function (status) {
          if (status.finished) { window.location.reload(); return; }
          bar.max = Math.max(status.recorded, 1);
          bar.value = status.processed;
          text.textContent = describe(status);  // text, never markup: the file name is the user's
          window.setTimeout(poll, POLL_MS);
        })
        .catch(function () { window.setTimeout(poll, POLL_MS * 3); });
    }
    window.setTimeout(poll, POLL_MS);
  });
})();
