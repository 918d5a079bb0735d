/* The IPG linker. On any site: <script src="https://<this site>/linker.js" defer></script>
 * References in the page's text (a section's number after a name of the IPG, its title or alias in any language,
 * an example's letter) become links to the paragraph or section; hovering, focusing or tapping one shows it in the page's language (its lang) and the reader's.
 * Options on the script tag: data-selector (where to look, default body), data-exclude (selectors to leave alone),
 * data-langs ("en,ja": languages to show after the page's). Names and messages come from /api/linker/; no cookies.
 * The reader's languages: those they compare on the site, once they ask for them in a preview (the site's
 * /linker/languages/ in a window of its own posts them back; kept in this page's localStorage), else data-langs,
 * else the browser's. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.fetch || !document.createTreeWalker || !Element.prototype.closest) return;
  var base = new URL("/", script.src).href, site = new URL(base).origin, KEY = "ipg-linker-langs";
  var opts = script.dataset;
  var SKIP = "a,code,pre,kbd,samp,var,script,style,textarea,input,select,option,button,noscript,template,svg," +
    "math,[contenteditable],.ipg-nolink" + (opts.exclude ? "," + opts.exclude : "");
  var DASH = "[-‐‑‒–—―─━~～〜]";
  var WORD = /[A-Za-z0-9]/;
  var cache = {}, data, regex, byName = {}, byNumber = {}, tip, shown, pointer = "", armed = false, mine, asked;
  try { mine = (localStorage.getItem(KEY) || "").split(",").filter(Boolean); } catch (e) { mine = []; }

  function get(path) {
    if (!cache[path]) {
      cache[path] = fetch(base + path, { credentials: "omit" }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.json();
      });
    }
    return cache[path];
  }

  function esc(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  function canonical(s) { return s.trim().replace(new RegExp("\\s*" + DASH + "+\\s*", "g"), "—").replace(/\s+/g, " "); }

  function pattern(name) {
    return name.split("—").map(function (p) { return p.split(" ").map(esc).join("\\s+"); })
      .join("\\s*" + DASH + "+\\s*");
  }

  function any(list) { return "(?:" + list.map(esc).join("|") + ")"; }

  function build() {
    var names = [];
    data.sections.forEach(function (s) {
      byNumber[s.number] = s;
      s.names.forEach(function (n) { byName[n] = s; names.push(n); });
    });
    names.sort(function (a, b) { return b.length - a.length; });
    var num = "(\\d+\\.\\d+)(?![.]?\\d)";
    var suffix = "\\s*[" + data.suffixes.join("") + "]";
    // a comma may stand between the section and the example: "IPG 2.3, Example C", "2.3，例C"
    var example = "\\s*[,，、]?\\s*" + any(data.examples) + "\\s*[(（]?([A-Z])[)）]?";
    var ahead = "\\s*[,，、]?\\s*" + any(data.examples) + "\\s*[(（]?[A-Z]";
    var mtr = any(data.mtr) + "\\s*(?:[Ss]ection\\s*|§\\s*)?\\d+(?:\\.\\d+)*(?:" + suffix + ")?";
    regex = new RegExp("(" + mtr + ")|" + any(data.document.concat(data.prefixes)) + "\\s*" + num +
      "(?:" + suffix + ")?(?:" + example + ")?|" + num + suffix + "(?:" + example + ")?|" + num + "(?=" + ahead +
      ")" + example + (names.length ? "|(" + names.map(pattern).join("|") + ")(?:" + example + ")?" : ""), "g");
  }

  function code(tag) {
    tag = (tag || "").toLowerCase();
    return tag.indexOf("zh") === 0 ? "zh-hans" : tag.indexOf("ja") === 0 ? "ja" : tag.indexOf("en") === 0 ? "en" : "";
  }

  function hostLang(el) {
    var l = el.closest("[lang]");
    return code(l ? l.getAttribute("lang") : "") || "en";
  }

  function htmlLang(c) { return c === "zh-hans" ? "zh-Hans" : c; }

  // [start, end, section, key] of a match, or null when it is no reference.
  function reference(m, text) {
    var start = m.index, end = start + m[0].length;
    if (WORD.test(m[0][0]) && start > 0 && /[A-Za-z0-9.]/.test(text[start - 1])) return null;
    if (WORD.test(m[0][m[0].length - 1]) && WORD.test(text[end] || "")) return null;
    if (/^\s+(?:of|in)\s+the\s+(?:MTR|Magic Tournament Rules)/.test(text.slice(end))) return null;
    var section = m[8] ? byName[canonical(m[8])] : byNumber[m[2] || m[4] || m[6]];
    if (!section) return null;
    var letter = m[3] || m[5] || m[7] || m[9];
    var key = letter ? section.examples[letter.charCodeAt(0) - 65] : "";
    return [start, end, section, key || ""];
  }

  function wrap(node) {
    var text = node.data, m, found, out = null, at = 0;
    regex.lastIndex = 0;
    while ((m = regex.exec(text))) {
      if (m[1]) continue; // the MTR's numbers are not the IPG's
      found = reference(m, text);
      if (!found) { regex.lastIndex = m.index + 1; continue; }
      out = out || document.createDocumentFragment();
      out.appendChild(document.createTextNode(text.slice(at, found[0])));
      var a = document.createElement("a");
      var c = hostLang(node.parentElement);
      a.className = "ipg-ref";
      a.href = base + c + "/ipg/" + found[2].number + "/" + (found[3] ? found[3] + "/" : "");
      a.dataset.ipg = found[2].number;
      a.dataset.key = found[3];
      a.textContent = text.slice(found[0], found[1]);
      a.style.textDecorationStyle = "dotted";
      out.appendChild(a);
      at = found[1];
    }
    if (!out) return;
    out.appendChild(document.createTextNode(text.slice(at)));
    node.parentNode.replaceChild(out, node);
  }

  function link(root) {
    if (!regex) return;
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (n) {
        return n.parentElement && !n.parentElement.closest(SKIP) && /\d|\S{2}/.test(n.data) ?
          NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      },
    });
    var nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    nodes.forEach(wrap);
  }

  // The page's language first, then the reader's: those they compare on the site, else data-langs, else the browser's.
  function langs(first) {
    var theirs = mine.length ? mine : opts.langs ? opts.langs.split(",") : navigator.languages || [];
    var wanted = [first].concat(theirs.map(code));
    return wanted.filter(function (c, i) { return c && wanted.indexOf(c) === i; });
  }

  function el(tag, text, lang, css) {
    var e = document.createElement(tag);
    if (text) e.textContent = text;
    if (lang) e.lang = htmlLang(lang);
    Object.assign(e.style, css || {});
    return e;
  }

  function plain(html) { return new DOMParser().parseFromString(html, "text/html").body.textContent.trim(); }

  function fill(a, paragraph) {
    var section = byNumber[a.dataset.ipg], first = hostLang(a), msg = data.messages[first];
    var title = section.title[first] || section.title.en;
    tip.textContent = "";
    var head = el("p", "", first, { margin: "0 0 .4em", fontWeight: "600" });
    head.appendChild(el("span", "IPG " + section.number + " "));
    head.appendChild(el("span", title, section.title[first] ? first : "en"));
    if (a.dataset.key && paragraph && paragraph.label) head.appendChild(el("span", " · " + msg.example.replace("%(letter)s", paragraph.label)));
    if (section.penalty) head.appendChild(el("span", " · " + msg.penalties[section.penalty]));
    tip.appendChild(head);
    if (paragraph === undefined) return tip.appendChild(el("p", msg.loading, first));
    if (paragraph === null) return tip.appendChild(el("p", msg[section.lead ? "failed" : "no_text"], first));
    var several = langs(first);
    several.forEach(function (c) {
      var block = el("div", "", c, { margin: ".4em 0" });
      if (several.length > 1) block.appendChild(el("div", data.languages[c], c, { fontSize: "12px", color: "#5c6370" }));
      if (paragraph.html[c]) block.appendChild(el("p", plain(paragraph.html[c]), c, { margin: "0" }));
      else block.appendChild(el("p", msg.missing.replace("%(language)s", msg.languages[c]), first, { margin: "0", fontStyle: "italic" }));
      tip.appendChild(block);
    });
    // The languages the reader compares on the site: asked of the site's own page, in a window of its own.
    if (mine.none) return tip.appendChild(el("p", msg.none, first, { margin: ".4em 0 0", fontSize: "12px" }));
    var ask = el("button", msg.mine, first, { font: "inherit", fontSize: "12px", marginTop: ".2em", cursor: "pointer" });
    ask.type = "button";
    ask.className = "ipg-mine";
    ask.addEventListener("click", function () {
      asked = a;
      window.open(base + "linker/languages/?lang=" + first + "&origin=" + encodeURIComponent(location.origin),
        "ipg-languages", "popup,width=480,height=360");
    });
    tip.appendChild(ask);
  }

  function answered(e) {
    if (e.origin !== site || !data || !e.data || !Array.isArray(e.data.ipgLangs)) return;
    mine = e.data.ipgLangs.filter(function (c) { return data.languages[c]; });
    mine.none = !mine.length;
    try {
      if (mine.length) localStorage.setItem(KEY, mine.join(","));
      else localStorage.removeItem(KEY);
    } catch (err) { /* kept for this page only */ }
    var a = shown || asked; // the window may have taken the focus, and the preview closed meanwhile
    if (!a) return;
    var back = tip.contains(document.activeElement);
    show(a);
    if (back) a.focus(); // the button it was on is gone: back to its link
  }

  function show(a) {
    if (!tip) {
      tip = el("div", "", "", {
        position: "absolute", zIndex: "2147483000", maxWidth: "min(24rem, calc(100vw - 16px))", maxHeight: "50vh",
        overflow: "auto", boxSizing: "border-box", padding: "10px 12px", background: "#fff", color: "#1b1b1b",
        border: "1px solid #1d3557", borderRadius: "4px", boxShadow: "0 2px 10px rgba(0,0,0,.25)",
        font: "14px/1.45 system-ui, sans-serif", textAlign: "start",
      });
      tip.id = "ipg-linker-preview";
      tip.setAttribute("role", "tooltip");
      tip.addEventListener("mouseleave", hideSoon);
      tip.addEventListener("mouseenter", function () { clearTimeout(tip.timer); });
      document.body.appendChild(tip);
    }
    clearTimeout(tip.timer);
    if (shown && shown !== a) shown.removeAttribute("aria-describedby");
    shown = a;
    a.setAttribute("aria-describedby", tip.id);
    tip.hidden = false;
    var section = byNumber[a.dataset.ipg], key = a.dataset.key || section.lead;
    fill(a, undefined);
    place(a);
    var ready = key ? get("api/ipg/" + section.number + "/" + key + "/") : Promise.reject();
    ready.then(function (p) { if (shown === a) { fill(a, p); place(a); } },
      function () { if (shown === a) { fill(a, null); place(a); } });
  }

  function place(a) {
    var r = a.getBoundingClientRect(), w = tip.offsetWidth;
    tip.style.left = Math.max(8, Math.min(r.left, document.documentElement.clientWidth - w - 8)) + scrollX + "px";
    tip.style.top = r.bottom + scrollY + 6 + "px";
  }

  function hide() {
    if (!tip) return;
    tip.hidden = true;
    if (shown) shown.removeAttribute("aria-describedby");
    shown = null;
  }

  function hideSoon() { if (tip) tip.timer = setTimeout(hide, 300); }

  function target(e) { return e.target.closest && e.target.closest("a.ipg-ref"); }

  function listen() {
    document.addEventListener("mouseover", function (e) { var a = target(e); if (a && a !== shown) show(a); else if (a) clearTimeout(tip.timer); });
    document.addEventListener("mouseout", function (e) { if (target(e)) hideSoon(); });
    document.addEventListener("focusin", function (e) {
      var a = target(e);
      if (a) show(a); else if (tip && tip.contains(e.target)) clearTimeout(tip.timer);
    });
    document.addEventListener("focusout", function (e) { if (target(e) || tip && tip.contains(e.target)) hideSoon(); });
    document.addEventListener("pointerdown", function (e) {
      var a = target(e);
      pointer = e.pointerType;
      armed = !!a && a === shown && !tip.hidden;
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape") return hide();
      if (e.key !== "Tab" || !shown || tip.hidden) return;
      // The preview's button comes next after its link, from the keyboard too; from it, back to the link and on.
      var ask = tip.querySelector("button"), at = document.activeElement;
      if (at === shown && ask && !e.shiftKey) { e.preventDefault(); ask.focus(); }
      else if (tip.contains(at)) { if (e.shiftKey) e.preventDefault(); shown.focus(); }
    });
    addEventListener("message", answered);
    document.addEventListener("click", function (e) {
      var a = target(e);
      // A tap shows the preview first; a second tap on the same link follows it.
      if (a && pointer === "touch" && !armed) { e.preventDefault(); show(a); }
      else if (!a && tip && !tip.contains(e.target)) hide();
    });
  }

  function start() {
    get("api/linker/").then(function (d) {
      data = d;
      build();
      listen();
      var roots = opts.selector ? document.querySelectorAll(opts.selector) : [document.body];
      Array.prototype.forEach.call(roots, link);
    }).catch(function () { /* the page reads as it was */ });
  }

  window.IPGLinker = { link: link };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
