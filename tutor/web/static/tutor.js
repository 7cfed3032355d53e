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

  // Walk-through before answering: name who played each card from the learner's own picks.
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
      rows.forEach(function (row) {
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

  // Walk-through: one trick at a time (all tricks stay in the page; without this file all show).
  // Before answering, picking a card moves on to the next trick; after answering, the pager
  // opens at the first trick answered wrong.
  function pager(box) {
    var rows = Array.prototype.slice.call(box.querySelectorAll(".trick-row"));
    if (rows.length < 2) { return; }
    var answered = !box.classList.contains("stepwise");
    var nav = document.createElement("div");
    nav.className = "trick-pager";
    var prev = document.createElement("button");
    var next = document.createElement("button");
    var where = document.createElement("span");
    prev.type = "button";
    next.type = "button";
    prev.className = "button";
    next.className = "button";
    prev.textContent = box.dataset.prev || "‹";
    next.textContent = box.dataset.next || "›";
    where.className = "pager-where";
    where.setAttribute("aria-live", "polite");
    nav.appendChild(prev);
    nav.appendChild(where);
    nav.appendChild(next);
    box.parentNode.insertBefore(nav, box);
    box.classList.add("paged");
    var current = 0;
    if (answered) {
      var wrong = rows.findIndex(function (r) { return r.classList.contains("wrong"); });
      current = wrong < 0 ? 0 : wrong;
    }
    function show(i, focus) {
      current = Math.max(0, Math.min(rows.length - 1, i));
      rows.forEach(function (r, j) { r.classList.toggle("current", j === current); });
      var legend = rows[current].querySelector("legend");
      where.textContent = legend && legend.firstChild ? legend.firstChild.textContent.trim() : "";
      prev.disabled = current === 0;
      var picked = !!rows[current].querySelector("input:checked");
      next.disabled = current === rows.length - 1 || (!answered && !picked);
      if (focus) {
        var target = rows[current].querySelector("input:checked") || rows[current].querySelector("input");
        if (target && !target.disabled) { target.focus(); }
      }
    }
    prev.addEventListener("click", function () { show(current - 1, true); });
    next.addEventListener("click", function () { show(current + 1, true); });
    if (!answered) {
      box.addEventListener("change", function (e) {
        var row = e.target.closest(".trick-row");
        var i = rows.indexOf(row);
        if (i === current && i < rows.length - 1) {
          window.setTimeout(function () { show(i + 1, true); }, 250);
        } else {
          show(current, false);
        }
      });
    }
    show(current, false);
  }

  function focusOn(el) {
    if (!el) { return; }
    if (!el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "-1"); }
    el.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest" });
  }

  // Answers and hints sent with fetch: the verdict (or the rule) takes the question's place,
  // focus moves to it; an answer that cannot be read shows its error beside the form, the
  // learner's choices kept. Anything else (a limit, an expired form) falls back to a plain post.
  function sendInPlace(form, isHint) {
    form.addEventListener("submit", function (e) {
      if (!window.fetch || !window.FormData || !window.URLSearchParams) { return; }
      e.preventDefault();
      var section = form.closest("section.exercise");
      var button = form.querySelector("[type=submit]");
      if (button) { button.disabled = true; }
      fetch(form.action, {
        // URL-encoded, as the form posts without script (cheaper to read than multipart); the
        // body sets Content-Type: application/x-www-form-urlencoded;charset=UTF-8.
        method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
        headers: { "X-Tutor-Fetch": "1", "Accept": "text/html" }
      }).then(function (r) {
        if (r.status === 429 && !isHint && form.hasAttribute("data-limit-message")) {
          waitInPlace(form, button, parseInt(r.headers.get("Retry-After"), 10));
          return null;
        }
        return r.text().then(function (text) { return { status: r.status, text: text }; });
      }).then(function (res) {
        if (res === null) { return; }
        var t = document.createElement("template");
        t.innerHTML = res.text;
        var fresh = t.content.querySelector("section.exercise");
        if (!fresh || (res.status !== 200 && res.status !== 400)) { throw new Error("fall back"); }
        if (res.status === 400 && !isHint) {
          var err = fresh.querySelector(".form-error");
          var old = section.querySelector(".form-error");
          if (old) { old.remove(); }
          var actions = form.querySelector(".actions");
          form.insertBefore(err, actions);
          form.setAttribute("aria-describedby", err.id);
          if (button) { button.disabled = false; }
          err.classList.add("arrived");
          focusOn(err);
          return;
        }
        section.replaceWith(fresh);
        enhance(fresh);
        fresh.classList.add("arrived");
        // what the answer changed in the page's header (_page_meta.html): a step it finished shows
        // done with the stars earned, a class lesson its count of exercises answered right
        t.content.querySelectorAll("[data-page-meta] > [id]").forEach(function (line) {
          var old = document.getElementById(line.id);
          if (old) { old.replaceWith(line); }
        });
        var bar = document.querySelector(".quiz-head progress");
        if (bar && !isHint && fresh.querySelector(".verdict")) {  // this question answered (again: no change)
          bar.value = Math.min(bar.max, Math.max(bar.value, parseFloat(bar.getAttribute("data-answered")) || 0));
        }
        focusOn(fresh.querySelector(isHint ? ".rule-hint" : ".verdict"));
      }).catch(function () {
        if (button) { button.disabled = false; }
        HTMLFormElement.prototype.submit.call(form);
      });
    });
  }

  // An answer over the rate limit (429): the exercise stays as it is, with what was chosen, and a
  // message beside the form counts down the seconds of Retry-After; the button comes back at 0.
  // The texts are the form's (data-limit-message with {n}, data-limit-over), in the page's language.
  function waitInPlace(form, button, seconds) {
    var left = isFinite(seconds) && seconds > 0 ? seconds : 1;
    var digits = window.Intl && Intl.NumberFormat ? new Intl.NumberFormat(document.documentElement.lang || undefined) : null;
    var old = form.querySelector(".form-error");
    if (old) { old.remove(); }
    var note = document.createElement("p");
    note.className = "form-error limit-wait arrived";
    note.id = "limit-" + (form.closest("section.exercise") || form).id;
    note.setAttribute("role", "status");
    note.setAttribute("tabindex", "-1");
    form.insertBefore(note, form.querySelector(".actions"));
    form.setAttribute("aria-describedby", note.id);
    function draw() {
      // read out once on arrival and once at 0, not at every second
      note.setAttribute("aria-live", left > 0 && note.textContent ? "off" : "polite");
      note.textContent = left > 0
        ? form.getAttribute("data-limit-message").replace("{n}", digits ? digits.format(left) : String(left))
        : form.getAttribute("data-limit-over");
    }
    draw();
    focusOn(note);
    var timer = window.setInterval(function () {
      left -= 1;
      draw();
      if (left <= 0) {
        window.clearInterval(timer);
        if (button) { button.disabled = false; }
      }
    }, 1000);
  }

  // "Try again": the question again in place (fetched from the page it links to).
  function retryInPlace(link) {
    link.addEventListener("click", function (e) {
      if (!window.fetch) { return; }
      var section = link.closest("section.exercise");
      e.preventDefault();
      fetch(link.href, { credentials: "same-origin", headers: { "Accept": "text/html" } }).then(function (r) {
        if (r.status !== 200) { throw new Error("fall back"); }
        return r.text();
      }).then(function (text) {
        var t = document.createElement("template");
        t.innerHTML = text;
        var fresh = t.content.getElementById(section.id);
        if (!fresh) { throw new Error("fall back"); }
        section.replaceWith(fresh);
        enhance(fresh);
        focusOn(fresh.querySelector(".prompt"));
      }).catch(function () { window.location.href = link.href; });
    });
  }

  // "Continue" to the next exercise of the same page: focus its question.
  function focusHash() {
    var id = window.location.hash.slice(1);
    if (!id) { return; }
    var el = document.getElementById(id);
    if (el && el.matches("section.exercise")) { focusOn(el.querySelector(".prompt") || el); }
  }

  // The suit-colour switch (the footer's settings form) goes back to where the learner was on the
  // page: the exercise they last worked on (a choice, an answer sent in place, its verdict), else
  // the address's own fragment (an exercise or a rule point linked to). Reaching the footer
  // scrolls the page, so where it is scrolled to says nothing. Only a plain fragment (#ex-e1,
  // #rule-H14) joins the form's next, and the server keeps no other; without this file the page
  // opens at its top, as before.
  var PLACE = /^#[A-Za-z0-9_-]+$/;
  var workedOn = "";

  function noteWork(e) {
    var section = e.target.closest && e.target.closest("section.exercise[id]");
    if (section) { workedOn = "#" + section.id; }
  }

  function keepPlace(form) {
    var next = form.querySelector("input[name=next]");
    if (!next) { return; }
    form.addEventListener("submit", function () {
      var place = workedOn || window.location.hash;
      next.value = next.value.split("#")[0] + (PLACE.test(place) ? place : "");
    });
  }

  function enhance(root) {
    root.querySelectorAll(".tricks.stepwise").forEach(stepwise);
    root.querySelectorAll(".tricks[data-players]").forEach(pager);
    root.querySelectorAll("section.exercise form.answer-form").forEach(function (f) { sendInPlace(f, false); });
    root.querySelectorAll("section.exercise form.hint-form").forEach(function (f) { sendInPlace(f, true); });
    root.querySelectorAll("section.exercise a.retry").forEach(retryInPlace);
    if (root !== document) { return; }
    // a page sent back with messages: focus goes to the message of the form, else to the first
    // field with one (its label and message are read out; the page scrolls to it)
    var err = root.querySelector(".form-error[role=alert]");
    var field = root.querySelector(".field.has-error [aria-invalid=true], .q-tools.has-error [aria-invalid=true]");
    if (err) { focusOn(err); } else if (field) { field.focus(); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.setup").forEach(setupKinds);
    document.querySelectorAll("form.settings").forEach(keepPlace);
    document.addEventListener("focusin", noteWork);
    document.addEventListener("click", noteWork);
    enhance(document);
    // a link followed to another place on the page: the place is the address's again
    window.addEventListener("hashchange", function () { workedOn = ""; focusHash(); });
  });
})();
