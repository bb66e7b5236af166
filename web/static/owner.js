/* The owner's panel (both pages): log in with the PIN, start games, settings, the pack, and
   the state-dependent buttons (data-action) that the live fragments bring. */
(function () {
  "use strict";
  var P = window.Pawnlight;
  var status = document.getElementById("owner-status");
  var loginForm = document.getElementById("login-form");
  var tools = document.getElementById("owner-tools");

  var saidAt = 0;
  var fade = null;
  function say(text, bad) {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("bad", !!bad);
    saidAt = Date.now();
    // "Done" is news for a moment, not for the rest of the game.
    clearTimeout(fade);
    if (text && !bad) fade = setTimeout(function () { if (status.textContent === text) say(""); }, 5000);
  }

  // What an action did belongs to that moment: once the game has moved on, it goes.
  document.addEventListener("pawnlight:updated", function () {
    if (status && status.textContent && Date.now() - saidAt > 1500) say("");
  });

  /* Nothing destructive on one tap: ask on the page, next to what was tapped. Resolves to
     true only when "yes" is tapped; the safe answer has the focus. */
  function ask(anchor, question, yes, no) {
    var old = document.querySelector(".confirm-box");
    if (old) old.remove();
    say(""); // what the last action did is not the answer to this question
    return new Promise(function (resolve) {
      var box = document.createElement("div");
      box.className = "confirm-box";
      box.setAttribute("role", "alertdialog");
      box.setAttribute("aria-label", question);
      var text = document.createElement("p");
      text.textContent = question;
      var row = document.createElement("div");
      row.className = "button-row";
      var yesButton = document.createElement("button");
      yesButton.type = "button";
      yesButton.className = "button danger";
      yesButton.textContent = yes;
      var noButton = document.createElement("button");
      noButton.type = "button";
      noButton.className = "button";
      noButton.textContent = no || P.t("Keep playing");
      row.append(yesButton, noButton);
      box.append(text, row);
      anchor.insertAdjacentElement("afterend", box);
      noButton.focus();
      yesButton.addEventListener("click", function () { box.remove(); resolve(true); });
      noButton.addEventListener("click", function () { box.remove(); resolve(false); });
    });
  }
  P.ask = ask;

  function gameUnfinished() {
    var summary = document.getElementById("summary");
    var phase = summary ? summary.dataset.phase : "idle";
    return ["idle", "over", "enrol"].indexOf(phase) < 0;
  }

  function loggedIn(yes) {
    if (loginForm) loginForm.hidden = yes;
    if (tools) tools.hidden = !yes;
  }

  function refresh() { if (P.refresh) P.refresh(); }

  // The server hides the login form (it needs this script); show it unless logged in.
  if (loginForm && tools && tools.hidden) loginForm.hidden = false;

  /* Send one owner action and say how it went. */
  function act(path, body, done) {
    say(P.t("Sending…"));
    return P.post(path, body).then(function (result) {
      if (result.ok) {
        say(done || P.t("Done."));
        refresh();
      } else {
        say(P.t(result.data.error), true);
        if (result.status === 403 && /PIN|CSRF/.test(result.data.error || "")) {
          P.csrf = null;
          loggedIn(false);
        }
      }
      return result;
    });
  }

  if (loginForm) {
    loginForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var pin = document.getElementById("pin");
      P.post("/api/login", { pin: pin.value }).then(function (result) {
        if (!result.ok) { say(P.t(result.data.error), true); return; }
        P.csrf = result.data.csrf;
        pin.value = "";
        loggedIn(true);
        say(P.t("Logged in as the owner."));
        refresh();
      });
    });
  }

  var logout = document.getElementById("logout");
  if (logout) {
    logout.addEventListener("click", function () {
      P.post("/api/logout", {}).then(function () {
        P.csrf = null;
        loggedIn(false);
        say(P.t("Logged out."));
        refresh();
      });
    });
  }

  // -- new game ------------------------------------------------------------------------------

  var gameForm = document.getElementById("new-game-form");
  if (gameForm) {
    var edition = document.getElementById("edition");
    var variant = document.getElementById("variant");
    var leader = document.getElementById("leader");
    var extraOne = document.getElementById("extra-one-label");

    /* Offer only what the chosen rule book has; only playing colours can start. */
    var fit = function () {
      var option = edition.selectedOptions[0];
      var variants = option.dataset.variants.split(" ");
      var missing = [];
      Array.prototype.forEach.call(variant.options, function (o) {
        o.disabled = variants.indexOf(o.value) < 0;
        // A game greyed out says why: not in this rule book, and which book has it.
        o.textContent = o.disabled ? P.t("%(game)s (not in this rule book)", { game: o.dataset.label }) : o.dataset.label;
        if (o.disabled) missing.push(P.t("%(game)s: in the %(books)s rule book", { game: o.dataset.label, books: o.dataset.books }));
      });
      var why = document.getElementById("variant-why");
      if (why) {
        why.hidden = !missing.length;
        why.textContent = missing.length ? P.t("Not in %(book)s’s rules: %(games)s.", { book: option.textContent, games: missing.join("; ") }) : "";
      }
      if (variant.selectedOptions[0].disabled) variant.value = "standard";
      extraOne.hidden = option.dataset.extraOne !== "true";
      var playing = checkedColours();
      Array.prototype.forEach.call(leader.options, function (o) {
        o.disabled = playing.indexOf(o.value) < 0;
      });
      if (leader.selectedOptions[0] && leader.selectedOptions[0].disabled && playing.length) {
        leader.value = playing[0];
      }
    };
    var checkedColours = function () {
      return Array.prototype.map.call(
        gameForm.querySelectorAll('input[name="players"]:checked'), function (box) { return box.value; });
    };
    gameForm.addEventListener("change", fit);
    fit();

    gameForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var colours = checkedColours();
      // The leader comes first; play then goes clockwise from the leader.
      var first = colours.indexOf(leader.value);
      if (first > 0) colours = colours.slice(first).concat(colours.slice(0, first));
      var body = {
        edition: edition.value,
        variant: variant.value,
        players: colours,
        teams: document.getElementById("teams").checked,
        draw_leader: document.getElementById("draw-leader").checked
      };
      if (!extraOne.hidden) body.extra_one = document.getElementById("extra-one").checked;
      var house = Array.prototype.map.call(
        gameForm.querySelectorAll('input[name="house_rules"]:checked'), function (box) { return box.value; });
      if (house.length) body.house_rules = house;
      var computer = {};
      gameForm.querySelectorAll('select[name="computer"]').forEach(function (select) {
        if (select.value && colours.indexOf(select.dataset.colour) >= 0) {
          computer[select.dataset.colour] = select.value;
        }
      });
      if (Object.keys(computer).length) body.computer = computer;
      // A colour seated at another home's board: the game is hosted here for both boards.
      var here = gameForm.dataset.board, seats = {}, away = false;
      gameForm.querySelectorAll('input[name="seat"]').forEach(function (input) {
        if (colours.indexOf(input.dataset.colour) < 0) return;
        var board = input.value.trim() || here;
        seats[input.dataset.colour] = board;
        if (board !== here) away = true;
      });
      var start = function () { act("/api/game", body, P.t("New game started: set up the board as lit.")); };
      if (away) {
        delete body.draw_leader;
        body.seats = seats;
        start = function () {
          say(P.t("Hosting…"));
          P.post("/api/remote/host", body).then(function (result) {
            if (!result.ok) { say(P.t(result.data.error), true); return; }
            say(P.t("Hosted. The other homes join with the code %(code)s (Owner, Join a game from another home).", { code: result.data.code }));
            refresh();
          });
        };
      }
      if (!gameUnfinished()) { start(); return; }
      var submit = gameForm.querySelector('button[type="submit"]') || gameForm;
      ask(submit, P.t("End the game being played? It stays in the records, and the new one starts."),
        P.t("End it and start the new game")).then(function (yes) { if (yes) start(); });
    });
  }

  var joinForm = document.getElementById("remote-join-form");
  if (joinForm) {
    joinForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var code = document.getElementById("join-code").value.trim().toUpperCase();
      var join = function () {
        say(P.t("Joining…"));
        P.post("/api/remote/join", { code: code }).then(function (result) {
          if (!result.ok) { say(P.t(result.data.error), true); return; }
          say(P.t("Joined the game hosted by %(board)s: this board plays %(colours)s. Set up the board as lit.", {
            board: result.data.host, colours: result.data.seats.map(P.colour).join(", ") }));
          refresh();
        });
      };
      if (!gameUnfinished()) { join(); return; }
      ask(joinForm.querySelector('button[type="submit"]'),
        P.t("End the game being played? It stays in the records, and the remote game starts."),
        P.t("End it and join")).then(function (yes) { if (yes) join(); });
    });
  }

  // -- settings and the pack -----------------------------------------------------------------

  var settingsForm = document.getElementById("settings-form");
  if (settingsForm) {
    var brightness = document.getElementById("brightness");
    var shownBrightness = document.getElementById("brightness-out");
    brightness.addEventListener("input", function () {
      shownBrightness.textContent = Math.round(brightness.value * 100).toLocaleString(document.documentElement.lang || "en") + " %";
    });
    var nightLevel = document.getElementById("night-level");
    var shownNightLevel = document.getElementById("night-level-out");
    nightLevel.addEventListener("input", function () {
      shownNightLevel.textContent = Math.round(nightLevel.value * 100) + " %";
    });
    settingsForm.addEventListener("submit", function (event) {
      event.preventDefault();
      var body = {
        brightness: Number(brightness.value),
        settle: Number(document.getElementById("settle").value),
        patterns: document.getElementById("patterns").checked,
        night: document.getElementById("night").checked,
        night_level: Number(nightLevel.value)
      };
      var speech = document.getElementById("speech");
      if (speech) body.speech = speech.checked;
      var voiceLanguage = document.getElementById("voice-language");
      if (voiceLanguage) body.language = voiceLanguage.value;
      act("/api/settings", body, P.t("Settings saved."));
    });
  }

  // One tap for the night level (the LEDs dimmed for a dark room), and one tap back.
  var nightToggle = document.getElementById("night-toggle");
  if (nightToggle) {
    nightToggle.addEventListener("click", function () {
      var night = nightToggle.getAttribute("aria-pressed") !== "true";
      act("/api/settings", { night: night }, nightToggle.dataset[night ? "on" : "off"])
        .then(function (result) {
          if (!result.ok) return;
          nightToggle.setAttribute("aria-pressed", night ? "true" : "false");
          var box = document.getElementById("night");
          if (box) box.checked = night;
        });
    });
  }

  var enrolForm = document.getElementById("enrol-form");
  if (enrolForm) {
    enrolForm.addEventListener("submit", function (event) {
      event.preventDefault();
      act("/api/enrol", { extra_one: enrolForm.elements.extra_one.checked },
        P.t("Enrolling: scan the cards as asked."));
    });
  }

  // -- the buttons in the live fragments -----------------------------------------------------

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-action]");
    if (!button) return;
    var body = {};
    try { body = JSON.parse(button.dataset.body || "{}"); } catch (error) { body = {}; }
    var send = function () {
      button.disabled = true;
      act("/api/" + button.dataset.action, body, P.t("%(action)s: done.", { action: button.textContent.trim() }))
        .then(function () { button.disabled = false; });
    };
    if (!button.dataset.confirm) { send(); return; }
    ask(button, button.dataset.confirm, P.t("Yes: %(action)s", { action: button.textContent.trim() }),
      P.t("No")).then(function (yes) { if (yes) send(); });
  });
})();
