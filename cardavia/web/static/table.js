// The table: select a tile and confirm to discard (or the tiles to pass on before play),
// answer with one click, and follow the game as the server plays the others' moves. The server decides everything: this script
// only sends your answer (with the version of the table it answers) and swaps in the
// table the server renders, announcing the others' moves to screen readers.
(function () {
  "use strict";
  // Tabs (Table, Full rules): switch in place, keep the choice in the address.
  var tabs = Array.prototype.slice.call(document.querySelectorAll('[role="tab"]'));
  function choose(tab, focus) {
    tabs.forEach(function (t) {
      var on = t === tab;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
      var panel = document.getElementById(t.getAttribute("aria-controls"));
      if (panel) panel.hidden = !on;
    });
    if (focus) tab.focus();
    var url = new URL(window.location.href);
    url.searchParams.set("tab", tab.id === "tab-rules" ? "rules" : "table");
    window.history.replaceState(null, "", url.toString());
  }
  tabs.forEach(function (tab, i) {
    tab.addEventListener("click", function (e) { e.preventDefault(); choose(tab, false); });
    tab.addEventListener("keydown", function (e) {
      var j = e.key === "ArrowRight" ? i + 1 : e.key === "ArrowLeft" ? i - 1 : null;
      if (j === null) return;
      e.preventDefault();
      choose(tabs[(j + tabs.length) % tabs.length], true);
    });
  });

  var root = document.getElementById("table");
  if (!root) return;
  var game = root.getAttribute("data-game");
  var lang = document.documentElement.lang;
  var live = document.getElementById("announce");
  var problem = document.getElementById("problem");
  var selected = [], busy = false, timer = null, lastSeen = newest();

  function current() { return root.querySelector(".table-state"); }
  function pick() { return +(current() && current().getAttribute("data-pick")) || 1; }  // tiles a selection holds
  function newest() {
    var n = -1;
    root.querySelectorAll(".log li[data-n]").forEach(function (li) { n = Math.max(n, +li.getAttribute("data-n")); });
    return n;
  }
  function say(text) { problem.textContent = text || ""; problem.hidden = !text; }

  function schedule() {
    clearTimeout(timer);
    var state = current();
    if (!state) return;
    var due = state.getAttribute("data-due");
    if (due !== "") timer = setTimeout(refresh, Math.max(0, parseFloat(due) * 1000) + 20);
    else if (state.getAttribute("data-over") !== "true") timer = setTimeout(refresh, 5000);  // another tab may act
  }

  function refresh() {
    if (busy) return;
    fetch("/" + lang + "/table/" + encodeURIComponent(game) + "/view", {headers: {"Accept": "text/html"}})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(swap)
      .catch(function () { timer = setTimeout(refresh, 3000); });
  }

  function focusKey(el) {
    if (!el || !root.contains(el)) return null;
    if (el.hasAttribute("data-tile-id")) return '[data-tile-id="' + el.getAttribute("data-tile-id") + '"]';
    if (el.hasAttribute("data-action")) return '[data-action="' + el.getAttribute("data-action") + '"]';
    return "";
  }

  function swap(html) {
    var key = focusKey(document.activeElement);
    var before = current() && current().getAttribute("data-version");
    root.innerHTML = html;
    if (current().getAttribute("data-version") !== before) selected = [];
    select(selected);
    announce();
    scrollLog();
    if (key !== null) {
      var again = key && root.querySelector(key);
      var target = again && !again.disabled ? again
        : root.querySelector(".actions button.primary:not([disabled])")
          || root.querySelector('[data-role="hand"] [data-tile-id]:not([aria-disabled="true"])')
          || root.querySelector(".actions button:not([disabled])");
      if (target) target.focus();
    }
    schedule();
  }

  function scrollLog() {  // the newest moves in view
    var log = root.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
  }

  function announce() {
    var lines = [];
    root.querySelectorAll(".log li[data-n]").forEach(function (li) {
      var n = +li.getAttribute("data-n");
      if (n > lastSeen && li.getAttribute("data-seat") !== "0") lines.push(li.textContent);
    });
    lastSeen = Math.max(lastSeen, newest());
    var end = root.querySelector('[data-role="settlement"] h2');
    if (end && lines.length) lines.push(end.textContent);
    if (lines.length) live.textContent = lines.join(" ");
  }

  function select(ids) {  // the selection shown; buttons that act on it enabled once it is whole
    selected = [];
    root.querySelectorAll('[data-role="hand"] [data-tile-id]').forEach(function (b) {
      var id = b.getAttribute("data-tile-id");
      var on = ids.indexOf(id) >= 0 && b.getAttribute("aria-disabled") !== "true";
      b.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) selected.push(id);
    });
    root.querySelectorAll('[data-selection="true"]').forEach(function (b) { b.disabled = selected.length !== pick(); });
  }

  function toggle(id) {  // one tile to discard, or up to pick() to pass on (the oldest gives way)
    var n = pick();
    if (selected.indexOf(id) >= 0) return select(selected.filter(function (x) { return x !== id; }));
    if (n === 1) return select([id]);
    return select((selected.length < n ? selected : selected.slice(1)).concat([id]));
  }

  function codes(ids) {
    return ids.map(function (id) {
      return root.querySelector('[data-tile-id="' + id + '"]').getAttribute("data-tile");
    });
  }

  function act(body) {
    if (busy) return;
    busy = true;
    clearTimeout(timer);
    root.querySelectorAll(".actions button").forEach(function (b) { b.disabled = true; });
    body.version = current().getAttribute("data-version");
    fetch("/api/games/" + encodeURIComponent(game) + "/actions", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (j) { return {ok: r.ok, json: j}; });
    }).then(function (res) {
      busy = false;
      say(res.ok ? "" : res.json.error);
      selected = [];
      refresh();
    }).catch(function () { busy = false; refresh(); });
  }

  function answer(button) {
    var what = button.getAttribute("data-action");
    if (what === "discard") {
      if (selected.length !== 1) return;
      act({do: "discard", id: +selected[0], tile: codes(selected)[0]});
    } else if (what === "exchange") {
      var tiles = button.hasAttribute("data-tiles") ? button.getAttribute("data-tiles").split(",") : codes(selected);
      act({do: "exchange", tiles: tiles});
    } else if (what === "chow") {
      act({do: "chow", tiles: button.getAttribute("data-tiles").split(",")});
    } else if (what === "kong") {
      act({do: "kong", tile: button.getAttribute("data-tile")});
    } else if (what === "missing-suit") {
      act({do: "missing_suit", suit: button.getAttribute("data-suit")});
    } else {
      act({do: what});
    }
  }

  root.addEventListener("click", function (e) {
    var tile = e.target.closest("[data-tile-id]");
    if (tile && root.contains(tile)) {
      if (tile.getAttribute("aria-disabled") === "true") return;
      var id = tile.getAttribute("data-tile-id");
      var discard = root.querySelector('[data-action="discard"]');
      if (discard && selected[0] === id && e.detail > 1) {  // a double click discards
        answer(discard);
        return;
      }
      toggle(id);
      return;
    }
    var button = e.target.closest("[data-action]");
    if (button && !button.disabled) answer(button);
  });

  root.addEventListener("keydown", function (e) {
    var tile = e.target.closest && e.target.closest("[data-tile-id]");
    if (!tile) return;
    var all = Array.prototype.slice.call(root.querySelectorAll('[data-role="hand"] [data-tile-id]'));
    var i = all.indexOf(tile);
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      e.preventDefault();
      var next = all[(i + (e.key === "ArrowRight" ? 1 : all.length - 1)) % all.length];
      if (next) next.focus();
    } else if (e.key === "Enter" && pick() === 1 && selected[0] === tile.getAttribute("data-tile-id")) {
      e.preventDefault();  // Enter on the selected tile confirms the discard
      var discard = root.querySelector('[data-action="discard"]');
      if (discard && !discard.disabled) answer(discard);
    }
  });

  var pace = document.querySelector("form.pace select");
  if (pace) {
    pace.addEventListener("change", function () {
      fetch("/api/games/" + encodeURIComponent(game) + "/pace", {
        method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({pace: +pace.value})
      }).then(function () { refresh(); });
    });
    pace.form.addEventListener("submit", function (e) { e.preventDefault(); });
  }

  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  scrollLog();
  schedule();
})();
