// Display settings, applied before the page is drawn: the three sliders' values (0-100,
// 50 neutral) become colours and the grain's opacity. Kept in localStorage, so they
// carry over between pages and visits (pages opened from disk share it only where the
// browser gives file:// pages one storage); without storage, 50 each.
(function () {
  var KEY = "cardavia.display";
  function mix(a, b, t) {  // two "#rrggbb" colours, t from 0 (a) to 1 (b)
    var out = "#";
    for (var i = 1; i < 7; i += 2) {
      var x = parseInt(a.substr(i, 2), 16), y = parseInt(b.substr(i, 2), 16);
      out += ("0" + Math.round(x + (y - x) * t).toString(16)).slice(-2);
    }
    return out;
  }
  function along(cool, neutral, warm, t) {  // t 0..100: cool, neutral at 50, warm
    return t < 50 ? mix(cool, neutral, t / 50) : mix(neutral, warm, (t - 50) / 50);
  }
  function clamp(v) { v = Math.round(+v); return isNaN(v) ? 50 : Math.max(0, Math.min(100, v)); }
  function read() {
    var v = {contrast: 50, grain: 50, temperature: 50};
    try {
      var saved = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      for (var k in v) if (saved && saved[k] != null) v[k] = clamp(saved[k]);
    } catch (e) { /* no storage: defaults */ }
    return v;
  }
  function save(v) {
    try { window.localStorage.setItem(KEY, JSON.stringify(v)); } catch (e) { /* not kept */ }
  }
  function apply(v) {
    var t = v.temperature, c = v.contrast, s = document.documentElement.style;
    var paper = along("#eef3fb", "#fbfaf6", "#fbefd9", t);
    var band = along("#dfe7f3", "#f1ede4", "#f3e1c2", t);
    var ink = along("#121a26", "#1b1b1f", "#2b1d10", t);
    var muted = along("#3f4a5a", "#4a4a52", "#5a4632", t);
    var rule = along("#c7d1df", "#d6d2c8", "#dcc8a6", t);
    if (c < 50) {  // low contrast: ink and rules fade toward the paper
      var k = (50 - c) / 50 * 0.5;
      ink = mix(ink, paper, k); muted = mix(muted, paper, k); rule = mix(rule, paper, k * 0.8);
    } else {  // high contrast: ink toward black, paper toward white
      var h = (c - 50) / 50;
      ink = mix(ink, "#000000", h); muted = mix(muted, "#000000", h * 0.6);
      paper = mix(paper, "#ffffff", h * 0.7); rule = mix(rule, "#000000", h * 0.4);
    }
    s.setProperty("--paper", paper); s.setProperty("--band", band); s.setProperty("--ink", ink);
    s.setProperty("--muted", muted); s.setProperty("--rule", rule);
    s.setProperty("--grain", (v.grain / 100 * 0.16).toFixed(3));
  }
  window.cardaviaDisplay = {read: read, save: save, apply: apply, clamp: clamp};
  apply(read());
})();
