// The display sliders: contrast, grain and colour temperature (50% = neutral).
(function () {
  var form = document.querySelector("form.display");
  if (!form) return;
  var root = document.documentElement.style;
  function apply() {
    var c = +form.contrast.value, g = +form.grain.value, t = +form.temperature.value;
    root.setProperty("--contrast", (0.5 + c / 100).toFixed(2));
    root.setProperty("--grain", (g / 1000).toFixed(3));
    root.setProperty("--warm", Math.max(0, (t - 50) / 100).toFixed(2));
    form.querySelectorAll("output").forEach(function (o) { o.value = form[o.htmlFor.value].value + "%"; });
  }
  form.addEventListener("input", apply);
  apply();
})();
