// Offline at the table (see companion/cards/offline.py and static/sw.js).
// - On a rulings page (under r/), register the service worker, which keeps the pages a player
//   opens and answers from those copies when there is no network; on those, the start page and
//   search, register it for the site's root too (it keeps the start page and search there).
// - A page answered from a saved copy (the worker adds <meta name="companion-saved-at">) says so
//   at the top, with the time it was saved.
// - The game page's "Save this game for offline" asks the worker to save every page of the game;
//   where the browser cannot (plain http on the home network, an old browser) it says why.
// Its words come from the page (<meta name="companion-offline-words">, JSON in the page's
// language; see offline_words in templates/_macros.html), its dates and numbers follow <html lang>.
(function () {
  "use strict";
  var wordsMeta = document.querySelector('meta[name="companion-offline-words"]');
  var words = {};
  try { words = JSON.parse(wordsMeta ? wordsMeta.getAttribute("content") : "{}"); } catch (e) { words = {}; }
  var lang = document.documentElement.lang || undefined;

  // The text of words[key] with each %(name)s filled from values (strings or DOM nodes), as
  // a list of nodes: a time element can sit inside a sentence wherever the language puts it.
  function phrase(key, values) {
    var text = words[key] || key;
    var nodes = [];
    var pattern = /%\((\w+)\)s/g;
    var last = 0;
    var match;
    while ((match = pattern.exec(text)) !== null) {
      if (match.index > last) nodes.push(document.createTextNode(text.slice(last, match.index)));
      var value = values && Object.prototype.hasOwnProperty.call(values, match[1]) ? values[match[1]] : match[0];
      nodes.push(typeof value === "object" ? value : document.createTextNode(String(value)));
      last = pattern.lastIndex;
    }
    if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
    return nodes;
  }

  function number(n) {
    try { return new Intl.NumberFormat(lang).format(n); } catch (e) { return String(n); }
  }
  var workerMeta = document.querySelector('meta[name="companion-worker"]');
  var box = document.getElementById("offline");
  var secure = window.isSecureContext === true;
  var supported = secure && "serviceWorker" in navigator && "caches" in window;
  var workerUrl = workerMeta ? new URL(workerMeta.getAttribute("content"), document.baseURI).href : null;
  var scope = workerUrl ? new URL("r/", workerUrl).href : null;
  // Printed QR codes open a card's short address, <root>/Q/<CODE>: the same worker, registered
  // for that scope too, sends a phone with no network on to the card's saved page.
  var shortScope = workerUrl ? new URL("Q/", workerUrl).href : null;
  var inScope = scope !== null && window.location.href.indexOf(scope) === 0;
  // The start page and search are kept by the same worker registered for the site's root (it
  // answers there for those pages only, never for a table): rulings pages and those register it.
  var siteScope = workerUrl ? new URL("./", workerUrl).href : null;
  var rest = siteScope !== null && window.location.href.indexOf(siteScope) === 0
    ? window.location.pathname.slice(new URL(siteScope).pathname.length) : null;
  var sitePage = rest !== null && /^(index\.html)?$|^search(\/|\/index\.html|\/offline)?$/.test(rest);
  if (supported && (inScope || sitePage)) {
    navigator.serviceWorker.register(workerUrl, {scope: siteScope}).catch(function () { /* pages need the network */ });
  }

  function when(iso) {
    var date = new Date(iso);
    if (isNaN(date.getTime())) return words.unknownTime || "an unknown time";
    try {
      return date.toLocaleString(lang, {dateStyle: "medium", timeStyle: "short"});
    } catch (e) {  // a lang this browser's Intl does not know
      return date.toLocaleString([], {dateStyle: "medium", timeStyle: "short"});
    }
  }

  function timeElement(iso) {
    var time = document.createElement("time");
    time.setAttribute("datetime", iso);
    time.textContent = when(iso);
    return time;
  }

  // A page from this phone's saved copy says so before anything else on it.
  var savedMeta = document.querySelector('meta[name="companion-saved-at"]');
  if (savedMeta) {
    var iso = savedMeta.getAttribute("content") || "";
    var note = document.createElement("p");
    note.className = "offline-copy";
    note.id = "offline-copy";
    note.setAttribute("role", "status");
    phrase(navigator.onLine === false ? "copyOffline" : "copyUnreachable", {time: timeElement(iso)})
      .forEach(function (node) { note.appendChild(node); });
    var main = document.querySelector("main");
    if (main) main.insertBefore(note, main.firstChild);
  }

  // Resolves to the active registration; rejects where no worker may run (then the pages
  // simply need the network, as without this script).
  var registered = !(supported && inScope) ? Promise.reject(new Error("no service worker here"))
    : navigator.serviceWorker.register(workerUrl, {scope: scope}).then(function () {
      navigator.serviceWorker.register(workerUrl, {scope: shortScope}).catch(function () { /* codes need the network */ });
      return navigator.serviceWorker.ready;
    });
  var wasControlled = supported && !!navigator.serviceWorker.controller;
  registered.then(function (registration) {
    // The worker says "not saved" in the language of the page last shown.
    if (registration.active) {
      registration.active.postMessage({type: "language", lang: document.documentElement.lang || "en"});
    }
    // This page loaded before the worker could keep it (the first visit): keep it now.
    if (!wasControlled && registration.active && !savedMeta) {
      registration.active.postMessage({type: "remember", url: window.location.href});
    }
  }).catch(function () { /* no worker: the pages still work online */ });

  if (!box) return;
  var button = document.getElementById("offline-save");
  var state = document.getElementById("offline-state");
  var manifest = new URL(box.getAttribute("data-manifest"), document.baseURI).href;
  var recordKey = (function () { var u = new URL(manifest); u.search = "?saved"; return u.href; })();

  // Show words[key] (its %(name)s filled from values) as the save box's status.
  function say(key, values) {
    var line = state.firstElementChild;
    while (line.firstChild) line.removeChild(line.firstChild);
    phrase(key, values).forEach(function (node) { line.appendChild(node); });
  }

  function unavailable() {
    // Browsers give service workers to HTTPS pages (and localhost) only: a companion on plain
    // http on the home network is the usual reason, and has its own remedy.
    say(secure ? "noWorker" : "needsHttps");
    button.hidden = true;
    box.setAttribute("data-offline", "unavailable");
  }

  box.hidden = false;
  if (!supported) {
    unavailable();
    return;
  }
  button.hidden = false;
  registered.catch(unavailable);  // e.g. a page opened from a file, or storage turned off

  function showRecord(record) {
    if (box.getAttribute("data-offline") === "unavailable") return;
    if (record) {
      say("saved", {time: timeElement(record.savedAt), count: number(record.pages)});
      button.textContent = words.saveAgain || "Save this game again";
      box.setAttribute("data-offline", "saved");
    } else {
      say("notSaved");
      button.textContent = words.save || "Save this game for offline";
      box.setAttribute("data-offline", "not-saved");
    }
  }

  function readRecord() {
    return caches.match(recordKey).then(function (response) { return response ? response.json() : null; });
  }

  function save() {
    button.disabled = true;
    box.setAttribute("data-offline", "saving");
    say("saving");
    return registered.then(function (registration) {
      return new Promise(function (resolve) {
        var channel = new MessageChannel();
        channel.port1.onmessage = function (event) {
          var data = event.data || {};
          if (data.state === "progress") {
            // Every tenth file: a screen reader reads each change of this status aloud.
            if (data.saved % 10 === 0) say("savingProgress", {saved: number(data.saved), total: number(data.total)});
          } else if (data.state === "saved") {
            showRecord(data.record);
            resolve();
          } else if (data.state === "failed") {
            say("failed", {reason: data.reason});
            box.setAttribute("data-offline", "failed");
            resolve();
          }
        };
        registration.active.postMessage({type: "save", manifest: manifest}, [channel.port2]);
      });
    }).catch(unavailable).then(function () { button.disabled = false; });
  }

  button.addEventListener("click", save);
  readRecord().then(function (record) {
    showRecord(record);
    // Online, a saved game whose pages have changed since is saved again: that is how new
    // rulings reach the phone's copy.
    if (record && !savedMeta && navigator.onLine !== false) {
      fetch(manifest, {cache: "no-store"}).then(function (response) {
        return response.ok ? response.json() : null;
      }).then(function (current) {
        if (current && current.version !== record.version) save();
      }).catch(function () { /* unreachable: keep the copy we have */ });
    }
  }).catch(function () { showRecord(null); });
})();
