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
