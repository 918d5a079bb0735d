// Offline reading: registers the service worker, asks it to save every section in this page's languages,
// and shows where that stands. Pages read the same without it.
(function () {
  "use strict";
  // The state is a small mark in the header; a tap on it shows the words (#offline-status, a panel).
  var status = document.getElementById("offline-status");
  var mark = document.querySelector(".offline-mark");
  if (!status || !mark || !("serviceWorker" in navigator) || !window.isSecureContext) return;

  var lang = (document.documentElement.getAttribute("lang") || "").toLowerCase();
  var mode = { lang: lang, langs: compareChoice() };
  var state = "unsaved";
  var retry = null;
  var FIRST_RETRY_MS = 5000;
  var MAX_RETRIES = 6;  // 5 s, 10 s, 20 s … 160 s; then not again until the connection returns or a page loads
  var retries = 0;

  // The compare choice: this page's ?langs=, else the one the reader chose last (the server's cookie).
  function compareChoice() {
    var fromUrl = new URLSearchParams(location.search).get("langs");
    if (fromUrl !== null) return fromUrl.indexOf(",") > 0 ? fromUrl : "";
    var cookie = document.cookie.split("; ").filter(function (c) { return c.indexOf("ipg_langs=") === 0; })[0];
    if (!cookie) return "";
    var value = decodeURIComponent(cookie.slice("ipg_langs=".length)).replace(/"/g, "");
    return value.indexOf(",") > 0 ? value : "";
  }

  function show() {
    var shown = state;
    if (!navigator.onLine) shown = state === "ready" ? "offline" : "unsaved-offline";
    var text = status.getAttribute("data-" + shown);
    var release = status.getAttribute("data-release");
    if (text && release && (shown === "ready" || shown === "offline")) {
      text += " · " + status.getAttribute("data-release-label").replace("{date}", release);
    }
    status.textContent = text || "";
    status.setAttribute("data-state", shown);
    mark.hidden = !text;
    mark.title = text || "";
    mark.setAttribute("data-state", shown);
  }

  function save() {
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "save", lang: mode.lang, langs: mode.langs });
    });
  }

  navigator.serviceWorker.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.type !== "offline-status" || data.lang !== mode.lang || data.langs !== mode.langs) return;
    state = data.state;
    status.setAttribute("data-version", data.version || "");
    status.setAttribute("data-release", data.release || "");
    show();
    if (data.state === "saving") return;
    // The server was not reached (a network still waking up) or a file failed: try again later, less and
    // less often, and give up after a few tries.
    clearTimeout(retry);
    status.removeAttribute("data-retry-in");
    if (data.reached && data.complete) {
      retries = 0;
    } else if (navigator.onLine && retries < MAX_RETRIES) {
      var delay = FIRST_RETRY_MS * Math.pow(2, retries);
      retry = setTimeout(save, delay);
      retries += 1;
      status.setAttribute("data-retry-in", delay);
    }
    status.setAttribute("data-retries", retries);
  });
  // Back online: the worker fetches what changed meanwhile.
  window.addEventListener("online", function () { retries = 0; show(); save(); });
  window.addEventListener("offline", show);

  // After the page itself has loaded: saving the rest must not slow down what the reader opened.
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(status.getAttribute("data-worker"), { scope: "/" }).then(save, function () {
      mark.hidden = true;
    });
  });
  show();
})();
