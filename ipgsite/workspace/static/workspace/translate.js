// The translate page without JavaScript works (Preview buttons post the form); with it, previews
// follow typing and leaving with unsaved edits asks first. The HTML comes sanitized from the server.
(function () {
  "use strict";
  var form = document.querySelector("form.tr-form");
  if (!form) return;
  var url = form.getAttribute("data-preview-url");
  var token = form.querySelector("input[name=csrfmiddlewaretoken]");
  var dirty = false;
  var timers = new WeakMap();

  function preview(textarea) {
    var target = document.getElementById(textarea.getAttribute("data-preview"));
    if (!target || !url || !token) return;
    var body = new FormData();
    body.append("text", textarea.value);
    fetch(url, { method: "POST", body: body, credentials: "same-origin", headers: { "X-CSRFToken": token.value } })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (data.html !== undefined) target.innerHTML = data.html;
        else if (data.error) target.textContent = data.error;
      })
      .catch(function () { /* the Preview button still works */ });
  }

  form.addEventListener("input", function (event) {
    var textarea = event.target;
    if (textarea.tagName !== "TEXTAREA") return;
    dirty = true;
    clearTimeout(timers.get(textarea));
    timers.set(textarea, setTimeout(function () { preview(textarea); }, 400));
  });
  form.addEventListener("submit", function () { dirty = false; });

  // Translation memory: a suggestion's button copies its translation into the field; nothing is saved.
  form.querySelectorAll("button.tr-use").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var textarea = document.getElementById(button.getAttribute("data-target"));
      if (!textarea) return;
      textarea.value = button.getAttribute("data-text");
      textarea.dispatchEvent(new Event("input", { bubbles: true }));
      textarea.focus();
    });
  });

  // Keyboard: Ctrl/Cmd+Enter saves this text, with Shift it saves and moves on; Alt+Down/Up moves between texts.
  form.addEventListener("keydown", function (event) {
    var textarea = event.target;
    if (textarea.tagName !== "TEXTAREA") return;
    var target = textarea.closest(".tr-target");
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      var button = target && target.querySelector(event.shiftKey ? "button.tr-save-next" : "button.tr-save");
      if (!button) return;
      event.preventDefault();
      dirty = false;
      form.requestSubmit(button);
    } else if (event.altKey && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      var fields = Array.prototype.slice.call(form.querySelectorAll(".tr-target textarea"));
      var next = fields[fields.indexOf(textarea) + (event.key === "ArrowDown" ? 1 : -1)];
      if (next) { event.preventDefault(); next.focus(); }
    }
  });
  window.addEventListener("beforeunload", function (event) {
    if (dirty) { event.preventDefault(); event.returnValue = ""; }
  });
})();
