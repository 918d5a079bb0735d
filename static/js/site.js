// Enhancements only: every page reads without this script.
(function () {
  "use strict";
  var wide = window.matchMedia("(min-width: 50rem)");
  var NOTES_KEY = "ipg-notes";

  function setNotes(open, button) {
    document.querySelectorAll("details.notes").forEach(function (d) { d.open = open; });
    if (button) {
      button.setAttribute("aria-pressed", open ? "true" : "false");
      button.textContent = open ? button.dataset.hideLabel : button.dataset.showLabel;
    }
  }

  function initNotes() {
    var button = document.querySelector(".toggle-notes");
    var remembered = null;
    try { remembered = window.localStorage.getItem(NOTES_KEY); } catch (e) { /* storage may be off */ }
    var open = remembered ? remembered === "shown" : wide.matches;
    setNotes(open, button);
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var show = button.getAttribute("aria-pressed") !== "true";
      setNotes(show, button);
      try { window.localStorage.setItem(NOTES_KEY, show ? "shown" : "hidden"); } catch (e) { /* ignore */ }
    });
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } finally { document.body.removeChild(area); }
    return Promise.resolve();
  }

  function initPermalinks() {
    var status = document.getElementById("copy-status");
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a.permalink");
      if (!link) return;
      event.preventDefault();
      var url = location.origin + location.pathname + location.search + link.getAttribute("href");
      history.replaceState(null, "", link.getAttribute("href"));
      var row = document.getElementById(link.getAttribute("href").slice(1));
      if (row) row.scrollIntoView({ block: "start" });
      copy(url).then(function () {
        if (status) status.textContent = status.dataset.copiedLabel + " " + url;
        link.classList.add("is-copied");
        setTimeout(function () { link.classList.remove("is-copied"); }, 1500);
      }, function () { /* the link itself is in the address bar now */ });
    });
  }

  function initLanguageSwitch() {
    // The server cannot see the #fragment: carry it, so the reader stays at the same paragraph.
    document.querySelectorAll("a.switch-language").forEach(function (link) {
      link.addEventListener("click", function () {
        if (location.hash) link.href = link.href.split("#")[0] + location.hash;
      });
    });
  }

  function initTerms() {
    // A marked term opens its names in the other languages in place; without this script it links to the glossary.
    document.addEventListener("click", function (event) {
      var mark = event.target.closest ? event.target.closest("a.term") : null;
      if (!mark) return;
      var card = document.getElementById(mark.getAttribute("aria-controls"));
      if (!card) return;
      event.preventDefault();
      card.hidden = !card.hidden;
      mark.setAttribute("aria-expanded", card.hidden ? "false" : "true");
    });
  }

  window.addEventListener("beforeprint", function () { setNotes(true, document.querySelector(".toggle-notes")); });
  document.addEventListener("DOMContentLoaded", function () {
    initNotes();
    initPermalinks();
    initLanguageSwitch();
    initTerms();
  });
})();
