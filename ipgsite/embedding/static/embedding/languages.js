/* /linker/languages/: the page the linker opens, on a reader's click, in a window of its own. A window of its own is
 * this site's first party, so it reads the compare choice the site remembers (the ipg_langs cookie, which the site
 * writes readable by scripts), and gives it to the page that opened it, at the origin that page named, then closes.
 * A frame could not: browsers partition or block a third-party frame's cookies and storage. */
(function () {
  "use strict";
  var main = document.querySelector(".linker-languages");
  if (!main) return;
  var known = main.dataset.codes.split(",");
  var found = document.cookie.match(new RegExp("(?:^|;\\s*)" + main.dataset.cookie + "=([^;]*)"));
  // As the site writes it: "en\054ja", quoted, its commas escaped.
  var raw = found ? found[1].replace(/^"|"$/g, "").replace(/\\054/g, ",") : "";
  var codes = [];
  raw.split(",").forEach(function (c) {
    c = c.trim().toLowerCase();
    if (known.indexOf(c) >= 0 && codes.indexOf(c) < 0) codes.push(c);
  });
  if (codes.length < 2) codes = []; // the site remembers a comparison of several languages only
  var chosen = main.querySelector(".languages-chosen");
  codes.forEach(function (c) {
    var item = chosen.querySelector("li[data-code='" + c + "']");
    item.hidden = false;
    item.parentNode.appendChild(item); // in the reader's order
  });
  (codes.length ? chosen : main.querySelector(".languages-none")).hidden = false;
  if (window.opener && main.dataset.origin) {
    window.opener.postMessage({ ipgLangs: codes }, main.dataset.origin);
    window.close();
  }
})();
