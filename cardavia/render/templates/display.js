// The sliders: show the stored values, apply and store every change.
(function () {
  var d = window.cardaviaDisplay, form = document.querySelector("form.display");
  if (!d || !form) return;
  var names = ["contrast", "grain", "temperature"];
  function show(v) {
    names.forEach(function (n) {
      form[n].value = v[n];
      var out = form.querySelector('output[for="' + n + '"]');
      if (out) out.textContent = v[n] + "%";
    });
  }
  function current() {
    var v = {};
    names.forEach(function (n) { v[n] = d.clamp(form[n].value); });
    return v;
  }
  show(d.read());
  form.addEventListener("input", function () { var v = current(); d.apply(v); d.save(v); show(v); });
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  window.addEventListener("storage", function () { var v = d.read(); d.apply(v); show(v); });
})();
