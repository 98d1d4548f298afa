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
      // The page's words (in its language), else English.
      var said = status.getAttribute(shown === 1 ? "data-one" : "data-other") || (shown === 1 ? "{num} card matches." : "{num} cards match.");
      status.textContent = said.replace("{num}", shown);
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
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt;
    if (form && form.tagName === "FORM") form.removeAttribute("data-dirty");
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
        var now = document.getElementById("live") || live;  // its words, in the page's language
        note.textContent = now.getAttribute("data-gone-note") || "";
        form.insertBefore(note, form.firstChild);
      }
      return false;
    };
    callbacks.beforeAttributeUpdated = function (name, node) {
      // Open or closed is the player's choice, not the server's.
      return !(name === "open" && node.tagName === "DETAILS");
    };
  });

  // Tell screen readers what another phone entered, undid or corrected, in the history's words.
  // Every history line carries its seq, status and text: what changed since the page last
  // showed the table is said. Only for what a poll brings: this phone's own entries come back
  // as the answer to its post (its player knows them). Posts and polls take turns on #live
  // (data-hx-sync), so a poll never shows a version of this phone's making before its post's answer
  // has. Several entries can arrive in one poll: each gets its own line.
  var announcer = document.getElementById("announcer");
  // The words come from the page, in its language: "{entry}" / "{summary}" mark where the
  // entry's own text goes.
  function say(name, key, value) {
    var words = announcer && announcer.getAttribute(name);
    return words ? words.replace(key, value) : value;
  }
  function historyNow() {
    var lines = {};
    document.querySelectorAll("#live ol.history li[data-seq]").forEach(function (li) {
      lines[li.getAttribute("data-seq")] = li;
    });
    return lines;
  }
  function finishedNow() {
    var result = document.querySelector("#live #result[data-summary]");
    return result ? result.getAttribute("data-summary") : null;
  }
  function rematchNow() {
    return !!document.querySelector("#live #rematch-link");
  }
  function changes(before, after, wasFinished, hadRematch) {
    var said = [];
    Object.keys(after).sort(function (a, b) { return a - b; }).forEach(function (seq) {
      var li = after[seq], text = li.getAttribute("data-text"), status = li.getAttribute("data-status");
      var old = before[seq];
      if (!old && status === "active") said.push(li.hasAttribute("data-corrects") ? say("data-corrected", "{entry}", text) : text);
      else if (old && old.status === "active" && status === "undone") said.push(say("data-undone", "{entry}", text));
    });
    var finished = finishedNow();
    if (finished && !wasFinished) said.push(say("data-game-over", "{summary}", finished));
    if (rematchNow() && !hadRematch) said.push(say("data-rematch", "", ""));
    return said;
  }
  function snapshot() {
    var lines = historyNow(), kept = {};
    Object.keys(lines).forEach(function (seq) { kept[seq] = { status: lines[seq].getAttribute("data-status") }; });
    return kept;
  }
  var shown = snapshot();
  var shownFinished = finishedNow();
  var shownVersion = live.getAttribute("data-version");
  var shownRematch = rematchNow();  // a rematch started changes no entry: not the version
  document.addEventListener("htmx:afterSettle", function (event) {
    var current = document.getElementById("live");
    if (!current) return;
    var version = current.getAttribute("data-version");
    if (version !== shownVersion || rematchNow() !== shownRematch) {
      var config = event.detail && event.detail.requestConfig;
      var said = announcer && config && config.verb === "get" ? changes(shown, historyNow(), shownFinished, shownRematch) : [];
      if (said.length) {
        // The log holds the latest news only (what was said before is in the history); lines
        // added are read out, lines taken away are not.
        while (announcer.firstChild) announcer.removeChild(announcer.firstChild);
        said.forEach(function (text) {
          var line = document.createElement("p");
          line.textContent = text;
          announcer.appendChild(line);
        });
      }
      shown = snapshot();
      shownFinished = finishedNow();
      shownRematch = rematchNow();
      shownVersion = version;
    }
  });

  // How long the game has gone on, kept current, in the page's language (Intl).
  var lang = document.documentElement.lang || "en";
  var clock = null;
  try { clock = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }); } catch (e) { clock = null; }
  var ago = window.Intl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(lang, { numeric: "always", style: "short" }) : null;
  function tick() {
    document.querySelectorAll("time[data-started]").forEach(function (el) {
      var started = new Date(el.getAttribute("data-started"));
      var minutes = Math.max(0, Math.floor((Date.now() - started.getTime()) / 60000));
      el.setAttribute("title", ago ? ago.format(-minutes, "minute") : minutes + " min ago");
      // The phone's own clock time (the server wrote UTC if it did not know the phone's zone yet).
      if (clock) el.textContent = clock.format(started);
    });
  }
  tick();
  setInterval(tick, 30000);
  document.addEventListener("htmx:afterSettle", tick);  // a morph drops the title it set

  // Keep the screen awake while the table is open, where the browser can (Screen Wake Lock API):
  // asked for at once, a toggle to let the screen sleep again. The browser lets the lock go
  // whenever the page is hidden; it is asked for again when the page is back, if still wanted.
  var wakeBox = document.getElementById("wake-lock-box");
  var wake = document.getElementById("wake-lock");
  var wakeState = document.getElementById("wake-lock-state");
  // What the switch says comes from the page (data-* of #wake-lock-box), in its language.
  var wakeWords = function (name) { return (wakeBox && wakeBox.getAttribute("data-" + name)) || ""; };
  if (wake && wakeBox && navigator.wakeLock && typeof navigator.wakeLock.request === "function") {
    var sentinel = null;
    var wanted = true;
    var show = function (on, words) {
      wake.setAttribute("aria-pressed", on ? "true" : "false");
      if (wakeState) wakeState.firstElementChild.textContent = words;
    };
    var request = function () {
      navigator.wakeLock.request("screen").then(function (lock) {
        sentinel = lock;
        show(true, wakeWords("on"));
        lock.addEventListener("release", function () {
          if (sentinel === lock) sentinel = null;
          // Let go while the page is in sight and still wanted: the phone took it back.
          if (wanted && document.visibilityState === "visible") {
            wanted = false;
            show(false, wakeWords("released"));
          }
        });
      }).catch(function () {
        // Refused (battery saver, say): the player can try again with the toggle.
        wanted = false;
        show(false, wakeWords("refused"));
      });
    };
    wakeBox.hidden = false;
    wake.addEventListener("click", function () {
      wanted = !wanted;
      if (wanted) request();
      else {
        show(false, wakeWords("off"));
        if (sentinel) sentinel.release();
      }
    });
    document.addEventListener("visibilitychange", function () {
      if (wanted && !sentinel && document.visibilityState === "visible") request();
    });
    request();
  } else {
    var unsupported = document.getElementById("wake-lock-unsupported");
    if (unsupported) {
      // Browsers give the API to HTTPS pages (and localhost) only: a companion served over
      // plain http on the home network is the usual reason, and has its own remedy.
      if (window.isSecureContext === false) {
        unsupported.firstElementChild.textContent = unsupported.getAttribute("data-insecure") || unsupported.textContent;
      }
      unsupported.hidden = false;
    }
  }
})();

// A table too wide for the phone scrolls inside its box; a box with more to its right fades out
// at that edge (data-more), so the hidden columns do not pass for the end of the table.
(function () {
  "use strict";
  function mark(box) {
    box.toggleAttribute("data-more", box.scrollWidth - box.clientWidth - box.scrollLeft > 1);
  }
  function markAll() {
    document.querySelectorAll(".scroll-x").forEach(mark);
  }
  document.addEventListener("scroll", function (event) {
    var box = event.target;
    if (box.nodeType === 1 && box.classList.contains("scroll-x")) mark(box);
  }, true);
  window.addEventListener("resize", markAll);
  document.addEventListener("htmx:afterSettle", markAll);
  markAll();
})();

// The phone's time zone, for the times the server writes (companion/web/time_zone.py): kept in a
// cookie the server reads on the next page, and that the BG Stats export dates its play by;
// without JavaScript the pages say their times are UTC.
(function () {
  "use strict";
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (!/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;  // an IANA name: nothing a cookie must escape
  var cookie = "tz=" + zone;
  if ((" " + document.cookie + ";").indexOf(" " + cookie + ";") !== -1) return;
  document.cookie = cookie + "; path=/; max-age=31536000; samesite=lax" + (location.protocol === "https:" ? "; secure" : "");
})();

// A number input holding a value (one entered before, or one the rules suggest) is selected when
// it gets the focus, so that a number typed on a phone replaces it ("2", not "12"); the tap's
// own mouseup, which would put the caret back, is let go. An empty one shows what empty stands
// for as its placeholder and needs none of this (nor does a page without JavaScript, where the
// value is edited as any text).
(function () {
  "use strict";
  var selected = null;
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    selected = null;
    if (field.tagName !== "INPUT" || field.type !== "number" || field.value === "") return;
    try { field.select(); selected = field; } catch (e) { /* cannot select a number here: typing still works */ }
  }, true);
  document.addEventListener("mouseup", function (event) {
    if (selected !== null && event.target === selected) event.preventDefault();
    selected = null;
  }, true);
  document.addEventListener("keydown", function () { selected = null; }, true);
})();
