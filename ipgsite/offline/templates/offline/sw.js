// The IPG's service worker: keeps every section in the reader's languages for reading offline.
// Pages come from the network when it answers, from the saved copy when it does not (or is too slow).
"use strict";

const PAGES_URL = "{{ pages_url|escapejs }}";
const STATIC_PREFIX = new URL("{{ static_url|escapejs }}", self.location.origin).href;
const MANIFEST = new URL("{{ manifest_url|escapejs }}", self.location.origin).pathname;
const PAGES = "ipg-pages";      // saved pages and the site's own files they use, as the server lists them
const RECORDS = "ipg-records";  // per reading mode (language + compare choice): the version saved
const SLOW_NETWORK_MS = 4000;
const DOWNLOADS_AT_ONCE = 6;  // as many as the connections a browser opens to one site over HTTP/1.1
const saving = new Map();

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "save") return;
  const mode = { lang: String(data.lang || ""), langs: String(data.langs || "") };
  event.waitUntil(saveAll(mode, event.source));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/admin/")) return;
  if (request.url.startsWith(STATIC_PREFIX)) {
    event.respondWith(staticFile(request));
  } else if (url.pathname === MANIFEST) {
    event.respondWith(fetch(request).catch(() => caches.match(request, { cacheName: PAGES }).then((saved) => saved || Response.error())));
  } else if (request.mode === "navigate") {
    event.respondWith(page(event));
  }
});

// Hashed static files never change: the saved copy is as good as the network's.
async function staticFile(request) {
  const saved = await caches.match(request, { cacheName: PAGES, ignoreVary: true });
  return saved || fetch(request);
}

async function page(event) {
  const request = event.request;
  const key = pageKey(request.url);
  const cache = await caches.open(PAGES);
  const saved = await cache.match(key, { ignoreVary: true });
  const network = fetch(request).then((response) => {
    // Keep saved pages current; pages never saved (searches, the admin) are not collected.
    if (saved && response.ok && response.type === "basic") cache.put(key, response.clone());
    // A server in trouble: the saved copy reads better than its error page.
    return saved && response.status >= 500 ? saved : response;
  });
  event.waitUntil(network.catch(() => null));
  if (!saved) {
    return network.catch(() => offlineAnswer(cache, request.url));
  }
  const slow = new Promise((resolve) => setTimeout(() => resolve(saved), SLOW_NETWORK_MS));
  return Promise.race([network, slow]).catch(() => saved);
}

function pageKey(url) {
  const u = new URL(url);
  u.hash = "";
  return u.href;
}

const LANGUAGES = ["en", "zh-hans", "ja"];
const ALIASES = { "zh": "zh-hans", "zh-cn": "zh-hans", "zh-hans-cn": "zh-hans", "jp": "ja", "en-us": "en", "en-gb": "en" };

// Offline, a page not saved as asked for: the saved page that the server would have answered or redirected to,
// else the offline page in the page's language (saved with the rest: styled, linking to the saved outline).
async function offlineAnswer(cache, url) {
  const u = new URL(url);
  u.hash = "";
  for (const other of [languageSwitch(u), paragraphSection(u), compareSpelled(u), quizOffline(u), await rootOutline(cache, u)]) {
    if (other && (await cache.match(other.split("#")[0], { ignoreVary: true }))) return Response.redirect(other, 302);
  }
  return offlinePage(cache, u);
}

// `/lang/ja/?next=/en/ipg/2.3/` switches language through the server; offline, go to the saved page.
function languageSwitch(u) {
  const match = u.pathname.match(/^\/lang\/([a-z-]+)\/$/);
  if (!match) return null;
  const next = new URL(u.searchParams.get("next") || "/", u.origin);
  const rest = next.pathname.replace(/^\/(en|zh-hans|ja)\//, "/");
  return new URL("/" + match[1] + rest + next.search, u.origin).href;
}

// A paragraph's page (`/ja/ipg/2.3/example-c/`) is its section opened at that paragraph: offline, the saved section.
function paragraphSection(u) {
  const match = u.pathname.match(/^(\/[a-z-]+\/ipg\/[^/]+\/)([a-z0-9-]+)\/$/);
  if (!match || match[2] === "history" || u.searchParams.has("release")) return null;  // a release's: never saved
  const langs = u.searchParams.get("langs");
  return new URL(match[1] + (langs ? "?langs=" + langs : "") + "#" + match[2], u.origin).href;
}

// A step of a quiz (`/ja/quiz/?seed=7&chapter=2&a=2.3`), each a URL of its own: the quiz's offline page, every
// question on one page, at the quiz's chapter.
function quizOffline(u) {
  const match = u.pathname.match(/^\/([a-z-]+)\/quiz\/$/);
  if (!match || !u.searchParams.has("seed")) return null;
  const chapter = u.searchParams.get("chapter");
  return new URL("/" + match[1] + "/quiz/offline/" + (chapter ? "#chapter-" + encodeURIComponent(chapter) : ""), u.origin).href;
}

// The compare form asks for `?langs=ja&langs=en&langs=`; the server answers with `?langs=ja,en` (compare.in_url).
function compareSpelled(u) {
  const given = u.searchParams.getAll("langs");
  if (!given.length) return null;
  const codes = [];
  for (const part of given.join(",").split(",")) {
    let code = part.trim().toLowerCase().replace(/_/g, "-");
    code = ALIASES[code] || code;
    if (LANGUAGES.includes(code) && !codes.includes(code)) codes.push(code);
  }
  const query = new URLSearchParams(u.search);
  query.delete("langs");
  if (codes.length > 1) query.set("langs", codes.join(","));
  const search = query.toString().replace(/%2C/g, ",");
  const spelled = new URL(u.pathname + (search ? "?" + search : ""), u.origin).href;
  return spelled === u.href ? null : spelled;
}

// The site's root: the saved outline in the browser's language, else in any language saved.
async function rootOutline(cache, u) {
  if (u.pathname !== "/") return null;
  for (const code of preferredLanguages()) {
    const outline = new URL("/" + code + "/", u.origin).href;
    if (await cache.match(outline, { ignoreVary: true })) return outline;
  }
  return null;
}

function preferredLanguages() {
  const wanted = [];
  for (const tag of self.navigator.languages || []) {
    const lower = tag.toLowerCase();
    const code = ALIASES[lower] || (lower.startsWith("zh") ? "zh-hans" : lower.split("-")[0]);
    if (LANGUAGES.includes(code) && !wanted.includes(code)) wanted.push(code);
  }
  return wanted.concat(LANGUAGES.filter((code) => !wanted.includes(code)));
}

async function offlinePage(cache, u) {
  const match = u.pathname.match(/^\/(en|zh-hans|ja)\//);
  const codes = match ? [match[1]].concat(preferredLanguages()) : preferredLanguages();
  for (const code of codes) {
    const saved = await cache.match(new URL("/" + code + "/offline/", u.origin).href, { ignoreVary: true });
    if (saved) {
      return new Response(saved.body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    }
  }
  const body = "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>Offline</title><h1>Offline</h1><p>This page was not saved for offline reading.</p></html>";
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// Save (or bring up to date) every page of a reading mode, then every other mode saved before.
async function saveAll(mode, client) {
  await save(mode, client);
  const records = await caches.open(RECORDS);
  for (const request of await records.keys()) {
    const record = JSON.parse(await (await records.match(request)).text());
    const other = { lang: record.lang, langs: record.langs };
    // An earlier worker kept other modes under a key spelled from their whole record: one more each update.
    if (request.url !== recordKey(other)) await records.delete(request);
    if (other.lang !== mode.lang || other.langs !== mode.langs) await save(other, null);
  }
}

function save(mode, client) {
  const id = mode.lang + "|" + mode.langs;
  if (!saving.has(id)) {
    saving.set(id, download(mode, client).finally(() => saving.delete(id)));
  }
  return saving.get(id).then((result) => tell(client, mode, result));
}

// Where a reading mode's record is kept: the URL of its list.
function recordKey(mode) {
  const query = new URLSearchParams({ lang: mode.lang, langs: mode.langs });
  return new URL(PAGES_URL + "?" + query, self.location.origin).href;
}

async function download(mode, client) {
  const key = recordKey(mode);
  const records = await caches.open(RECORDS);
  const stored = await records.match(key);
  const record = stored ? JSON.parse(await stored.text()) : null;
  let list;
  try {
    const response = await fetch(key, { credentials: "omit", cache: "no-cache" });
    if (!response.ok) throw new Error(response.status);
    list = await response.json();
  } catch (error) {
    return outcome(record, false);  // not reached: whatever was saved stays
  }
  const cache = await caches.open(PAGES);
  const assets = list.assets.map((url) => new URL(url, self.location.origin).href);
  await dropOldAssets(cache, assets);
  const current = record && record.version === list.version;
  if (current && record.complete) return outcome(record, true);
  if (!current) {
    tell(client, mode, { state: "saving", version: record ? record.version : "", release: record ? record.release || "" : "", reached: true });
    // Before anything is downloaded, so that whatever fails next, a removed section is never read as current.
    await dropRemovedPages(cache, list);
  }
  // Only what the server lists: the pages, then the site's own files (all again when the content changed,
  // for unhashed names; otherwise those that failed last time). One that fails does not stop the others.
  const queue = [];
  if (!current) for (const url of list.pages) queue.push({ url: new URL(url, self.location.origin).href, page: true });
  for (const url of assets) {
    if (!current || !(await cache.match(url))) queue.push({ url: url, page: false });
  }
  const failed = { pages: 0, assets: 0 };
  async function worker() {
    while (queue.length) {
      const item = queue.shift();
      try {
        // Without cookies: the page everyone gets, never a redirect to someone's remembered choice.
        const response = await fetch(item.url, { credentials: "omit", cache: "no-cache" });
        if (!response.ok || response.redirected) throw new Error(item.url + ": " + response.status);
        await cache.put(item.url, response);
      } catch (error) {
        failed[item.page ? "pages" : "assets"] += 1;
      }
    }
  }
  await Promise.all(Array.from({ length: DOWNLOADS_AT_ONCE }, worker));
  if (failed.pages) return outcome(record, true, false);  // saved again once every page is there
  const done = {
    lang: mode.lang, langs: mode.langs, version: list.version, release: list.release || "",
    pages: list.pages.length, complete: !failed.assets,
  };
  await records.put(key, new Response(JSON.stringify(done), { headers: { "Content-Type": "application/json" } }));
  return outcome(done, true, done.complete);
}

// After a deploy the static files have new (hashed) names: those no longer listed are dropped.
async function dropOldAssets(cache, assets) {
  const listed = new Set(assets);
  for (const request of await cache.keys()) {
    if (request.url.startsWith(STATIC_PREFIX) && !listed.has(request.url)) await cache.delete(request);
  }
}

// The content changed: this reading mode's saved pages (its language's, without a query or with its compare
// choice) that the list no longer names are no longer in the site (a removed section, a finder step that led
// only to it). Offline, such a page then gets the offline page, as any page never saved does. Reading lists
// (`?p=`) are the reader's own and stay.
async function dropRemovedPages(cache, list) {
  const listed = new Set(list.pages.map((url) => new URL(url, self.location.origin).href));
  for (const request of await cache.keys()) {
    if (ofReadingMode(new URL(request.url), list) && !listed.has(request.url)) await cache.delete(request);
  }
}

// A page is of the mode when its language and its `langs` (none, or the only parameter) are one of the list's scopes.
function ofReadingMode(url, list) {
  if (url.origin !== self.location.origin) return false;
  const query = [...url.searchParams.keys()];
  const langs = !query.length ? "" : query.length === 1 && query[0] === "langs" ? url.searchParams.get("langs") : null;
  if (langs === null) return false;
  const scopes = list.scopes || [[list.language, ""]].concat(list.langs ? [[list.language, list.langs]] : []);
  return scopes.some(([code, value]) => url.pathname.startsWith("/" + code + "/") && value === langs);
}

// `reached`: whether the server answered; `complete`: whether everything it listed was saved.
// The page tries again later, a bounded number of times, when either is false.
function outcome(record, reached, complete) {
  const state = record ? "ready" : "unsaved";
  if (complete === undefined) complete = reached && !!record && record.complete !== false;
  return {
    state: state, version: record ? record.version : "", release: record ? record.release || "" : "",
    reached: reached, complete: complete,
  };
}

function tell(client, mode, result) {
  if (client) {
    client.postMessage({ type: "offline-status", lang: mode.lang, langs: mode.langs, ...result });
  }
  return result;
}
