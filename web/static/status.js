/* The status page: live updates, replaying a turn of the history, the past games list. */
(function () {
  "use strict";
  var P = window.Pawnlight;
  var summary = document.getElementById("summary");
  var shown = summary ? summary.dataset.version : "";
  var bar = document.getElementById("replay-bar");
  var replay = null; // {turn, when} while a turn of the history is on the board
  if (bar && bar.dataset.turn) replay = { turn: Number(bar.dataset.turn), when: bar.dataset.when };

  function phaseText() {
    var phase = document.getElementById("phase");
    var text = document.getElementById("phase-text");
    return (phase ? phase.textContent + ". " : "") + (text ? text.textContent : "");
  }

  function markReplayLine() {
    document.querySelectorAll(".history-line").forEach(function (line) {
      if (replay && Number(line.dataset.turn) === replay.turn) line.setAttribute("aria-current", "true");
      else line.removeAttribute("aria-current");
    });
  }

  // Screen readers hear the phase when it changes (the swapped regions themselves stay quiet).
  var lastAnnounced = phaseText();
  var load = P.fragments("/partial/live", function () { return replay ? ["board", "legend"] : []; }, function () {
    markReplayLine();
    var now = phaseText();
    if (now !== lastAnnounced) { lastAnnounced = now; P.announce(now); }
    document.dispatchEvent(new Event("pawnlight:updated"));
  });
  P.refresh = load;
  var updateHistory = P.history(markReplayLine);

  P.connect(function (state) {
    updateHistory(state);
    var version = P.versionOf(state);
    if (version === shown) return;
    shown = version;
    load();
  });

  // -- honest connection state -------------------------------------------------------------
  // The page shows the Pi's last word. Once the Pi cannot be reached for OFFLINE_AFTER_MS, the
  // page says so where people look (not only in the small chip): the board link is unknown, and
  // what is shown may be out of date. Back online, it fetches everything afresh.

  var OFFLINE_AFTER_MS = 3000;
  var conn = document.getElementById("conn");
  var offlineTimer = null;
  function setOffline(yes) {
    document.body.classList.toggle("offline", yes);
    var note = document.getElementById("stale-note");
    if (note) note.hidden = !yes;
    var link = document.getElementById("link");
    if (yes && link) {
      link.textContent = P.t("No connection to the Pi: the board’s state is unknown");
      link.className = "chip link bad";
      link.dataset.up = "unknown";
    }
  }
  function connectionChanged() {
    var state = conn ? conn.dataset.state : "live";
    if (state === "live" || state === "polling") {
      clearTimeout(offlineTimer);
      offlineTimer = null;
      if (document.body.classList.contains("offline")) { setOffline(false); load(); }
    } else if (!offlineTimer && !document.body.classList.contains("offline")) {
      offlineTimer = setTimeout(function () { offlineTimer = null; setOffline(true); },
        state === "offline" ? 0 : OFFLINE_AFTER_MS);
    }
  }
  if (conn && "MutationObserver" in window) {
    new MutationObserver(connectionChanged).observe(conn, { attributes: true, attributeFilter: ["data-state"] });
  }

  // -- replaying a turn ----------------------------------------------------------------------

  /* The turn in words (its notation is for the records and the API, not the page). */
  function lineLabel(turn) {
    var link = document.querySelector('.history-line[data-turn="' + turn + '"]');
    var line = link && link.querySelector(".line-text");
    return line ? line.textContent : "";
  }

  function showReplay(turn, when) {
    fetch("/api/board.svg?turn=" + turn + "&when=" + when, { cache: "no-store" })
      .then(function (r) {
        if (!r.ok) return r.json().then(function (d) { throw new Error(d.error); });
        return r.text();
      })
      .then(function (svg) {
        replay = { turn: turn, when: when };
        var board = document.getElementById("board");
        board.innerHTML = svg;
        board.classList.add("replaying");
        document.getElementById("layout").classList.add("replaying");
        var keys = document.getElementById("replay-legend");
        if (keys) {
          keys.hidden = false;
          // Only the marks this turn's drawing has: no "slide taken" for a turn with none.
          keys.querySelectorAll("[data-mark]").forEach(function (item) {
            item.hidden = !board.querySelector("[" + item.dataset.mark + "]");
          });
        }
        bar.hidden = false;
        bar.dataset.turn = turn;
        bar.dataset.when = when;
        document.getElementById("replay-label").textContent =
          P.t(when === "before" ? "Turn %(turn)s, before: %(label)s" : "Turn %(turn)s, after: %(label)s", { turn: turn, label: lineLabel(turn) });
        bar.querySelectorAll("[data-replay]").forEach(function (link) {
          var kind = link.dataset.replay;
          if (kind === "live") return;
          link.href = "/?turn=" + turn + "&when=" + kind;
          if (kind === when) link.setAttribute("aria-current", "true");
          else link.removeAttribute("aria-current");
        });
        markReplayLine();
        history.replaceState(null, "", "/?turn=" + turn + "&when=" + when);
      })
      .catch(function (error) { P.announce(error.message); });
  }

  function backToLive() {
    replay = null;
    bar.hidden = true;
    var board = document.getElementById("board");
    if (board) board.classList.remove("replaying");
    document.getElementById("layout").classList.remove("replaying");
    var keys = document.getElementById("replay-legend");
    if (keys) keys.hidden = true;
    history.replaceState(null, "", "/");
    markReplayLine();
    load();
  }

  document.addEventListener("click", function (event) {
    var line = event.target.closest(".history-line");
    if (line) {
      event.preventDefault();
      showReplay(Number(line.dataset.turn), "after");
      var figure = document.getElementById("board-figure");
      var calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      if (figure && figure.getBoundingClientRect().top < 0) {
        figure.scrollIntoView({ behavior: calm ? "auto" : "smooth", block: "start" });
      }
      return;
    }
    var control = event.target.closest("[data-replay]");
    if (control) {
      event.preventDefault();
      if (control.dataset.replay === "live") backToLive();
      else if (replay) showReplay(replay.turn, control.dataset.replay);
    }
  });

  // -- past games (loaded when opened) -------------------------------------------------------

  var games = document.getElementById("games");
  if (games) {
    games.addEventListener("toggle", function () {
      if (!games.open) return;
      fetch("/partial/games", { cache: "no-store" }).then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.text();
      }).then(function (html) {
        document.getElementById("games-list").innerHTML = html;
      }).catch(function () { /* the link to the page stays */ });
    });
  }
})();
