// Worksheet page: the "Download PDF" link fetches the PDF while a status (with a spinner, read out
// by screen readers through aria-live) says it is being prepared, then saves it. Without
// JavaScript the link is an ordinary download.
(function () {
  "use strict";
  function filename(res, fallback) {
    var cd = res.headers.get("Content-Disposition") || "";
    var m = /filename="?([^";]+)"?/.exec(cd);
    return m ? m[1] : fallback;
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
    link.setAttribute("aria-busy", "true");
    say(link.dataset.busy, true);
    fetch(link.href, { credentials: "same-origin" }).then(function (res) {
      if (!res.ok) throw new Error("HTTP " + res.status);
      return res.blob().then(function (blob) { return { blob: blob, name: filename(res, "worksheet.pdf") }; });
    }).then(function (got) {
      var url = URL.createObjectURL(got.blob);
      var a = document.createElement("a");
      a.href = url;
      a.download = got.name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
      say(link.dataset.done, false);
    }).catch(function () {
      say(link.dataset.failed, false);
    }).then(function () {
      link.removeAttribute("aria-busy");
    });
  });
})();
