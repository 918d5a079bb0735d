// Study tools, enhancements only: the ¶ menu (link to share, add to a reading list kept on this device),
// the reading list's bar, the shared paragraph brought into view, and a visited reading list kept offline.
(function () {
  "use strict";
  var LIST_KEY = "ipg-reading-list";
  var MAX = 50;

  function readList() {
    try {
      var list = JSON.parse(window.localStorage.getItem(LIST_KEY) || "[]");
      return Array.isArray(list) ? list.filter(function (r) { return typeof r === "string"; }) : [];
    } catch (e) { return []; }
  }

  function writeList(list) {
    try { window.localStorage.setItem(LIST_KEY, JSON.stringify(list)); } catch (e) { /* storage may be off */ }
  }

  function listHref(bar, list) {
    var query = new URLSearchParams();
    list.forEach(function (ref) { query.append("p", ref); });
    var langs = new URLSearchParams(location.search).get("langs");
    if (langs && langs.indexOf(",") > 0) query.append("langs", langs);
    return bar.dataset.listUrl + "?" + query.toString().replace(/%3A/g, ":").replace(/%2C/g, ",");
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return Promise.reject(new Error("no clipboard"));
  }

  function showBar() {
    var bar = document.querySelector(".reading-list-bar");
    if (!bar) return;
    var list = readList();
    bar.hidden = list.length === 0;
    bar.querySelector(".reading-list-count").textContent = bar.dataset.countLabel.replace("{n}", list.length);
    bar.querySelector(".reading-list-open").href = listHref(bar, list);
    var menu = document.querySelector(".paragraph-menu");
    if (!menu || !menu.dataset.ref) return;
    var button = menu.querySelector(".add-to-list");
    if (!button.dataset.addLabel) button.dataset.addLabel = button.textContent;
    var added = list.indexOf(menu.dataset.ref) >= 0;
    button.textContent = added ? button.dataset.addedLabel : button.dataset.addLabel;
    button.setAttribute("aria-pressed", added ? "true" : "false");
  }

  // The page's one menu goes under the paragraph whose ¶ was tapped, after its notes if it has any.
  function openMenu(menu, row) {
    var key = row.id;
    if (!menu.hidden && menu.dataset.ref === menu.dataset.section + ":" + key) {
      menu.hidden = true;
      return;
    }
    var after = row;
    while (after.nextElementSibling && after.nextElementSibling.matches("details.notes")) after = after.nextElementSibling;
    after.parentNode.insertBefore(menu, after.nextSibling);
    menu.dataset.ref = menu.dataset.section + ":" + key;
    var share = menu.dataset.share.replace("{key}", key);
    menu.querySelector(".share-link").href = share;
    menu.querySelector(".cite-link").href = share + "#cite";
    menu.hidden = false;
    showBar();
    if (window.ipgReveal) window.ipgReveal(menu);
  }

  function initMenus() {
    document.addEventListener("click", function (event) {
      var target = event.target;
      var permalink = target.closest && target.closest("a.permalink");
      if (permalink) {
        var menu = document.querySelector(".paragraph-menu[data-share]");
        if (menu) openMenu(menu, permalink.closest(".row"));
        return;
      }
      var add = target.closest && target.closest(".add-to-list");
      if (add) {
        var ref = add.closest(".paragraph-menu").dataset.ref;
        var list = readList();
        var at = list.indexOf(ref);
        if (at >= 0) list.splice(at, 1); else if (list.length < MAX) list.push(ref);
        writeList(list);
        showBar();
        return;
      }
      var bar = target.closest && target.closest(".reading-list-bar");
      if (!bar) return;
      if (target.closest(".reading-list-clear")) {
        writeList([]);
        showBar();
      } else if (target.closest(".reading-list-copy")) {
        var url = new URL(listHref(bar, readList()), location.href).href;
        var count = bar.querySelector(".reading-list-count");
        copy(url).then(function () { count.textContent = bar.dataset.copiedLabel + ": " + url; },
          function () { count.textContent = url; });
      }
    });
    showBar();
  }

  // A shared paragraph's page opens at that paragraph.
  function showShared() {
    var shared = document.querySelector(".shared-paragraph");
    if (shared && !location.hash) shared.scrollIntoView({ block: "start" });
  }

  // A reading list, once opened, is kept with the saved sections (the service worker serves it offline).
  function keepOffline() {
    if (!document.querySelector("[data-keep-offline]") || !("caches" in window) || !window.isSecureContext) return;
    var url = location.href.split("#")[0];
    fetch(url, { credentials: "omit" }).then(function (response) {
      if (!response.ok || response.redirected) return;
      return caches.open("ipg-pages").then(function (cache) { return cache.put(url, response); });
    }).catch(function () { /* offline already: the copy saved before stays */ });
  }

  // A paragraph's citation, copied with its permanent link; without JavaScript it stays readable text.
  function initCite() {
    var button = document.querySelector(".copy-citation");
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var status = button.parentNode.querySelector(".cite-status");
      var text = button.dataset.citation;
      copy(text).then(function () { status.textContent = button.dataset.copiedLabel + ": " + text; },
        function () { status.textContent = text; });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    initMenus();
    initCite();
    showShared();
    keepOffline();
  });
})();
