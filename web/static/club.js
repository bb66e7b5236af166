/* The club page: every board's card, fetched again only when that board changed (its rev in
   the live snapshot); boards that appear are added in order, boards gone are removed. */
(function () {
  "use strict";
  var P = window.Pawnlight;
  var list = document.getElementById("club-boards");
  if (!P || !list) return;
  var empty = document.getElementById("club-empty");
  var counts = document.getElementById("club-counts");
  var broker = document.getElementById("club-broker");
  var loading = {}; // board -> the rev being fetched

  function cardOf(board) { return document.getElementById("club-" + board); }

  function place(fresh, board) {
    var old = cardOf(board);
    if (old) { old.replaceWith(fresh); return; }
    var next = null;
    Array.prototype.some.call(list.children, function (child) {
      if (child.dataset.board > board) { next = child; return true; }
      return false;
    });
    list.insertBefore(fresh, next);
  }

  function load(board, rev) {
    if (loading[board] === rev) return;
    loading[board] = rev;
    fetch("/partial/club/" + encodeURIComponent(board), { cache: "no-cache" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
      .then(function (html) {
        var template = document.createElement("template");
        template.innerHTML = html.trim();
        var fresh = template.content.firstElementChild;
        if (fresh) place(fresh, board);
      })
      .catch(function () { /* the next snapshot tries again */ })
      .then(function () { if (loading[board] === rev) delete loading[board]; });
  }


  P.connect(function (club) {
    var boards = club.boards || [];
    var wanted = {};
    boards.forEach(function (b) {
      wanted[b.board] = true;
      var card = cardOf(b.board);
      if (!card || card.dataset.rev !== String(b.rev)) load(b.board, String(b.rev));
    });
    Array.prototype.slice.call(list.children).forEach(function (child) {
      if (!wanted[child.dataset.board]) child.remove();
    });
    if (empty) empty.hidden = boards.length > 0;
    if (counts) {
      var text = P.tn(boards.length, "%(num)s board", "%(num)s boards") + " · " +
        P.t("%(num)s online", { num: club.online }) + " · " + P.t("%(num)s playing", { num: club.playing });
      if (club.ignored) text += " · " + P.tn(club.ignored, "%(num)s message ignored", "%(num)s messages ignored");
      counts.textContent = text;
    }
    if (broker && club.broker) {
      broker.hidden = !!club.broker.connected;
      if (!club.broker.connected) {
        broker.textContent = P.t("Not connected to the broker: %(detail)s. What this page shows may be out of date; it reconnects by itself.", { detail: club.broker.detail });
      }
    }
  });
})();
