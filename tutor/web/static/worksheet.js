// Worksheet page: the "Download PDF" link asks for the PDF while a status (with a spinner, read out
// by screen readers through aria-live) says how far its build is ("Page 7", from the server's JSON
// answer, asked again every second at the URL it names), then saves it. Without JavaScript the
// link opens a page that shows the progress and reloads itself until the reload is the download
// (tutor/web/pdfjobs.py).
(function () {
  "use strict";
  function filename(res, fallback) {
    var cd = res.headers.get("Content-Disposition") || "";
    var m = /filename="?([^";]+)"?/.exec(cd);
    return m ? m[1] : fallback;
  }
  function save(blob, name) {
    var url = URL.createObjectURL(blob);
    var a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }
  document.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("a.pdf-link");
    if (!link || !window.fetch || !window.URL || link.getAttribute("aria-busy") === "true") return;
    ev.preventDefault();
    var status = document.querySelector(".pdf-status");
    function say(text, busy) {
      if (!status) return;
      status.textContent = text;
      status.classList.toggle("busy", !!busy);
    }
    function done(text) {
      say(text, false);
      link.removeAttribute("aria-busy");
    }
    function ask(url) {
      fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (res) {
        var type = res.headers.get("Content-Type") || "";
        if (res.ok && type.indexOf("application/pdf") === 0) {
          return res.blob().then(function (blob) {
            save(blob, filename(res, "worksheet.pdf"));
            done(link.dataset.done);
          });
        }
        if (res.status === 202 && type.indexOf("application/json") === 0) {
          return res.json().then(function (job) {
            say(job.progress === link.dataset.busy ? job.progress : link.dataset.busy + " " + job.progress, true);
            setTimeout(function () { ask(job.poll); }, 1000);
          });
        }
        throw new Error("HTTP " + res.status);
      }).catch(function () {
        done(link.dataset.failed);
      });
    }
    link.setAttribute("aria-busy", "true");
    say(link.dataset.busy, true);
    ask(link.href);
  });
})();
