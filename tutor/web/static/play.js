// Play a deal without a page load: every move is the same GET the form sends without this file;
// the answer's #play replaces this one and the address bar follows (history.pushState).
(function () {
  "use strict";

  function focusAfter(box) {
    var target = box.querySelector("#refusal") || box.querySelector("#story-h") ||
      box.querySelector(".play-card") || box.querySelector(".choices button") || box.querySelector("h1");
    if (target) {
      if (!target.hasAttribute("tabindex") && !/^(BUTTON|A|INPUT)$/.test(target.tagName)) {
        target.setAttribute("tabindex", "-1");
      }
      target.focus();
    }
  }

  function load(url, push) {
    var box = document.getElementById("play");
    if (box) { box.setAttribute("aria-busy", "true"); }
    return fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (resp) {
        return resp.text().then(function (html) { return { resp: resp, html: html }; });
      })
      .then(function (got) {
        var doc = new DOMParser().parseFromString(got.html, "text/html");
        var fresh = doc.getElementById("play");
        if (!fresh) { window.location.href = got.resp.url; return; }
        var old = document.getElementById("play");
        old.replaceWith(document.importNode(fresh, true));
        document.title = doc.title;
        // the language links keep the deal: both copies (the bar's and the phone menu's)
        var langs = doc.querySelectorAll("nav.langs");
        document.querySelectorAll("nav.langs").forEach(function (oldLangs, i) {
          if (langs[i]) { oldLangs.replaceWith(document.importNode(langs[i], true)); }
        });
        if (push) { history.pushState({ play: true }, "", got.resp.url); }
        bind(document.getElementById("play"));
        // the live region stays in the page (a replaced one is not announced): tell it the news
        var live = document.getElementById("play-announce");
        var said = document.getElementById("play-live");
        var refusal = document.getElementById("refusal");
        if (live) { live.textContent = refusal ? "" : (said ? said.textContent : ""); }
        focusAfter(document.getElementById("play"));
      })
      .catch(function () { window.location.href = url; });
  }

  function bind(box) {
    if (!box) { return; }
    box.querySelectorAll("form[data-play]").forEach(function (form) {
      form.addEventListener("submit", function (e) {
        var btn = e.submitter;
        if (!btn || !btn.name) { return; }
        e.preventDefault();
        var data = new URLSearchParams(new FormData(form));
        data.set(btn.name, btn.value);
        form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
        load(form.action + "?" + data.toString(), true);
      });
    });
    box.querySelectorAll("a[data-play-nav]").forEach(function (a) {
      a.addEventListener("click", function (e) {
        if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) { return; }
        e.preventDefault();
        load(a.href, true);
      });
    });
  }

  window.addEventListener("popstate", function () {
    if (document.getElementById("play")) { load(window.location.href, false); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    bind(document.getElementById("play"));
  });
})();
