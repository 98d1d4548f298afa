// The companion's service worker: keeps rulings pages readable with no network (see
// companion/cards/offline.py). Pages under r/ register it (static/offline.js); it answers:
// - page loads (navigations): from the network first, so an online player sees today's rulings,
//   and a copy is kept; with no network (or no answer within NETWORK_WAIT_MS, or a 5xx from a
//   proxy whose companion is off) the newest saved copy, marked with the time it was saved;
// - the site's static files the same way (their URLs carry a version, static/x.css?v=...: with no
//   network and no copy of that version, the newest saved copy of any version of the file);
// - a page's "save" message: fetch the game's offline manifest and cache every URL it lists;
// - a card's short address (Q/<CODE>, what printed QR codes open; the pages register the worker
//   for Q/ too): from the network (a redirect to the card's page), and with no network a
//   redirect to the card's page in the saved game that knows the code (the manifest's codes).
// - the start page and search (the pages register it for the site's root too): it keeps the
//   site's own manifest (offline.json: the start page, a search page that filters in the phone,
//   the static files) when it is installed and with each game saved; with no network a search
//   address is answered by that search page, which filters by the address. Any other page (a
//   table) is left to the network.
// - a page it has no copy of, with no network: the companion's "Not saved for offline" page (kept
//   with the site's pages, one per language), in the language of the last page shown.
// Every copy it keeps carries the header SAVED_AT (ISO time) so a page can say how old it is.
"use strict";

var WORKER_VERSION = "1";
var PREFIX = "companion-offline:";
var PAGES_CACHE = PREFIX + "pages:" + WORKER_VERSION;   // pages and files opened while online
var GAME_CACHE = PREFIX + "game:";                      // + game id + ":" + manifest version
var SAVED_AT = "X-Companion-Saved-At";
var NETWORK_WAIT_MS = 6000;
var SAVE_AT_ONCE = 6;
var SCOPE_BASE = new URL("./", self.location.href).href;  // the site's root: sw.js lives there
var STATIC_BASE = new URL("static/", SCOPE_BASE).href;
var SHORT_BASE = new URL("Q/", SCOPE_BASE).href;           // printed cards' short addresses
var CODES_KEY = SHORT_BASE + "?codes";                     // in a game's cache: its codes' pages
var SITE_CACHE = PREFIX + "site";                          // the start page, search, static files
var SITE_MANIFEST = new URL("offline.json", SCOPE_BASE).href;
var LANGUAGE_KEY = SCOPE_BASE + "?language";              // in SITE_CACHE: the last page's language
var SEARCH_PATHS = ["search", "search/", "search/index.html"].map(function (path) {
  return new URL(path, SCOPE_BASE).pathname;
});

self.addEventListener("install", function (event) {
  self.skipWaiting();
  // Best effort: a worker that could not save the start page still keeps the game pages.
  event.waitUntil(saveSite().catch(function () {}));
});

// Save the site's own pages (offline.json: start page, search page, static files) in SITE_CACHE,
// the manifest itself under its own address so the search page can be found offline.
function saveSite() {
  var savedAt = new Date().toISOString();
  return fetch(SITE_MANIFEST, {cache: "no-store"}).then(function (response) {
    if (!response.ok) throw new Error("the site's list of pages answered HTTP " + response.status);
    return response.clone().json().then(function (manifest) {
      return caches.open(SITE_CACHE).then(function (cache) {
        var hrefs = manifest.urls.map(function (url) { return new URL(url, SITE_MANIFEST).href; });
        return Promise.all(hrefs.map(function (href) {
          return fetch(href, {cache: "no-cache"}).then(function (page) {
            if (!page.ok) throw new Error(href + " answered HTTP " + page.status);
            return stamped(page, savedAt);
          }).then(function (copy) { return cache.put(href, copy); });
        })).then(function () {
          return cache.put(SITE_MANIFEST, response);
        }).then(function () {
          // Static files' URLs carry their version: drop those of earlier versions.
          return cache.keys().then(function (requests) {
            return Promise.all(requests.filter(function (request) {
              return request.url.indexOf(STATIC_BASE) === 0 && hrefs.indexOf(request.url) === -1;
            }).map(function (request) { return cache.delete(request); }));
          });
        });
      });
    });
  });
}

// A search address (search?q=...): the saved search page that filters in the phone, or null.
function savedSearch(href) {
  var url = new URL(href);
  if (SEARCH_PATHS.indexOf(url.pathname) === -1) return Promise.resolve(null);
  return caches.open(SITE_CACHE).then(function (cache) { return cache.match(SITE_MANIFEST); }).then(function (response) {
    return response ? response.json() : null;
  }).then(function (manifest) {
    return manifest && manifest.search ? newestCopy(new URL(manifest.search, SITE_MANIFEST).href) : null;
  });
}

// Pages this worker answers for: rulings (r/), short addresses (Q/), the start page and search.
function keptPage(href) {
  var url = new URL(href);
  var root = new URL(SCOPE_BASE).pathname;
  var rest = url.pathname.indexOf(root) === 0 ? url.pathname.slice(root.length) : null;
  if (rest === null) return false;
  return rest === "" || rest === "index.html" || /^(r|Q)\//.test(rest) || /^search(\/|\/index\.html|\/offline)?$/.test(rest);
}

self.addEventListener("activate", function (event) {
  // A new worker version drops the pages cache of older ones; saved games stay until replaced.
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(PREFIX + "pages:") === 0 && name !== PAGES_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

// The same page has several addresses: "parry", "parry/" and "parry/index.html" on a static host.
function variants(href) {
  var url = new URL(href);
  url.hash = "";
  var s = url.href, last = url.pathname.split("/").pop();
  if (/\/index\.html$/.test(url.pathname)) {
    var dir = new URL("./", url).href;
    return [s, dir, dir.replace(/\/$/, "")];
  }
  if (/\/$/.test(url.pathname)) return [s, s + "index.html", s.replace(/\/$/, "")];
  if (last.indexOf(".") === -1) return [s, s + "/", s + "/index.html"];
  return [s];
}

function savedTime(response) {
  return Date.parse(response.headers.get(SAVED_AT) || "") || 0;
}

// A static file saved under another version (static/x.css?v=...), the newest, or null: with no
// network, a page saved before the file changed still gets a stylesheet and its script.
function anyVersion(href) {
  if (href.indexOf(STATIC_BASE) !== 0) return Promise.resolve(null);
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf(PREFIX) === 0; }).map(function (name) {
      return caches.open(name).then(function (cache) { return cache.matchAll(href, {ignoreSearch: true}); });
    }));
  }).then(function (found) {
    var best = null;
    found.forEach(function (responses) {
      responses.forEach(function (response) {
        if (!best || savedTime(response) > savedTime(best)) best = response;
      });
    });
    return best;
  });
}

// The newest copy of href in any of our caches, or null.
function newestCopy(href) {
  return caches.keys().then(function (names) {
    var ours = names.filter(function (name) { return name.indexOf(PREFIX) === 0; });
    var lookups = [];
    ours.forEach(function (name) {
      variants(href).forEach(function (key) {
        lookups.push(caches.open(name).then(function (cache) { return cache.match(key); }));
      });
    });
    return Promise.all(lookups);
  }).then(function (found) {
    var best = null;
    found.forEach(function (response) {
      if (response && (!best || savedTime(response) > savedTime(best))) best = response;
    });
    return best;
  });
}

// A copy of response to keep: same body, status and headers, plus the time it was saved. The
// body read here is already decoded: the copy must not claim the server's gzip encoding or length.
function stamped(response, savedAt) {
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.delete("Content-Encoding");
    headers.delete("Content-Length");
    headers.set(SAVED_AT, savedAt);
    return new Response(body, {status: response.status, statusText: response.statusText, headers: headers});
  });
}

// Keep a fresh answer: in the pages cache, and in any saved game that holds the same address,
// so a saved game gets today's copy of every page the player opens online.
function remember(href, response) {
  return stamped(response, new Date().toISOString()).then(function (copy) {
    return caches.keys().then(function (names) {
      var games = names.filter(function (name) { return name.indexOf(GAME_CACHE) === 0; });
      return Promise.all(games.map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.match(href).then(function (old) { return old ? cache.put(href, copy.clone()) : null; });
        });
      })).then(function () {
        return caches.open(PAGES_CACHE).then(function (cache) { return cache.put(href, copy); });
      });
    });
  });
}

function escapeAttribute(text) {
  return String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

// A saved page as the browser gets it: a <meta name="companion-saved-at"> in its head tells the
// page's script (static/offline.js) that it came from this phone's copy, and when that was saved.
function markedPage(response) {
  return response.text().then(function (html) {
    var meta = '<meta name="companion-saved-at" content="' + escapeAttribute(response.headers.get(SAVED_AT) || "") + '">';
    var marked = html.replace(/<head(\s[^>]*)?>/i, function (tag) { return tag + meta; });
    return new Response(marked, {status: response.status, statusText: response.statusText, headers: response.headers});
  });
}

// The code of a short address (Q/ABCD1234, Q/ABCD1234/ or Q/ABCD1234/index.html), upper case; or null.
function shortCode(href) {
  if (href.indexOf(SHORT_BASE) !== 0) return null;
  var rest = new URL(href).pathname.slice(new URL(SHORT_BASE).pathname.length);
  var match = /^([0-9A-Za-z]+)\/?(?:index\.html)?$/.exec(rest);
  return match ? match[1].toUpperCase() : null;
}

// The saved card page a short address leads to (from a saved game's codes), or null.
function savedTarget(href) {
  var code = shortCode(href);
  if (!code) return Promise.resolve(null);
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf(GAME_CACHE) === 0; }).map(function (name) {
      return caches.open(name).then(function (cache) { return cache.match(CODES_KEY); })
        .then(function (response) { return response ? response.json() : {}; });
    }));
  }).then(function (maps) {
    for (var i = 0; i < maps.length; i += 1) {
      if (Object.prototype.hasOwnProperty.call(maps[i], code)) return maps[i][code];
    }
    return null;
  });
}

// The page for a page with no copy: the companion's own, in the language of the last page this
// phone showed (the site manifest's notSaved: one kept per language), else in the phone's
// language; the built-in English one where none is kept (a static export, a failed save).
function notSavedPage() {
  return caches.open(SITE_CACHE).then(function (cache) {
    return Promise.all([cache.match(SITE_MANIFEST), cache.match(LANGUAGE_KEY)]).then(function (found) {
      return Promise.all([found[0] ? found[0].json() : null, found[1] ? found[1].text() : ""]);
    }).then(function (read) {
      var pages = (read[0] && read[0].notSaved) || {};
      var phone = String(self.navigator.language || "").split("-")[0].toLowerCase();
      var url = pages[read[1]] || pages[phone] || pages.en;
      return url ? cache.match(new URL(url, SITE_MANIFEST).href) : null;
    });
  }).then(function (page) {
    if (!page) return builtInNotSavedPage();
    return page.blob().then(function (body) {
      return new Response(body, {status: 503, headers: page.headers});
    });
  }).catch(builtInNotSavedPage);
}

function builtInNotSavedPage() {
  var html = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Not saved for offline</title></head>' +
    "<body><main><h1>Not saved for offline</h1><p>This phone has no network and no saved copy of this page. " +
    "Open the game page and press \u201cSave this game for offline\u201d the next time the companion can be reached." +
    "</p></main></body></html>";
  return new Response(html, {status: 503, headers: {"Content-Type": "text/html; charset=utf-8"}});
}

// Network first; the newest saved copy when the network fails, is too slow or answers 5xx.
function networkFirst(event, isPage) {
  var request = event.request;
  return new Promise(function (resolve) {
    var done = false;
    function answer(response) {
      if (!done) { done = true; resolve(response); }
    }
    function fallBack(networkAnswer) {
      return newestCopy(request.url).then(function (copy) {
        return copy || (isPage ? savedSearch(request.url) : anyVersion(request.url));
      }).then(function (copy) {
        if (copy) return isPage ? markedPage(copy).then(answer) : answer(copy);
        return (isPage ? savedTarget(request.url) : Promise.resolve(null)).then(function (target) {
          if (target) return answer(Response.redirect(target, 302));
          if (networkAnswer) return answer(networkAnswer);
          if (isPage) return notSavedPage().then(answer);
          return answer(Response.error());
        });
      }).catch(function () { answer(networkAnswer || Response.error()); });
    }
    var timer = setTimeout(function () {
      newestCopy(request.url).then(function (copy) {
        return copy || (isPage ? savedSearch(request.url) : null);
      }).then(function (copy) {
        return copy || (isPage ? savedTarget(request.url) : null);
      }).then(function (found) { if (found) fallBack(null); });
    }, NETWORK_WAIT_MS);
    var network = fetch(request).then(function (response) {
      clearTimeout(timer);
      if (response.ok && response.type === "basic" && !response.redirected) {
        event.waitUntil(remember(request.url, response.clone()).catch(function () {}));
      }
      if (response.status >= 500) return fallBack(response);
      answer(response);
    }, function () {
      clearTimeout(timer);
      return fallBack(null);
    });
    event.waitUntil(network);
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || request.url.indexOf(SCOPE_BASE) !== 0) return;
  if (request.mode === "navigate") {
    if (keptPage(request.url)) event.respondWith(networkFirst(event, true));
  } else if (request.url.indexOf(STATIC_BASE) === 0) {
    event.respondWith(networkFirst(event, false));
  }
  // Anything else (the offline manifest, the API) goes to the network as usual.
});

// "Save this game": fetch the manifest, cache each URL it lists under a cache for this game and
// version, then drop the game's older copies. Progress and the result go back on the port.
function saveGame(manifestHref, port) {
  var savedAt = new Date().toISOString();
  return fetch(manifestHref, {cache: "no-store"}).then(function (response) {
    if (!response.ok) throw new Error("the list of pages answered HTTP " + response.status);
    return response.json();
  }).then(function (manifest) {
    var name = GAME_CACHE + manifest.game + ":" + manifest.version;
    var urls = manifest.urls.map(function (url) { return new URL(url, manifestHref).href; });
    var codes = {};
    Object.keys(manifest.codes || {}).forEach(function (code) {
      codes[code] = new URL(manifest.codes[code], manifestHref).href;
    });
    var saved = 0;
    return caches.delete(name).then(function () { return caches.open(name); }).then(function (cache) {
      function saveOne(href) {
        return fetch(href, {cache: "no-cache"}).then(function (response) {
          if (!response.ok) throw new Error(href + " answered HTTP " + response.status);
          return stamped(response, savedAt);
        }).then(function (copy) {
          return cache.put(href, copy);
        }).then(function () {
          saved += 1;
          port.postMessage({state: "progress", saved: saved, total: urls.length});
        });
      }
      var chain = Promise.resolve();
      for (var i = 0; i < urls.length; i += SAVE_AT_ONCE) {
        (function (batch) {
          chain = chain.then(function () { return Promise.all(batch.map(saveOne)); });
        })(urls.slice(i, i + SAVE_AT_ONCE));
      }
      var record = {game: manifest.game, title: manifest.title, version: manifest.version,
                    savedAt: savedAt, pages: urls.length};
      return chain.then(function () {
        return saveSite().catch(function () { /* the game's pages are what was asked for */ });
      }).then(function () {
        return cache.put(CODES_KEY, new Response(JSON.stringify(codes), {headers: {"Content-Type": "application/json"}}));
      }).then(function () {
        return cache.put(savedRecordKey(manifestHref), new Response(JSON.stringify(record),
          {headers: {"Content-Type": "application/json", "X-Companion-Saved-At": savedAt}}));
      }).then(function () {
        return caches.keys();
      }).then(function (names) {
        return Promise.all(names.filter(function (other) {
          return other.indexOf(GAME_CACHE + manifest.game + ":") === 0 && other !== name;
        }).map(function (other) { return caches.delete(other); }));
      }).then(function () {
        port.postMessage({state: "saved", record: record});
      }, function (error) {
        // A half-saved copy would pass for a whole one: drop it, keep the older whole copy.
        return caches.delete(name).then(function () { throw error; });
      });
    });
  }).catch(function (error) {
    port.postMessage({state: "failed", reason: String(error && error.message || error)});
  });
}

// Where a game's "saved" record lives in its cache (never fetched: only a cache key).
function savedRecordKey(manifestHref) {
  var url = new URL(manifestHref);
  url.search = "?saved";
  return url.href;
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  var port = event.ports && event.ports[0];
  if (data.type === "save" && port && typeof data.manifest === "string") {
    if (new URL(data.manifest).origin !== self.location.origin) {
      port.postMessage({state: "failed", reason: "the list of pages is on another site"});
      return;
    }
    event.waitUntil(saveGame(data.manifest, port));
  } else if (data.type === "language" && typeof data.lang === "string" && /^[a-z]{2,3}$/.test(data.lang)) {
    // The page shown says its language: the page for a page not saved is said in it.
    event.waitUntil(caches.open(SITE_CACHE).then(function (cache) {
      return cache.put(LANGUAGE_KEY, new Response(data.lang, {headers: {"Content-Type": "text/plain"}}));
    }).catch(function () {}));
  } else if (data.type === "remember" && typeof data.url === "string" && data.url.indexOf(SCOPE_BASE) === 0) {
    // The page that registered the worker loaded before it could be kept: keep it now.
    event.waitUntil(fetch(data.url).then(function (response) {
      if (response.ok && response.type === "basic") return remember(data.url, response);
    }).catch(function () {}));
  }
});
