/* pawnlight: what both pages share — the live connection, posting JSON, swapping fragments.
   Plain browser JavaScript, no build step and no libraries. */
(function () {
  "use strict";

  var POLL_MS = 2000; // polling interval when the event stream cannot be used
  var STREAM_RETRY_MS = 30000; // after falling back to polling, try the stream again this often
  var STALL_MS = 5000; // a stream reconnecting for this long: poll meanwhile

  var conn = document.getElementById("conn");
  var tokenMeta = document.querySelector('meta[name="csrf-token"]');

  var Pawnlight = {
    csrf: tokenMeta ? tokenMeta.content : null,
    refresh: null // set by each page: fetch its fragments again
  };
  window.Pawnlight = Pawnlight;

  /* The page's words for its scripts, in the phone's language (web/language.py: JS_MESSAGES). */
  var words = {};
  try {
    var wordsNode = document.getElementById("page-words");
    if (wordsNode) words = JSON.parse(wordsNode.textContent) || {};
  } catch (error) { words = {}; }
  function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
  /* A whole message in the page's language, its %(name)s filled from values: never a sentence
     glued from pieces (the words come from the server, web/language.py). */
  function t(text, values) {
    var said = has(words, text) ? words[text] : text;
    if (!values) return said;
    return said.replace(/%\((\w+)\)s/g, function (whole, name) {
      return has(values, name) ? String(values[name]) : whole;
    });
  }
  Pawnlight.t = t;
  /* A count's message by the language's plural rule (French counts 0 as one), %(num)s filled. */
  Pawnlight.tn = function (n, singular, plural, values) {
    var one = words[""] === "fr" ? n <= 1 : n === 1;
    var filled = { num: n };
    Object.keys(values || {}).forEach(function (key) { filled[key] = values[key]; });
    return t(one ? singular : plural, filled);
  };
  /* A colour (its code, "red") as a sentence names it: "red" in English, "Rot" in German. */
  Pawnlight.colour = function (code) {
    var name = code ? code.charAt(0).toUpperCase() + code.slice(1) : "";
    return has(words, name) ? words[name] : code;
  };

  function setConnection(state, text) {
    if (!conn) return;
    conn.dataset.state = state;
    conn.textContent = t(text);
    conn.setAttribute("aria-label", t("Live updates: " + text));
  }
  Pawnlight.setConnection = setConnection;

  Pawnlight.announce = function (text) {
    var region = document.getElementById("announce");
    if (region && text) region.textContent = text;
  };

  /* POST a JSON body; always resolves to {ok, status, data}, data.error explaining a failure. */
  Pawnlight.post = function (path, body) {
    var headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (Pawnlight.csrf) headers["X-CSRF-Token"] = Pawnlight.csrf;
    return fetch(path, {
      method: "POST",
      headers: headers,
      body: JSON.stringify(body || {}),
      credentials: "same-origin"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (!response.ok && !data.error) data.error = t("the Pi answered %(status)s", { status: response.status });
        return { ok: response.ok, status: response.status, data: data };
      });
    }, function () {
      return { ok: false, status: 0, data: { error: t("no connection to the Pi") } };
    });
  };

  Pawnlight.getJSON = function (path) {
    // The browser's cache revalidates by ETag: a poll of an unchanged state costs a 304.
    return fetch(path, { cache: "no-cache", credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    });
  };

  /* What identifies a focused control across a swap, so keyboard users keep their place. */
  function focusSelector(element) {
    if (!element || element === document.body) return null;
    if (element.id) return "#" + CSS.escape(element.id);
    var keys = ["place", "turn", "action", "hand", "card", "button"];
    for (var i = 0; i < keys.length; i++) {
      var value = element.dataset && element.dataset[keys[i]];
      if (value) return "[data-" + keys[i] + '="' + CSS.escape(value) + '"]';
    }
    return null;
  }

  /* Replace every element of the page whose id matches a top-level element of the fragment
     (except the ids in `skip`). */
  Pawnlight.swap = function (html, skip) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var selector = focusSelector(document.activeElement);
    Array.prototype.slice.call(template.content.children).forEach(function (fresh) {
      if (!fresh.id || (skip && skip.indexOf(fresh.id) >= 0)) return;
      var old = document.getElementById(fresh.id);
      if (!old) return;
      // A data-keep element in the fragment is a placeholder: the page keeps its own (the
      // history, which grows by the lines Pawnlight.history fetches, never sent whole again).
      Array.prototype.slice.call(fresh.querySelectorAll("[data-keep][id]")).forEach(function (hole) {
        var mine = document.getElementById(hole.id);
        if (mine) hole.replaceWith(mine);
      });
      old.replaceWith(fresh);
    });
    if (selector && !document.querySelector(":focus")) {
      var again = document.querySelector(selector);
      if (again) again.focus({ preventScroll: true });
    }
  };

  /* Fetch a fragment and swap it in; overlapping calls collapse into one more fetch. */
  Pawnlight.fragments = function (path, skip, after) {
    var loading = false;
    var pending = false;
    function load() {
      if (loading) { pending = true; return; }
      loading = true;
      fetch(path, { cache: "no-cache", credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
        .then(function (html) {
          Pawnlight.swap(html, typeof skip === "function" ? skip() : skip);
          if (after) after();
        })
        .catch(function () { /* the connection indicator already says what is wrong */ })
        .then(function () {
          loading = false;
          if (pending) { pending = false; load(); }
        });
    }
    return load;
  };

  /* Keep the history section up to date with a (compact) state: fetch only the lines the page
     lacks, or the whole section when the game changed or moves were taken back. */
  Pawnlight.history = function (after) {
    var loading = false;
    var wanted = null;
    function section() { return document.getElementById("history"); }
    /* While the journal cannot be written, the turns after the last durable one are marked
       "not saved yet": nothing is shown as done that a power cut could lose. */
    function markUnsaved() {
      var have = section();
      if (!have || !wanted) return;
      var storage = wanted.storage || {};
      var saved = storage.ok === false ? Number(storage.saved_turns) : Infinity;
      if (isNaN(saved)) saved = Infinity;
      have.querySelectorAll(".history-line").forEach(function (line) {
        var unsaved = Number(line.dataset.turn) > saved;
        line.classList.toggle("unsaved", unsaved);
        if (unsaved) line.setAttribute("aria-description", "not saved yet");
        else line.removeAttribute("aria-description");
      });
    }
    function update(state) {
      if (state) wanted = state;
      markUnsaved();
      var have = section();
      if (loading || !wanted || !have || have.hasAttribute("data-keep")) return;
      var length = Number(wanted.history_length);
      var epoch = String(wanted.history_epoch);
      if (isNaN(length)) return;
      var count = Number(have.dataset.length || 0);
      var sameEpoch = have.dataset.epoch === epoch;
      if (sameEpoch && count === length) return;
      var list = have.querySelector("ol.history");
      var append = sameEpoch && count < length && count > 0 && list;
      loading = true;
      var path = "/partial/history?after=" + (append ? count : 0);
      fetch(path, { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.text(); })
        .then(function (html) {
          if (append) {
            var template = document.createElement("template");
            template.innerHTML = html;
            var lines = template.content.querySelectorAll("li");
            var added = lines.length;
            list.prepend(template.content);
            have.dataset.length = String(count + added);
          } else {
            Pawnlight.swap(html);
          }
          markUnsaved();
          if (after) after();
        })
        .catch(function () { wanted = null; /* the next state tries again */ })
        .then(function () { loading = false; update(); });
    }
    return update;
  };

  /* Call onState(snapshot) with the state now and every new one: Server-Sent Events, falling
     back to polling /api/state when the stream cannot be opened or keeps failing. */
  Pawnlight.connect = function (onState) {
    var source = null;
    var pollTimer = null;
    var retryTimer = null;
    var stallTimer = null;

    function deliver(state) {
      try { onState(state); } catch (error) { console.error(error); }
    }

    function poll() {
      Pawnlight.getJSON("/api/state?compact=1").then(function (state) {
        if (!source || source.readyState !== 1) setConnection("polling", "Polling");
        deliver(state);
      }, function () {
        setConnection("offline", "Offline");
      });
    }

    function startPolling() {
      if (pollTimer) return;
      poll();
      pollTimer = setInterval(poll, POLL_MS);
    }

    function stopPolling() {
      if (pollTimer) clearInterval(pollTimer);
      pollTimer = null;
    }

    function startStream() {
      if (!("EventSource" in window)) { startPolling(); return; }
      source = new EventSource("/api/events");
      source.addEventListener("open", function () { setConnection("live", "Live"); });
      source.addEventListener("state", function (event) {
        clearTimeout(stallTimer);
        stopPolling();
        setConnection("live", "Live");
        var state;
        try { state = JSON.parse(event.data); } catch (error) { return; }
        deliver(state);
      });
      source.addEventListener("error", function () {
        if (source && source.readyState === EventSource.CLOSED) {
          // Refused (too many phones) or not a stream at all: poll, retry the stream later.
          source = null;
          startPolling();
          clearTimeout(retryTimer);
          retryTimer = setTimeout(startStream, STREAM_RETRY_MS);
        } else {
          // EventSource reconnects by itself; poll meanwhile if that takes a while.
          setConnection("reconnecting", "Retrying…");
          clearTimeout(stallTimer);
          stallTimer = setTimeout(startPolling, STALL_MS);
        }
      });
    }

    startStream();
  };

  /* The shown snapshot's identity: its version, or the whole text when it has none. */
  Pawnlight.versionOf = function (state) {
    return state.version !== undefined && state.version !== null
      ? String(state.version) : JSON.stringify(state);
  };
})();
