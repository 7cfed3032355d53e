// Live quiz pages (tutor/web/views/live.py): follow the session's event stream (server-sent
// events). The teacher's page puts the live bar and the leaderboard in place at each "update";
// both pages load again when the session has moved on (a new question, the result, the end).
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root || !window.EventSource) { return; }
  var url = root.getAttribute("data-events");
  var version = root.getAttribute("data-version");
  var session = root.getAttribute("data-session");
  var source = new EventSource(url);
  var reloading = false;

  function reload() {
    if (reloading) { return; }
    reloading = true;
    source.close();
    window.location.reload();
  }

  function read(e) {
    try { return JSON.parse(e.data); } catch (err) { return null; }
  }

  // learner: {"session", "state", "n", "version"}
  source.addEventListener("state", function (e) {
    var d = read(e);
    if (!d) { return; }
    if (String(d.version) !== version || String(d.session === null ? "" : d.session) !== session) { reload(); }
  });

  // teacher: {"version", "bar", "board"} (HTML drawn by the server, nicknames escaped)
  source.addEventListener("update", function (e) {
    var d = read(e);
    if (!d) { return; }
    if (String(d.version) !== version) { reload(); return; }
    var bar = document.getElementById("live-bar");
    var board = document.getElementById("live-board");
    if (bar && typeof d.bar === "string") { bar.innerHTML = d.bar; }
    if (board && typeof d.board === "string") { board.innerHTML = d.board; }
    root.setAttribute("data-updated", String(Date.now()));
  });

  window.addEventListener("pagehide", function () { source.close(); });
}());
