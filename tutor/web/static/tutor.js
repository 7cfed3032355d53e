// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";

  // Practice setup: show only the kinds of the chosen game.
  function setupKinds(form) {
    form.classList.add("js");
    function show() {
      var game = form.querySelector("input[name=game]:checked");
      form.querySelectorAll(".kinds").forEach(function (fs) {
        fs.classList.toggle("shown", !!game && fs.dataset.game === game.value);
      });
    }
    form.querySelectorAll("input[name=game]").forEach(function (r) { r.addEventListener("change", show); });
    show();
  }

  // Walk-through: one trick at a time; name who played each card from the learner's own picks.
  function stepwise(box) {
    var names;
    var numbers;
    try { names = JSON.parse(box.dataset.seats || "[]"); } catch (e) { names = []; }
    try { numbers = JSON.parse(box.dataset.numbers || "[]"); } catch (e) { numbers = []; }
    var players = parseInt(box.dataset.players, 10) || names.length;
    var first = parseInt(box.dataset.first, 10) || 0;
    var rows = Array.prototype.slice.call(box.querySelectorAll(".trick-row"));
    box.classList.add("js");
    function update() {
      var leader = first;
      var known = true;
      rows.forEach(function (row, i) {
        row.classList.toggle("later", !known);
        row.querySelectorAll(".trick-card").forEach(function (tc, j) {
          var who = tc.querySelector(".small-who");
          if (who && known) { who.textContent = names[(leader + j) % players] || who.textContent; }
          var no = tc.querySelector(".seat-no");
          if (no && known) { no.textContent = numbers[(leader + j) % players] || no.textContent; }
        });
        var picked = row.querySelector("input:checked");
        if (picked && known) {
          leader = (leader + parseInt(picked.value, 10)) % players;
        } else {
          known = false;
        }
      });
    }
    box.addEventListener("change", update);
    update();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.setup").forEach(setupKinds);
    document.querySelectorAll(".tricks.stepwise").forEach(stepwise);
  });
})();
