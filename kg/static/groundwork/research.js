// The message page opens at the first highlighted quote (the quote has no id of its own:
// the marks are placed by offsets, so the first one is given the #quote anchor here).
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var first = document.querySelector("#message-text mark");
    if (!first) return;
    first.id = "quote";
    first.scrollIntoView({ block: "center" });
  });
})();
