// The time left of a timed class assignment (templates/classes/question.html): counts down from
// the server's deadline (data-deadline, UTC) once a second, in the page's digits. The server
// refuses an answer after the limit whatever this shows; no inline script (the CSP forbids it).
(function () {
  "use strict";
  var box = document.querySelector(".timer[data-deadline]");
  if (!box) { return; }
  var left = box.querySelector(".timer-left");
  var ends = Date.parse(box.getAttribute("data-deadline"));
  if (!left || isNaN(ends)) { return; }
  var lang = document.documentElement.lang || undefined;
  var two = new Intl.NumberFormat(lang, { minimumIntegerDigits: 2, useGrouping: false });
  var one = new Intl.NumberFormat(lang, { useGrouping: false });
  function tick() {
    var s = Math.max(0, Math.floor((ends - Date.now()) / 1000));
    left.textContent = one.format(Math.floor(s / 60)) + ":" + two.format(s % 60);
    box.classList.toggle("low", s < 60);
    if (s > 0) { window.setTimeout(tick, 1000 - (Date.now() % 1000)); }
  }
  tick();
})();
