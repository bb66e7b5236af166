/* The simulator page: tap pawns to lift and place them, scan cards, press the board's buttons,
   and watch the LEDs the real board would light. */
(function () {
  "use strict";
  var P = window.Pawnlight;
  var BOARD_MS = 1000; // someone else may move pawns on the same simulated board
  var HAND_PAUSE_MS = 200; // beyond the settle time: a lift the board has surely seen

  var wrap = document.getElementById("simboard-wrap");
  var feedback = document.getElementById("sim-feedback");
  var selected = null; // the colour picked from the hand, to put down next
  var lastState = null;
  var shown = null;
  var boardText = null;

  function say(text, bad) {
    feedback.textContent = text;
    feedback.classList.toggle("bad", !!bad);
  }

  function applySelection() {
    document.querySelectorAll("[data-hand]").forEach(function (button) {
      var pressed = button.dataset.hand === selected && Number(button.dataset.count) > 0;
      button.setAttribute("aria-pressed", pressed ? "true" : "false");
    });
    // The selection itself stays: a fragment fetched before the last lift may still show the
    // old hand, and the next fragment shows the pawn again. tap() only holds what is shown.
  }

  /* The colour in hand to put down next: the selection, while the hand shows such a pawn. */
  function shownHolding() {
    var hand = selected && document.querySelector('[data-hand="' + selected + '"]');
    return hand && Number(hand.dataset.count) > 0 ? selected : null;
  }

  /* On a phone the board pans with squares a finger wide; this button fits it to the screen
     (every light in view) and back. The choice is kept for the next visit. */
  var zoom = document.getElementById("sim-zoom");
  function showWhole(whole) {
    wrap.classList.toggle("whole", whole);
    zoom.setAttribute("aria-pressed", whole ? "true" : "false");
    zoom.textContent = whole ? P.t("Squares a finger wide") : P.t("Show the whole board");
  }
  if (zoom) {
    var kept = null;
    try { kept = window.localStorage.getItem("pawnlight.sim.whole"); } catch (error) { /* private mode */ }
    showWhole(kept === "1");
    zoom.addEventListener("click", function () {
      var whole = !wrap.classList.contains("whole");
      showWhole(whole);
      try { window.localStorage.setItem("pawnlight.sim.whole", whole ? "1" : "0"); } catch (error) { /* private mode */ }
    });
  }

  var load = P.fragments("/partial/sim", [], function () { applySelection(); });
  P.refresh = load;

  var updateHistory = P.history();

  P.connect(function (state) {
    lastState = state;
    updateHistory(state);
    var version = P.versionOf(state);
    if (version === shown) return;
    shown = version;
    load();
  });

  // The lights are drawn by the server from the state's "lit" (what the LEDs light, blinking
  // ones included): they come with every fragment, no sampling of the LEDs.

  setInterval(function () {
    if (document.hidden) return;
    fetch("/api/sim/board", { cache: "no-store" }).then(function (r) { return r.text(); })
      .then(function (text) {
        if (boardText !== null && text !== boardText) load();
        boardText = text;
      }).catch(function () {});
  }, BOARD_MS);

  // -- hands on the board --------------------------------------------------------------------

  function send(path, body) {
    return P.post(path, body).then(function (result) {
      if (!result.ok) say(P.t(result.data.error), true);
      return result;
    });
  }

  function pawnAt(key) {
    return wrap.querySelector('.pawn[data-at="' + key + '"]');
  }

  /* A place as people say it ("blue's start circle"), from the drawing's own words. */
  function words(key) {
    var cell = wrap.querySelector('[data-place="' + key + '"]');
    return (cell && cell.dataset.words) || key;
  }

  function lift(key) {
    var pawn = pawnAt(key);
    var colour = pawn ? pawn.dataset.pawn : null;
    return send("/api/sim/lift", { square: key }).then(function (result) {
      if (!result.ok) return null;
      // The daemon's simulator answers {"lifted": "red", "from": "T4"}.
      colour = result.data.lifted || result.data.colour || colour;
      say(P.t("Lifted the %(colour)s pawn from %(place)s: it is in your hand, tap where to put it.", { colour: P.colour(colour || ""), place: words(key) }));
      return colour;
    });
  }

  function place(key, colour) {
    return send("/api/sim/place", { square: key, color: colour }).then(function (result) {
      if (result.ok) {
        say(/^(start|home):/.test(key)
          ? P.t("Put a %(colour)s pawn in %(place)s.", { colour: P.colour(colour), place: words(key) })
          : P.t("Put a %(colour)s pawn on %(place)s.", { colour: P.colour(colour), place: words(key) }));
      }
      return result.ok;
    });
  }

  /* A hand takes a moment between lifting one pawn and putting another down: the board must
     see the square empty (for longer than the settle time) or it never sees the lift. */
  function pause() {
    var settings = (lastState && lastState.settings) || {};
    var settle = typeof settings.settle === "number" ? settings.settle : 0.3;
    return new Promise(function (resolve) { setTimeout(resolve, settle * 1000 + HAND_PAUSE_MS); });
  }

  function tap(target) {
    var key = target.dataset.place;
    var area = /^(start|home):/.test(key);
    var holding = shownHolding();
    var work;
    if (area) {
      // Holding a pawn, a tap on a START or HOME puts it there (the board says if it does
      // not belong); with empty hands it takes one out. Put in its own START, the colour stays
      // picked while the hand has more of it: setting up is a colour, then START, START, ...
      if (holding) {
        var own = key === "start:" + holding;
        work = place(key, holding).then(function (ok) { if (ok && !own) selected = null; });
      } else if (pawnAt(key)) {
        work = lift(key).then(function (colour) { if (colour) selected = colour; });
      } else {
        say(P.t("There is no pawn to take from %(place)s.", { place: words(key) }), true);
        return;
      }
    } else if (pawnAt(key)) {
      // Lift what stands here; holding a pawn, put it down in its place (a bump, a switch).
      work = lift(key).then(function (colour) {
        if (!colour) return;
        if (!holding) { selected = colour; return; }
        selected = colour;
        say(P.t("Lifted the %(colour)s pawn; putting the %(held)s one down…", { colour: P.colour(colour), held: P.colour(holding) }));
        return pause().then(function () {
          return place(key, holding);
        }).then(function () { selected = colour; applySelection(); });
      });
    } else if (holding) {
      work = place(key, holding).then(function (ok) { if (ok) selected = null; });
    } else {
      say(P.t("Pick a pawn first: tap one on the board, or a colour in your hand."), true);
      return;
    }
    work.then(load);
  }

  wrap.addEventListener("click", function (event) {
    var target = event.target.closest("[data-place]");
    if (target) tap(target);
  });
  wrap.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var target = event.target.closest("[data-place]");
    if (!target) return;
    event.preventDefault();
    tap(target);
  });

  document.addEventListener("click", function (event) {
    var hand = event.target.closest("[data-hand]");
    if (hand) {
      // A tap on a colour picks it, and a tap on the colour already picked keeps it (as the
      // words under the hand say: a colour, then a square); another colour swaps the pick.
      var pick = Number(hand.dataset.count) > 0 ? hand.dataset.hand : null;
      if (pick) selected = pick;
      applySelection();
      if (selected) say(P.t("Holding a %(colour)s pawn: tap where to put it.", { colour: P.colour(selected) }));
      return;
    }
    var card = event.target.closest("[data-card]");
    if (card && card.tagName === "BUTTON") {
      send("/api/sim/scan", { card: card.dataset.card }).then(function (result) {
        if (result.ok) say(P.t("Scanned the %(card)s card.", { card: card.textContent.trim() }));
        load();
      });
      return;
    }
    var held = event.target.closest("button[data-hold]");
    if (held) {
      held.disabled = true;
      say(P.t("Holding %(buttons)s…", { buttons: held.dataset.words }));
      send("/api/sim/hold", { buttons: held.dataset.hold.split(" "), seconds: 3.2 }).then(
        function (result) {
          held.disabled = false;
          if (result.ok) say(P.t("Held %(buttons)s for 3 seconds.", { buttons: held.dataset.words }));
          load();
        }
      );
      return;
    }
    var button = event.target.closest("button[data-button]");
    if (button) {
      send("/api/sim/press", { button: button.dataset.button }).then(function (result) {
        if (result.ok) say(P.t("Pressed %(button)s.", { button: button.textContent.trim() }));
        load();
      });
    }
  });

  var setup = document.getElementById("sim-setup");
  if (setup) {
    setup.addEventListener("click", function () {
      var pawns = lastState && lastState.pawns;
      if (!pawns || !Object.keys(pawns).length) {
        say(P.t("No game yet: start one first (Owner, below)."), true);
        return;
      }
      send("/api/sim/board", { pawns: pawns }).then(function (result) {
        if (result.ok) say(P.t("Every pawn is where the game has it."));
        selected = null;
        load();
      });
    });
  }
})();
