// The site's one script (offline/offline.js aside), enhancements only: every page reads without it.
// - Reading: notes opened or closed at once, a paragraph's link copied, the #fragment kept across a language switch,
//   a term's card opened under its mark, a panel closed when a link in it is followed.
// - Study tools (ipgsite/study): the ¶ menu (link to share, add to a reading list kept on this device), the reading
//   list's bar, a paragraph's citation copied, the shared paragraph brought into view, a visited list kept offline.
// - At the table: a paragraph in the player's language in place, shown large to a player, pinned and recently read
//   paragraphs, the text size; without the script the per-paragraph control is a link to the compare view.
// What it keeps is in this browser's local storage only; nothing is sent to the server.
(function () {
  "use strict";
  var root = document.documentElement;
  var pageLang = root.getAttribute("lang") || "en";
  var wide = window.matchMedia("(min-width: 50rem)");
  var NOTES = "ipg-notes", LIST = "ipg-reading-list", PINS = "ipg-pins", RECENT = "ipg-recent";
  var PLAYER = "ipg-player-language", SIZE = "ipg-text-size", ALONE = "ipg-show-alone";
  var SAVED_PAGES = "ipg-pages";  // the service worker's cache (ipgsite/offline/templates/offline/sw.js)
  var SIZES = [-1, 0, 1, 2, 3];  // html.text-size-N in static/css/site.css
  var MAX_LIST = 50;

  // Shared helpers -------------------------------------------------------------------------------------------
  function $(selector, within) { return (within || document).querySelector(selector); }
  function $$(selector, within) { return (within || document).querySelectorAll(selector); }
  function closest(event, selector) { return event.target.closest ? event.target.closest(selector) : null; }
  function getItem(name) {
    try { return window.localStorage.getItem(name); } catch (e) { return null; }  // storage may be off
  }
  function setItem(name, value) {
    try { window.localStorage.setItem(name, value); } catch (e) { /* storage may be off */ }
  }
  function load(name, fallback) {
    try {
      var value = JSON.parse(getItem(name));
      return value === null ? fallback : value;
    } catch (e) { return fallback; }
  }
  function store(name, value) { setItem(name, JSON.stringify(value)); }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }
  function htmlLang(code) { return code === "zh-hans" ? "zh-Hans" : code; }
  // What the reader just opened is brought into view, above the bar at the bottom of a phone's screen.
  function reveal(node) {
    if (node && node.scrollIntoView) node.scrollIntoView({ block: "nearest" });
  }
  // The clipboard; with `strict`, nothing but the Clipboard API (the caller shows the text instead).
  function copy(text, strict) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    if (strict) return Promise.reject(new Error("no clipboard"));
    var area = el("textarea", "visually-hidden");
    area.value = text;
    area.setAttribute("readonly", "");
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } finally { document.body.removeChild(area); }
    return Promise.resolve();
  }

  // Reading ----------------------------------------------------------------------------------------------------
  function setNotes(open, button) {
    $$("details.notes").forEach(function (d) { d.open = open; });
    if (button) {
      button.setAttribute("aria-pressed", open ? "true" : "false");
      button.textContent = open ? button.dataset.hideLabel : button.dataset.showLabel;
    }
  }

  function initNotes() {
    var button = $(".toggle-notes");
    var remembered = getItem(NOTES);
    setNotes(remembered ? remembered === "shown" : wide.matches, button);
    var shared = $(".shared-paragraph + details.notes");
    if (shared) shared.open = true;  // the shared paragraph's notes stay open
    if (!button) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var show = button.getAttribute("aria-pressed") !== "true";
      setNotes(show, button);
      setItem(NOTES, show ? "shown" : "hidden");
    });
  }

  function initPermalinks() {
    var status = document.getElementById("copy-status");
    var menu = $(".paragraph-menu[data-share]");
    document.addEventListener("click", function (event) {
      var link = closest(event, "a.permalink");
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
    $$("a.switch-language").forEach(function (link) {
      link.addEventListener("click", function () {
        if (location.hash) link.href = link.href.split("#")[0] + location.hash;
      });
    });
  }

  function initTerms() {
    // A marked term opens its card (its names in every language) under the text it is in; the page has one card
    // per term, which moves to where it was asked for. Without this script a mark links to the glossary, at the
    // entry its #fragment names: the term's key, which the card's id ends with.
    var opener = null;
    $$("a.term").forEach(function (mark) {
      if (!document.getElementById("term-" + mark.hash.slice(1))) return;
      mark.setAttribute("aria-controls", "term-" + mark.hash.slice(1));
      mark.setAttribute("aria-expanded", "false");
    });
    document.addEventListener("click", function (event) {
      var mark = closest(event, "a.term[aria-controls]");
      var card = mark && document.getElementById(mark.getAttribute("aria-controls"));
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
      var link = closest(event, "[popover] a[href]");
      var panel = link && link.closest("[popover]");
      if (panel && panel.hidePopover && panel.matches(":popover-open")) panel.hidePopover();
    });
  }

  // Study tools ------------------------------------------------------------------------------------------------
  function readList() {
    var list = load(LIST, []);
    return Array.isArray(list) ? list.filter(function (r) { return typeof r === "string"; }) : [];
  }

  function listHref(bar, list) {
    var query = new URLSearchParams();
    list.forEach(function (ref) { query.append("p", ref); });
    var langs = new URLSearchParams(location.search).get("langs");
    if (langs && langs.indexOf(",") > 0) query.append("langs", langs);
    return bar.dataset.listUrl + "?" + query.toString().replace(/%3A/g, ":").replace(/%2C/g, ",");
  }

  function showBar() {
    var bar = $(".reading-list-bar");
    if (!bar) return;
    var list = readList();
    bar.hidden = list.length === 0;
    $(".reading-list-count", bar).textContent = bar.dataset.countLabel.replace("{n}", list.length);
    $(".reading-list-open", bar).href = listHref(bar, list);
    var menu = $(".paragraph-menu");
    if (!menu || !menu.dataset.ref) return;
    var button = $(".add-to-list", menu);
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
    $(".share-link", menu).href = share;
    $(".cite-link", menu).href = share + "#cite";
    $(".history-link", menu).href = menu.dataset.history.replace("{key}", key);
    menu.hidden = false;
    showBar();
    reveal(menu);
  }

  function initMenus() {
    document.addEventListener("click", function (event) {
      var permalink = closest(event, "a.permalink");
      if (permalink) {
        var menu = $(".paragraph-menu[data-share]");
        if (menu) openMenu(menu, permalink.closest(".row"));
        return;
      }
      var add = closest(event, ".add-to-list");
      if (add) {
        var ref = add.closest(".paragraph-menu").dataset.ref;
        var list = readList();
        var at = list.indexOf(ref);
        if (at >= 0) list.splice(at, 1); else if (list.length < MAX_LIST) list.push(ref);
        store(LIST, list);
        showBar();
        return;
      }
      var bar = closest(event, ".reading-list-bar");
      if (!bar) return;
      if (closest(event, ".reading-list-clear")) {
        store(LIST, []);
        showBar();
      } else if (closest(event, ".reading-list-copy")) {
        var url = new URL(listHref(bar, readList()), location.href).href;
        var count = $(".reading-list-count", bar);
        copy(url, true).then(function () { count.textContent = bar.dataset.copiedLabel; },
          function () { count.textContent = url; });
      }
    });
    showBar();
  }

  // A citation, or a reading list's link, copied by its button; without JavaScript it stays readable.
  function initCopy() {
    $$(".copy-citation, .copy-list-link").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var status = $("[role=status]", button.parentNode);
        var text = button.dataset.citation || button.dataset.url;
        copy(text, true).then(function () { status.textContent = button.dataset.copiedLabel; },
          function () { status.textContent = text; });
      });
    });
  }

  // A shared paragraph's page opens with the section's title in view: as it is, when the paragraph fits on the first
  // screen; else at the paragraph, the title kept above it in a thin bar.
  function showShared() {
    var shared = $(".shared-paragraph");
    var heading = document.getElementById("section-title");
    if (!shared || !heading) return;
    var bar = $(".shared-title");
    if (bar && "IntersectionObserver" in window) {
      bar.hidden = false;
      new IntersectionObserver(function (entries) {
        bar.classList.toggle("is-stuck", !entries[0].isIntersecting);
      }).observe(heading);
    }
    if (location.hash) return;
    var tools = $(".section-tools");
    var bottom = window.innerHeight - (tools && getComputedStyle(tools).position === "fixed" ? tools.offsetHeight : 0);
    if (shared.getBoundingClientRect().bottom > bottom) shared.scrollIntoView({ block: "start" });
  }

  // A reading list, once opened, is kept with the saved sections (the service worker serves it offline).
  function keepListOffline() {
    if (!$("[data-keep-offline]") || !("caches" in window) || !window.isSecureContext) return;
    var url = location.href.split("#")[0];
    fetch(url, { credentials: "omit" }).then(function (response) {
      if (!response.ok || response.redirected) return;
      return caches.open(SAVED_PAGES).then(function (cache) { return cache.put(url, response); });
    }).catch(function () { /* offline already: the copy saved before stays */ });
  }

  // At the table: text size, on every page ----------------------------------------------------------------------
  function applySize(step) {
    SIZES.forEach(function (s) { root.classList.remove("text-size-" + s); });
    if (step) root.classList.add("text-size-" + step);
  }
  var size = load(SIZE, 0);
  if (SIZES.indexOf(size) < 0) size = 0;
  applySize(size);

  function initTextSize(settings) {
    var output = $(".text-size output", settings);
    var percent = { "-1": 90, "0": 100, "1": 115, "2": 130, "3": 150 };
    function show() { if (output) output.textContent = percent[size] + "%"; }
    $$(".text-size button", settings).forEach(function (button) {
      button.addEventListener("click", function () {
        var next = size + Number(button.getAttribute("data-step"));
        if (SIZES.indexOf(next) < 0) return;
        size = next;
        store(SIZE, size);
        applySize(size);
        show();
      });
    });
    show();
  }

  // Pinned and recently read paragraphs ------------------------------------------------------------------------
  function sameParagraph(a, b) { return a.number === b.number && a.key === b.key; }

  function remember(list, item, limit) {
    var items = load(list, []).filter(function (other) {
      return item.key ? !sameParagraph(other, item) : other.key || other.number !== item.number;
    });
    items.unshift(item);
    store(list, items.slice(0, limit));
  }

  function sectionOfPage() {
    var h1 = document.getElementById("section-title");
    if (!h1) return null;
    // A shared paragraph's page is its section's page: what is kept links to the section.
    var canonical = $("article.shared") && $("link[rel='canonical']");
    var number = $(".number", h1);
    var title = $("[lang]", h1);
    return {
      number: number ? number.textContent.trim() : "",
      title: title ? title.textContent.trim() : "",
      titleLang: title ? title.getAttribute("lang") : pageLang,
      path: canonical ? new URL(canonical.href).pathname : location.pathname,
    };
  }

  function excerpt(row) {
    var text = $(":scope > .text:not(.missing)", row) || $(":scope > .text", row);
    if (!text) return { text: "", lang: pageLang };
    var clone = text.cloneNode(true);
    $$(".column-name, .missing-label, .lag, .example-label", clone).forEach(function (n) { n.remove(); });
    var words = clone.textContent.replace(/\s+/g, " ").trim();
    return { text: words.length > 100 ? words.slice(0, 99) + "…" : words, lang: text.getAttribute("lang") };
  }

  function paragraphItem(section, row) {
    var words = excerpt(row);
    return {
      number: section.number, title: section.title, titleLang: section.titleLang, path: section.path,
      key: row.id, name: ($(":scope > .permalink", row) || row).getAttribute("aria-label") || "", nameLang: pageLang, text: words.text, lang: words.lang,
    };
  }

  function setPinned(button, pinned) {
    button.setAttribute("aria-pressed", pinned ? "true" : "false");
    button.textContent = pinned ? "★" : "☆";
  }

  function togglePin(section, row, button) {
    var item = paragraphItem(section, row);
    var pins = load(PINS, []);
    var pinned = pins.some(function (p) { return sameParagraph(p, item); });
    store(PINS, pinned ? pins.filter(function (p) { return !sameParagraph(p, item); }) : [item].concat(pins));
    setPinned(button, !pinned);
  }

  // The outline lists them; they read offline, as the outline and the sections are saved by the service worker.
  function renderDeviceLists() {
    var box = document.getElementById("on-this-device");
    if (!box) return;
    var unpinLabel = box.getAttribute("data-unpin");
    var recent = load(RECENT, []);
    var lists = [
      [".pinned", load(PINS, []), true],
      [".recent-paragraphs", recent.filter(function (i) { return i.key; }), false],
      [".recent-sections", recent.filter(function (i) { return !i.key; }), false],
    ];
    var any = false;
    lists.forEach(function (entry) {
      var wrap = $(entry[0], box);
      var list = $("ol", wrap);
      list.textContent = "";
      entry[1].forEach(function (item) {
        if (typeof item.path !== "string" || !/^\/(?![\/\\])/.test(item.path)) return;  // only this site's pages
        var li = el("li");
        var link = el("a", "device-link");
        link.href = item.path + (item.key ? "#" + encodeURIComponent(item.key) : "");
        link.appendChild(el("span", "number", item.number));
        // A paragraph by its name (its ¶'s label, "Example C"), never its key.
        var title = el("span", "device-title", item.key ? item.name || "¶" : item.title);
        if (!item.key) title.setAttribute("lang", item.titleLang || pageLang);
        else if (item.nameLang && item.nameLang !== pageLang) title.setAttribute("lang", item.nameLang);
        link.appendChild(title);
        li.appendChild(link);
        if (item.text) {
          var words = el("span", "device-excerpt", item.text);
          words.setAttribute("lang", item.lang || pageLang);
          li.appendChild(words);
        }
        if (entry[2]) {
          var unpin = el("button", "unpin", "★");
          unpin.type = "button";
          unpin.setAttribute("aria-label", unpinLabel + ": " + item.number + " " + (item.name || ""));
          unpin.addEventListener("click", function () {
            store(PINS, load(PINS, []).filter(function (p) { return !sameParagraph(p, item); }));
            renderDeviceLists();
          });
          li.appendChild(unpin);
        }
        list.appendChild(li);
      });
      wrap.hidden = !list.children.length;
      any = any || !wrap.hidden;
    });
    box.hidden = !any;
  }

  // A paragraph in the player's language, in place ---------------------------------------------------------------
  var pages = {};

  // The same section in another language: the plain page, as everyone gets it (no cookie, so no redirect to
  // a remembered compare choice). Offline, the copy the service worker saved, if it saved that language.
  function sectionIn(code) {
    if (pages[code]) return pages[code];
    var alternate = $("link[rel='alternate'][hreflang='" + htmlLang(code) + "']");
    if (!alternate) return Promise.reject(new Error("no page"));
    var release = new URLSearchParams(location.search).get("release");
    var url = location.origin + new URL(alternate.href).pathname + (release ? "?release=" + encodeURIComponent(release) : "");
    function saved() {
      if (!window.caches) return Promise.reject(new Error("offline"));
      return caches.match(url, { cacheName: SAVED_PAGES, ignoreVary: true })
        .then(function (response) { return response ? response.text() : Promise.reject(new Error("not saved")); });
    }
    var fetched = navigator.onLine ? fetch(url, { credentials: "omit" }) : Promise.reject(new Error("offline"));
    pages[code] = fetched
      .then(function (response) { return response.ok ? response.text() : Promise.reject(new Error(response.status)); })
      .catch(saved)
      .then(function (html) { return new DOMParser().parseFromString(html, "text/html"); });
    pages[code].catch(function () { delete pages[code]; });
    return pages[code];
  }

  // `name`: the language's own name (the caption, in its lang); `called`: as the page's language calls it.
  function fill(box, doc, key, code, strings, name, called) {
    box.textContent = "";
    box.setAttribute("lang", htmlLang(code));
    var caption = el("span", "in-place-name", name);
    caption.setAttribute("lang", htmlLang(code));
    box.appendChild(caption);
    var source = null;
    $$(".row", doc).forEach(function (row) { if (row.id === key) source = $(".text", row); });
    if (!source || source.classList.contains("missing")) {
      var missing = el("p", "missing-label", strings.missing.replace("{language}", called || name));
      missing.setAttribute("lang", pageLang);
      box.appendChild(missing);
      return;
    }
    Array.prototype.forEach.call(source.childNodes, function (node) {
      if (node.nodeType === 1 && node.matches(".column-name, .missing-label")) return;
      box.appendChild(document.importNode(node, true));
    });
    $$("[id]", box).forEach(function (n) { n.removeAttribute("id"); });
    // A term's card stays on the other page: here its mark is a plain link to the glossary.
    $$("[aria-controls]", box).forEach(function (n) { n.removeAttribute("aria-controls"); });
  }

  function showInPlace(row, code, strings, name, called) {
    var box = $(":scope > .in-place", row);
    if (!box) {
      box = el("div", "in-place");
      row.insertBefore(box, $(":scope > .row-tools", row));
    }
    box.setAttribute("data-code", code);
    box.setAttribute("aria-busy", "true");
    box.setAttribute("lang", pageLang);
    box.textContent = strings.loading;
    return sectionIn(code).then(function (doc) {
      if (box.getAttribute("data-code") === code) fill(box, doc, row.id, code, strings, name, called);
    }, function () {
      box.textContent = strings.failed;
    }).then(function () {
      box.removeAttribute("aria-busy");
      reveal(box);
    });
  }

  // The player's language until one is picked: the browser's next language this page does not show (a judge's
  // phone set to Japanese then English offers English), else the first one offered. Every language's sections are
  // saved for offline reading with the page's own (ipgsite/offline), so any of them shows offline.
  function browserLanguage(offered) {
    var tags = navigator.languages || [navigator.language || ""];
    for (var i = 0; i < tags.length; i++) {
      var tag = String(tags[i]).toLowerCase();
      var code = tag.indexOf("zh") === 0 ? "zh-hans" : tag.split("-")[0];
      if (offered.indexOf(code) >= 0) return code;
    }
    return offered[0];
  }

  // Show mode: one paragraph large, for handing the phone across the table ----------------------------------------
  var wakeLock = null;

  function requestWakeLock(dialog) {
    if (!("wakeLock" in navigator)) { dialog.setAttribute("data-wake-lock", "unsupported"); return; }
    navigator.wakeLock.request("screen").then(function (lock) {
      if (!dialog.open) { lock.release(); return; }
      wakeLock = lock;
      dialog.setAttribute("data-wake-lock", "on");
      lock.addEventListener("release", function () {
        if (dialog.open) dialog.setAttribute("data-wake-lock", "released");
      });
    }, function () { dialog.setAttribute("data-wake-lock", "refused"); });
  }

  function clean(text) {
    var clone = text.cloneNode(true);
    $$("[id]", clone).forEach(function (n) { n.removeAttribute("id"); });
    $$("a", clone).forEach(function (a) {
      ["href", "aria-controls", "aria-expanded"].forEach(function (name) { a.removeAttribute(name); });
    });
    return clone;
  }

  // The player's language first, large; the page's text under it, folded when the reader wants the player's alone.
  // `player`: {code, name, called}, or null when the page shows every language already.
  function openShowMode(section, row, strings, opener, player) {
    var dialog = el("dialog", "show-mode");
    dialog.setAttribute("lang", pageLang);
    dialog.setAttribute("aria-label", section.number + " " + row.id);
    var close = el("button", "show-close", "← " + strings.close);
    close.type = "button";
    dialog.appendChild(close);
    var where = el("p", "show-where", section.number + " · ");
    var title = el("span", "", section.title);
    title.setAttribute("lang", section.titleLang);
    where.appendChild(title);
    dialog.appendChild(where);
    var texts = $$(":scope > .text", row);
    if (player) {
      var shown = $(":scope > .in-place[data-code='" + player.code + "']:not([aria-busy])", row);
      var box = shown ? clean(shown) : el("div", "in-place");
      box.classList.add("show-player");
      dialog.appendChild(box);
      if (!shown) {
        box.textContent = strings.loading;
        sectionIn(player.code).then(function (doc) { fill(box, doc, row.id, player.code, strings, player.name, player.called); },
          function () { box.textContent = strings.failed; });
      }
      var alone = load(ALONE, false) === true;
      var judge = el("details", "show-judge");
      judge.open = !alone;
      judge.appendChild(el("summary", "", strings.judge));
      texts.forEach(function (text) { judge.appendChild(clean(text)); });
      var only = el("button", "show-alone", strings.alone);
      only.type = "button";
      only.setAttribute("aria-pressed", alone ? "true" : "false");
      only.addEventListener("click", function () {
        alone = !alone;
        store(ALONE, alone);
        only.setAttribute("aria-pressed", alone ? "true" : "false");
        judge.open = !alone;
      });
      close.after(only);
      dialog.appendChild(judge);
    } else {
      $$(":scope > .text, :scope > .in-place", row).forEach(function (text) { dialog.appendChild(clean(text)); });
    }
    // One tap anywhere returns to the page.
    dialog.addEventListener("click", function (event) {
      if (!closest(event, ".show-alone, .show-judge > summary")) dialog.close();
    });
    dialog.addEventListener("close", function () {
      if (wakeLock) { wakeLock.release(); wakeLock = null; }
      dialog.remove();
      root.classList.remove("showing");
      if (opener) opener.focus();
    });
    document.body.appendChild(dialog);
    root.classList.add("showing");
    dialog.showModal();
    close.focus();
    requestWakeLock(dialog);
  }

  document.addEventListener("visibilitychange", function () {
    var dialog = $("dialog.show-mode[open]");
    if (dialog && document.visibilityState === "visible" && !wakeLock) requestWakeLock(dialog);
  });

  // The section page: the reading settings and each paragraph's tools ---------------------------------------------
  function initSection() {
    var section = sectionOfPage();
    var settings = $(".reading-settings");
    if (!section || !settings) return;
    settings.hidden = false;
    initTextSize(settings);
    var strings = {};
    ["show", "show-label", "close", "pin", "missing", "failed", "loading", "judge", "alone"].forEach(function (name) {
      strings[name.replace("-l", "L")] = settings.getAttribute("data-" + name);
    });
    remember(RECENT, { number: section.number, title: section.title, titleLang: section.titleLang, path: section.path }, 12);

    // The player's language: picked once, remembered on this device, among the languages the page does not show.
    var select = $(".player-language select", settings);
    var player = null;
    function playerName() { return select.options[select.selectedIndex].textContent; }
    function playerCalled() { return select.options[select.selectedIndex].getAttribute("data-called") || playerName(); }
    if (select) {
      var remembered = load(PLAYER, null);
      var offered = Array.prototype.map.call(select.options, function (o) { return o.value; });
      select.value = offered.indexOf(remembered) >= 0 ? remembered : browserLanguage(offered);
      player = select.value;
    }

    $$("article.section .row[id]").forEach(function (row) {
      var tools = $(":scope > .row-tools", row);
      if (!tools) {
        tools = el("p", "row-tools");
        if (row.hasAttribute("lang") && row.getAttribute("lang") !== pageLang) tools.setAttribute("lang", pageLang);
        row.appendChild(tools);
      }
      var toggle = $("a.in-other-language", tools);
      if (toggle) {
        toggle.setAttribute("aria-expanded", "false");
        toggle.setAttribute("data-label", toggle.getAttribute("aria-label"));
        toggle.addEventListener("click", function (event) {
          event.preventDefault();
          var shown = toggle.getAttribute("aria-expanded") === "true";
          toggle.setAttribute("aria-expanded", shown ? "false" : "true");
          if (shown) {
            var box = $(":scope > .in-place", row);
            if (box) box.remove();
            return;
          }
          showInPlace(row, player, strings, playerName(), playerCalled());
          remember(RECENT, paragraphItem(section, row), 12);
        });
      }
      var show = el("button", "show-paragraph", strings.show);
      show.type = "button";
      show.setAttribute("aria-label", strings.showLabel);
      show.setAttribute("aria-haspopup", "dialog");
      show.addEventListener("click", function () {
        remember(RECENT, paragraphItem(section, row), 12);
        openShowMode(section, row, strings, show, select ? { code: player, name: playerName(), called: playerCalled() } : null);
      });
      var pin = el("button", "pin-paragraph");
      pin.type = "button";
      pin.setAttribute("aria-label", strings.pin);
      setPinned(pin, load(PINS, []).some(function (p) { return sameParagraph(p, { number: section.number, key: row.id }); }));
      pin.addEventListener("click", function () { togglePin(section, row, pin); });
      tools.appendChild(show);
      tools.appendChild(pin);
    });

    function relabel() {
      var name = playerName(), called = playerCalled();
      $$("a.in-other-language").forEach(function (toggle) {
        var label = $(".language-name", toggle);
        var before = toggle.getAttribute("data-called") || label.textContent;
        label.textContent = name;
        label.setAttribute("lang", htmlLang(player));
        toggle.setAttribute("data-called", called);
        toggle.setAttribute("aria-label", toggle.getAttribute("data-label").replace(before, called));
        toggle.setAttribute("data-label", toggle.getAttribute("aria-label"));
        toggle.href = toggle.getAttribute("href").replace(/,[a-z-]+(?=[&#])/, "," + player);
      });
    }
    if (select) {
      relabel();
      select.addEventListener("change", function () {
        player = select.value;
        store(PLAYER, player);
        relabel();
        $$("article.section .row > .in-place").forEach(function (box) {
          showInPlace(box.parentNode, player, strings, playerName(), playerCalled());
        });
      });
    }

    function rememberTarget() {
      var row = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (row && row.classList.contains("row")) remember(RECENT, paragraphItem(section, row), 12);
    }
    rememberTarget();
    window.addEventListener("hashchange", rememberTarget);
  }

  window.addEventListener("beforeprint", function () { setNotes(true, $(".toggle-notes")); });
  document.addEventListener("DOMContentLoaded", function () {
    // The ¶ menu's listener before the link's: the menu is placed, then the paragraph scrolled to.
    initMenus();
    initCopy();
    showShared();
    keepListOffline();
    initNotes();
    initPermalinks();
    initLanguageSwitch();
    initTerms();
    initPanels();
    initSection();
    renderDeviceLists();
  });
})();
