// Enhancements only: every page reads without this script.
(function () {
  "use strict";
  var wide = window.matchMedia("(min-width: 50rem)");
  var NOTES_KEY = "ipg-notes";

  // What the reader just opened is brought into view, above the bar at the bottom of a phone's screen.
  function reveal(node) {
    if (node && node.scrollIntoView) node.scrollIntoView({ block: "nearest" });
  }
  window.ipgReveal = reveal;

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
    var menu = document.querySelector(".paragraph-menu[data-share]");
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a.permalink");
      if (!link) return;
      event.preventDefault();
      var key = link.getAttribute("href").slice(1);
      // The paragraph's own page (ipgsite/study) when offered: its link preview shows this paragraph.
      var url = menu ? new URL(menu.dataset.share.replace("{key}", key), location.href).href
        : location.origin + location.pathname + location.search + "#" + key;
      history.replaceState(null, "", "#" + key);
      var row = document.getElementById(key);
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
    // A marked term opens its card (its names in every language) under the text it is in; the page has one card
    // per term, which moves to where it was asked for. Without this script a mark links to the glossary.
    var opener = null;
    document.querySelectorAll("a.term[data-term]").forEach(function (mark) {
      if (!document.getElementById("term-" + mark.dataset.term)) return;
      mark.setAttribute("aria-controls", "term-" + mark.dataset.term);
      mark.setAttribute("aria-expanded", "false");
    });
    document.addEventListener("click", function (event) {
      var mark = event.target.closest ? event.target.closest("a.term[aria-controls]") : null;
      if (!mark) return;
      var card = document.getElementById(mark.getAttribute("aria-controls"));
      if (!card) return;
      event.preventDefault();
      var block = mark.closest(".text, .note-body") || mark.parentNode;
      var close = !card.hidden && opener === mark;
      if (opener) opener.setAttribute("aria-expanded", "false");
      card.hidden = close;
      opener = close ? null : mark;
      if (close) return;
      block.appendChild(card);
      mark.setAttribute("aria-expanded", "true");
      reveal(card);
    });
  }

  // A link followed inside a panel (the menu, the parts) closes the panel: the page under it is what was asked for.
  function initPanels() {
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("[popover] a[href]");
      var panel = link && link.closest("[popover]");
      if (panel && panel.hidePopover && panel.matches(":popover-open")) panel.hidePopover();
    });
  }

  window.addEventListener("beforeprint", function () { setNotes(true, document.querySelector(".toggle-notes")); });
  document.addEventListener("DOMContentLoaded", function () {
    initNotes();
    initPermalinks();
    initLanguageSwitch();
    initTerms();
    initPanels();
  });
})();
