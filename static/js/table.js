// At the table: a paragraph in the player's language in place, shown large to a player, pinned and recently
// read paragraphs, the text size. Kept in this browser's local storage only; nothing is sent to the server.
// Every page reads without this script: the per-paragraph control is then a link to the compare view.
(function () {
  "use strict";
  var PINS = "ipg-pins", RECENT = "ipg-recent", PLAYER = "ipg-player-language", SIZE = "ipg-text-size";
  var SIZES = [-1, 0, 1, 2, 3];  // html.text-size-N in static/css/site.css
  var SAVED_PAGES = "ipg-pages";  // the service worker's cache (ipgsite/offline/templates/offline/sw.js)
  var root = document.documentElement;
  var pageLang = root.getAttribute("lang") || "en";

  function load(name, fallback) {
    try {
      var value = JSON.parse(window.localStorage.getItem(name));
      return value === null ? fallback : value;
    } catch (e) { return fallback; }
  }
  function store(name, value) {
    try { window.localStorage.setItem(name, JSON.stringify(value)); } catch (e) { /* storage may be off */ }
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // Text size, on every page ------------------------------------------------------------------------------
  function applySize(step) {
    SIZES.forEach(function (s) { root.classList.remove("text-size-" + s); });
    if (step) root.classList.add("text-size-" + step);
  }
  var size = load(SIZE, 0);
  if (SIZES.indexOf(size) < 0) size = 0;
  applySize(size);

  function initTextSize(settings) {
    var output = settings.querySelector(".text-size output");
    var percent = { "-1": 90, "0": 100, "1": 115, "2": 130, "3": 150 };
    function show() { if (output) output.textContent = percent[size] + "%"; }
    settings.querySelectorAll(".text-size button").forEach(function (button) {
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

  // Pinned and recently read paragraphs ------------------------------------------------------------------
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
    var number = h1.querySelector(".number");
    var title = h1.querySelector("[lang]");
    return {
      number: number ? number.textContent.trim() : "",
      title: title ? title.textContent.trim() : "",
      titleLang: title ? title.getAttribute("lang") : pageLang,
      path: location.pathname,
    };
  }

  function excerpt(row) {
    var text = row.querySelector(":scope > .text:not(.missing)") || row.querySelector(":scope > .text");
    if (!text) return { text: "", lang: pageLang };
    var copy = text.cloneNode(true);
    copy.querySelectorAll(".column-name, .missing-label, .lag, .example-label").forEach(function (n) { n.remove(); });
    var words = copy.textContent.replace(/\s+/g, " ").trim();
    return { text: words.length > 100 ? words.slice(0, 99) + "…" : words, lang: text.getAttribute("lang") };
  }

  function paragraphItem(section, row) {
    var words = excerpt(row);
    return {
      number: section.number, title: section.title, titleLang: section.titleLang, path: section.path,
      key: row.id, text: words.text, lang: words.lang,
    };
  }

  function isPinned(section, key) {
    return load(PINS, []).some(function (p) { return sameParagraph(p, { number: section.number, key: key }); });
  }

  function setPinned(button, pinned) {
    button.setAttribute("aria-pressed", pinned ? "true" : "false");
    button.textContent = pinned ? "★" : "☆";
  }

  function togglePin(section, row, button) {
    var pins = load(PINS, []);
    var item = paragraphItem(section, row);
    var pinned = pins.some(function (p) { return sameParagraph(p, item); });
    if (pinned) {
      store(PINS, pins.filter(function (p) { return !sameParagraph(p, item); }));
    } else {
      pins.unshift(item);
      store(PINS, pins);
    }
    setPinned(button, !pinned);
  }

  // The outline lists them; they read offline, as the outline and the sections are saved by the service worker.
  function renderDeviceLists() {
    var box = document.getElementById("on-this-device");
    if (!box) return;
    var unpinLabel = box.getAttribute("data-unpin");
    var lists = [
      [".pinned", load(PINS, []), true],
      [".recent-paragraphs", load(RECENT, []).filter(function (i) { return i.key; }), false],
      [".recent-sections", load(RECENT, []).filter(function (i) { return !i.key; }), false],
    ];
    var any = false;
    lists.forEach(function (entry) {
      var wrap = box.querySelector(entry[0]);
      var list = wrap.querySelector("ol");
      list.textContent = "";
      entry[1].forEach(function (item) {
        if (typeof item.path !== "string" || !/^\/(?![\/\\])/.test(item.path)) return;  // only this site's pages
        var li = el("li");
        var link = el("a", "device-link");
        link.href = item.path + (item.key ? "#" + encodeURIComponent(item.key) : "");
        link.appendChild(el("span", "number", item.number));
        var title = el("span", "device-title", item.key ? item.key : item.title);
        if (!item.key) title.setAttribute("lang", item.titleLang || pageLang);
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
          unpin.setAttribute("aria-label", unpinLabel + ": " + item.number + " " + item.key);
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

  // A paragraph in the player's language, in place -------------------------------------------------------
  var pages = {};

  function htmlLang(code) { return code === "zh-hans" ? "zh-Hans" : code; }

  // The same section in another language: the plain page, as everyone gets it (no cookie, so no redirect to
  // a remembered compare choice). Offline, the copy the service worker saved, if it saved that language.
  function sectionIn(code) {
    if (pages[code]) return pages[code];
    var alternate = document.querySelector("link[rel='alternate'][hreflang='" + htmlLang(code) + "']");
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

  function fill(box, doc, key, code, strings, name) {
    box.textContent = "";
    box.setAttribute("lang", htmlLang(code));
    var caption = el("span", "in-place-name", name);
    caption.setAttribute("lang", htmlLang(code));
    box.appendChild(caption);
    var source = null;
    doc.querySelectorAll(".row").forEach(function (row) { if (row.id === key) source = row.querySelector(".text"); });
    if (!source || source.classList.contains("missing")) {
      var missing = el("p", "missing-label", strings.missing.replace("{language}", name));
      missing.setAttribute("lang", pageLang);
      box.appendChild(missing);
      return;
    }
    Array.prototype.forEach.call(source.childNodes, function (node) {
      if (node.nodeType === 1 && node.matches(".column-name, .missing-label")) return;
      box.appendChild(document.importNode(node, true));
    });
    box.querySelectorAll("[id]").forEach(function (n) { n.removeAttribute("id"); });
    // A term's card stays on the other page: here its mark is a plain link to the glossary.
    box.querySelectorAll("[aria-controls]").forEach(function (n) { n.removeAttribute("aria-controls"); });
  }

  function showInPlace(row, code, strings, name) {
    var box = row.querySelector(":scope > .in-place");
    if (!box) {
      box = el("div", "in-place");
      row.insertBefore(box, row.querySelector(":scope > .row-tools"));
    }
    box.setAttribute("data-code", code);
    box.setAttribute("aria-busy", "true");
    box.setAttribute("lang", pageLang);
    box.textContent = strings.loading;
    return sectionIn(code).then(function (doc) {
      if (box.getAttribute("data-code") === code) fill(box, doc, row.id, code, strings, name);
    }, function () {
      box.textContent = strings.failed;
    }).then(function () {
      box.removeAttribute("aria-busy");
      if (window.ipgReveal) window.ipgReveal(box);
    });
  }

  // Asks the service worker to keep the player's language too, so that it shows offline.
  function keepOffline(code) {
    if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return;
    navigator.serviceWorker.controller.postMessage({ type: "save", lang: code, langs: "" });
  }

  // Show mode: one paragraph large, for handing the phone across the table ------------------------------------
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

  function openShowMode(section, row, strings, opener) {
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
    row.querySelectorAll(":scope > .text, :scope > .in-place").forEach(function (text) {
      var copy = text.cloneNode(true);
      copy.querySelectorAll("[id]").forEach(function (n) { n.removeAttribute("id"); });
      copy.querySelectorAll("a").forEach(function (a) {
        ["href", "aria-controls", "aria-expanded"].forEach(function (name) { a.removeAttribute(name); });
      });
      dialog.appendChild(copy);
    });
    // One tap anywhere returns to the page.
    dialog.addEventListener("click", function () { dialog.close(); });
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
    var dialog = document.querySelector("dialog.show-mode[open]");
    if (dialog && document.visibilityState === "visible" && !wakeLock) requestWakeLock(dialog);
  });

  // The section page ------------------------------------------------------------------------------------
  function initSection() {
    var section = sectionOfPage();
    var settings = document.querySelector(".reading-settings");
    if (!section || !settings) return;
    settings.hidden = false;
    initTextSize(settings);
    var strings = {
      show: settings.getAttribute("data-show"), showLabel: settings.getAttribute("data-show-label"),
      close: settings.getAttribute("data-close"), pin: settings.getAttribute("data-pin"),
      missing: settings.getAttribute("data-missing"), failed: settings.getAttribute("data-failed"),
      loading: settings.getAttribute("data-loading"),
    };
    remember(RECENT, { number: section.number, title: section.title, titleLang: section.titleLang, path: section.path }, 12);

    // The player's language: picked once, remembered on this device, among the languages the page does not show.
    var select = settings.querySelector(".player-language select");
    var player = null;
    function playerName() { return select.options[select.selectedIndex].textContent; }
    if (select) {
      var remembered = load(PLAYER, null);
      var offered = Array.prototype.map.call(select.options, function (o) { return o.value; });
      if (offered.indexOf(remembered) >= 0) select.value = remembered;
      player = select.value;
    }

    var rows = document.querySelectorAll("article.section .row[id]");
    rows.forEach(function (row) {
      var tools = row.querySelector(":scope > .row-tools");
      if (!tools) { tools = el("p", "row-tools"); row.appendChild(tools); }
      var toggle = tools.querySelector("a.in-other-language");
      if (toggle) {
        toggle.setAttribute("aria-expanded", "false");
        toggle.setAttribute("data-label", toggle.getAttribute("aria-label"));
        toggle.addEventListener("click", function (event) {
          event.preventDefault();
          var shown = toggle.getAttribute("aria-expanded") === "true";
          toggle.setAttribute("aria-expanded", shown ? "false" : "true");
          if (shown) {
            var box = row.querySelector(":scope > .in-place");
            if (box) box.remove();
            return;
          }
          showInPlace(row, player, strings, playerName());
          keepOffline(player);
          remember(RECENT, paragraphItem(section, row), 12);
        });
      }
      var show = el("button", "show-paragraph", strings.show);
      show.type = "button";
      show.setAttribute("aria-label", strings.showLabel);
      show.setAttribute("aria-haspopup", "dialog");
      show.addEventListener("click", function () {
        remember(RECENT, paragraphItem(section, row), 12);
        openShowMode(section, row, strings, show);
      });
      var pin = el("button", "pin-paragraph");
      pin.type = "button";
      pin.setAttribute("aria-label", strings.pin);
      setPinned(pin, isPinned(section, row.id));
      pin.addEventListener("click", function () { togglePin(section, row, pin); });
      tools.appendChild(show);
      tools.appendChild(pin);
    });

    function relabel() {
      var name = playerName();
      document.querySelectorAll("a.in-other-language").forEach(function (toggle) {
        var label = toggle.querySelector(".language-name");
        var before = label.textContent;
        label.textContent = name;
        label.setAttribute("lang", htmlLang(player));
        toggle.setAttribute("aria-label", toggle.getAttribute("data-label").replace(before, name));
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
        document.querySelectorAll("article.section .row > .in-place").forEach(function (box) {
          showInPlace(box.parentNode, player, strings, playerName());
        });
        keepOffline(player);
      });
    }

    function rememberTarget() {
      var row = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (row && row.classList.contains("row")) remember(RECENT, paragraphItem(section, row), 12);
    }
    rememberTarget();
    window.addEventListener("hashchange", rememberTarget);
  }

  document.addEventListener("DOMContentLoaded", function () {
    initSection();
    renderDeviceLists();
  });
})();
