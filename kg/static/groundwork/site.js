// Small behaviours around htmx; the pages work without them (plain forms and links).
(function () {
  "use strict";

  // The panel polls only while the user is not typing an answer in it, so a refresh never
  // wipes half-written text. Checked here rather than in an htmx trigger filter: filters are
  // evaluated code, which the Content-Security-Policy does not allow.
  window.groundworkPanelIdle = function () {
    var panel = document.getElementById("panel");
    if (!panel) return false;
    var fields = panel.querySelectorAll("input[type=text], textarea");
    for (var i = 0; i < fields.length; i++) {
      if (fields[i] === document.activeElement || fields[i].value.trim() !== "") return false;
    }
    return true;
  };

  document.addEventListener("htmx:confirm", function (event) {
    if (event.target.id === "panel" && !window.groundworkPanelIdle()) event.preventDefault();
  });

  // Selects that act at once (no inline handlers: the policy refuses them).
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (select.matches("select[data-submit-on-change]") && select.form) select.form.submit();
    else if (select.matches("select[data-go-on-change]") && select.value) window.location = select.value;
  });

  // The send form and the poller can both return the same new message; keep the first copy.
  // A reply arrives whenever it is written (replies to messages sent close together finish
  // in any order): it is moved right after the message it answers, as the server orders them.
  function dropDuplicates() {
    var list = document.getElementById("messages");
    if (!list) return;
    var seen = {};
    Array.prototype.slice.call(list.querySelectorAll(".message")).forEach(function (el) {
      if (seen[el.id]) el.remove(); else seen[el.id] = true;
    });
    Array.prototype.slice.call(list.querySelectorAll(".message[data-reply-to]")).forEach(function (reply) {
      var asked = list.querySelector('.message[data-id="' + reply.dataset.replyTo + '"]');
      if (asked && asked.nextElementSibling !== reply) asked.after(reply);
    });
    var empty = document.getElementById("messages-empty");
    if (empty && list.querySelector(".message")) empty.remove();
  }

  function scrollToEnd() {
    var list = document.getElementById("messages");
    if (list) list.scrollTop = list.scrollHeight;
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "messages") {
      var added = event.detail.xhr && event.detail.xhr.responseText.indexOf("class=\"message") !== -1;
      dropDuplicates();
      if (added) scrollToEnd();
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.id === "send-form" && event.detail.successful) {
      var text = form.querySelector("textarea");
      if (text && !document.getElementById("chat-error").textContent.trim()) text.value = "";
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target.id === "message-text") {
      event.preventDefault();
      event.target.form.requestSubmit();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    // A link to #message-N of a message in another conversation: ask the server where it is.
    var wanted = window.location.hash.match(/^#message-(\d+)$/);
    var list = document.getElementById("messages");
    if (wanted && list && list.dataset.messageLink && !document.getElementById("message-" + wanted[1])) {
      window.location.replace(list.dataset.messageLink.replace(/\d+\/$/, wanted[1] + "/"));
      return;
    }
    var marked = document.querySelector(".message.highlight");
    if (marked && !window.location.hash) marked.scrollIntoView({ block: "center" });
    else if (!marked) scrollToEnd();
  });
})();
