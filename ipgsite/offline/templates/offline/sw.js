// The IPG's service worker: keeps every section in the reader's languages for reading offline.
// Pages come from the network when it answers, from the saved copy when it does not (or is too slow).
"use strict";

const PAGES_URL = "{{ pages_url|escapejs }}";
const PAGES = "ipg-pages";      // saved pages and the static files they use
const RECORDS = "ipg-records";  // per reading mode (language + compare choice): the version saved
const SLOW_NETWORK_MS = 4000;
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
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(staticFile(request));
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
    return network.catch(() => offlineRedirect(request.url) || offlinePage(request.url));
  }
  const slow = new Promise((resolve) => setTimeout(() => resolve(saved), SLOW_NETWORK_MS));
  return Promise.race([network, slow]).catch(() => saved);
}

function pageKey(url) {
  const u = new URL(url);
  u.hash = "";
  return u.href;
}

// `/lang/ja/?next=/en/ipg/2.3/` switches language through the server; offline, go to the saved page.
function offlineRedirect(url) {
  const u = new URL(url);
  const match = u.pathname.match(/^\/lang\/([a-z-]+)\/$/);
  if (!match) return null;
  const next = new URL(u.searchParams.get("next") || "/", u.origin);
  const rest = next.pathname.replace(/^\/(en|zh-hans|ja)\//, "/");
  return Response.redirect(new URL("/" + match[1] + rest + next.search, u.origin).href, 302);
}

function offlinePage(url) {
  const body = "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" +
    "<title>Offline</title><h1>Offline</h1><p>This page was not saved for offline reading. " +
    "Every section is saved in the languages you have read the guide in: <a href=\"/\">open the outline</a>.</p></html>";
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// Save (or bring up to date) every page of a reading mode, then every other mode saved before.
async function saveAll(mode, client) {
  await save(mode, client);
  const records = await caches.open(RECORDS);
  for (const request of await records.keys()) {
    const other = JSON.parse(await (await records.match(request)).text());
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

async function download(mode, client) {
  const recordKey = new URL(PAGES_URL + "?" + new URLSearchParams(mode), self.location.origin).href;
  const records = await caches.open(RECORDS);
  const stored = await records.match(recordKey);
  const record = stored ? JSON.parse(await stored.text()) : null;
  let list;
  try {
    const response = await fetch(recordKey, { credentials: "omit", cache: "no-cache" });
    if (!response.ok) throw new Error(response.status);
    list = await response.json();
  } catch (error) {
    return outcome(record, false);  // not reached: whatever was saved stays
  }
  if (record && record.version === list.version) return outcome(record, true);
  tell(client, mode, { state: "saving", version: record ? record.version : "", reached: true });
  const cache = await caches.open(PAGES);
  const assets = new Set(list.assets);
  const queue = list.pages.slice();
  async function worker() {
    while (queue.length) {
      const url = new URL(queue.shift(), self.location.origin).href;
      // Without cookies: the page everyone gets, never a redirect to someone's remembered choice.
      const response = await fetch(url, { credentials: "omit", cache: "no-cache" });
      if (!response.ok || response.redirected) throw new Error(url + ": " + response.status);
      const html = await response.clone().text();
      for (const found of html.matchAll(/(?:src|href)="(\/static\/[^"]+)"/g)) assets.add(found[1]);
      await cache.put(url, response);
    }
  }
  try {
    await Promise.all([worker(), worker(), worker(), worker()]);
    for (const asset of assets) {
      if (!(await cache.match(asset))) await cache.add(asset);
    }
  } catch (error) {
    return outcome(record, false);
  }
  const done = { lang: mode.lang, langs: mode.langs, version: list.version, pages: list.pages.length };
  await records.put(recordKey, new Response(JSON.stringify(done), { headers: { "Content-Type": "application/json" } }));
  return outcome(done, true);
}

// `reached`: whether the server answered; the page tries again later when it did not.
function outcome(record, reached) {
  const state = record ? "ready" : "unsaved";
  return { state: state, version: record ? record.version : "", reached: reached };
}

function tell(client, mode, result) {
  if (client) {
    client.postMessage({ type: "offline-status", lang: mode.lang, langs: mode.langs, ...result });
  }
  return result;
}
