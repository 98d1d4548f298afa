// Only the static export needs this: with no server behind it, the search page lists every
// card and this filters the list from the address's ?q=&game=, and the not-found page fills
// its search box from the address that failed. The live app works without it.
(function () {
  "use strict";
  var params = new URLSearchParams(window.location.search);

  function words(text) {
    return (text || "").toLowerCase().replace(/-/g, " ").split(/\s+/).filter(Boolean);
  }

  var list = document.querySelector("[data-filter-list]");
  if (list) {
    var query = params.get("q") || "";
    var game = params.get("game") || "";
    var wanted = words(query);
    var box = document.querySelector("form.search input[name=q]");
    var select = document.querySelector("select[name=game]");
    if (box) box.value = query;
    if (select) select.value = game;
    var shown = 0;
    list.querySelectorAll("li[data-search]").forEach(function (item) {
      var hay = item.getAttribute("data-search");
      var match = (!game || item.getAttribute("data-game") === game) &&
        wanted.every(function (w) { return hay.indexOf(w) !== -1; });
      item.hidden = !match;
      if (match) shown += 1;
    });
    var status = document.querySelector("[data-filter-status]");
    if (status && (wanted.length || game)) {
      status.textContent = shown + (shown === 1 ? " card matches." : " cards match.");
    }
  }

  var fill = document.querySelector("input[data-fill-from-path]");
  if (fill && !fill.value) {
    var parts = window.location.pathname.replace(/\/(index\.html)?$/, "").split("/");
    try {
      fill.value = words(decodeURIComponent(parts[parts.length - 1] || "")).join(" ");
    } catch (e) { /* a malformed address: leave the box empty */ }
  }
})();

// The table page. The live part is polled and morphed in by htmx's idiomorph extension; here
// we keep what a player is doing out of the morph, and announce the other players' entries.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) return;

  // A form a player has started is "dirty": the morph leaves it (values, focus) as it is. If the
  // rules no longer offer it, it stays, marked, instead of vanishing under the player's thumb.
  document.addEventListener("input", markDirty, true);
  document.addEventListener("change", markDirty, true);
  function markDirty(event) {
    var form = event.target.closest && event.target.closest("#live form.event-form");
    if (form) form.setAttribute("data-dirty", "");
  }
  // Sending a form ends its dirtiness: the answer's form (fresh, or refilled on a refusal) wins.
  var sentHere = false;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.tagName === "FORM") {
      form.removeAttribute("data-dirty");
      sentHere = true;
    }
  });

  function dirtyIn(node) {
    if (!node || node.nodeType !== 1) return null;
    if (node.matches("form[data-dirty]")) return node;
    return node.querySelector ? node.querySelector("form[data-dirty]") : null;
  }

  function whenIdiomorph(callback) {
    if (window.Idiomorph) { callback(window.Idiomorph); return; }
    document.addEventListener("DOMContentLoaded", function () { if (window.Idiomorph) callback(window.Idiomorph); });
  }
  whenIdiomorph(function (Idiomorph) {
    Idiomorph.defaults.ignoreActiveValue = true;
    var callbacks = Idiomorph.defaults.callbacks;
    callbacks.beforeNodeMorphed = function (oldNode) {
      return !(oldNode.nodeType === 1 && oldNode.matches("form[data-dirty]"));
    };
    callbacks.beforeNodeRemoved = function (node) {
      var form = dirtyIn(node);
      if (!form) return true;
      if (!form.hasAttribute("data-gone")) {
        form.setAttribute("data-gone", "");
        var note = document.createElement("p");
        note.className = "notice-error gone-note";
        note.setAttribute("role", "status");
        note.textContent = "The rules no longer offer this after the last change (see the history). " +
          "Send it anyway to see why, or reload.";
        form.insertBefore(note, form.firstChild);
      }
      return false;
    };
    callbacks.beforeAttributeUpdated = function (name, node) {
      // Open or closed is the player's choice, not the server's.
      return !(name === "open" && node.tagName === "DETAILS");
    };
  });

  // Tell screen readers what another phone entered (not what this one did).
  var announcer = document.getElementById("announcer");
  var shownVersion = live.getAttribute("data-version");
  document.addEventListener("htmx:afterSettle", function () {
    var current = document.getElementById("live");
    if (!current) return;
    var version = current.getAttribute("data-version");
    if (version !== shownVersion) {
      if (!sentHere && announcer) announcer.textContent = current.getAttribute("data-latest") || "";
      shownVersion = version;
    }
    sentHere = false;
  });

  // How long the game has gone on, kept current.
  function tick() {
    document.querySelectorAll("time[data-started]").forEach(function (el) {
      var started = new Date(el.getAttribute("data-started"));
      var minutes = Math.max(0, Math.floor((Date.now() - started.getTime()) / 60000));
      el.setAttribute("title", minutes + " min ago");
    });
  }
  tick();
  setInterval(tick, 30000);

  // Keep the screen awake while the table is open (where the browser can), with a toggle.
  var wake = document.getElementById("wake-lock");
  if (wake && "wakeLock" in navigator) {
    var sentinel = null;
    var wanted = false;
    wake.hidden = false;
    var request = function () {
      navigator.wakeLock.request("screen").then(function (s) {
        sentinel = s;
        wake.setAttribute("aria-pressed", "true");
        wake.textContent = "Screen stays on (tap to allow sleep)";
        s.addEventListener("release", function () {
          wake.setAttribute("aria-pressed", "false");
          wake.textContent = "Keep the screen on";
        });
      }).catch(function () { wanted = false; });
    };
    wake.addEventListener("click", function () {
      wanted = !wanted;
      if (wanted) request(); else if (sentinel) sentinel.release();
    });
    document.addEventListener("visibilitychange", function () {
      if (wanted && document.visibilityState === "visible") request();
    });
  }
})();
