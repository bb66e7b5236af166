/* The story of a finished game (the end screen, a past game's page): while it is being worked
   out in the background, fetch it again every two seconds and swap it in. */
(function () {
  "use strict";
  var waiting = false;

  function swapIn(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    var fresh = template.content.firstElementChild;
    var current = document.getElementById("story");
    if (!fresh || !current) return null;
    current.replaceWith(fresh);
    return fresh;
  }

  function load(block) {
    waiting = true;
    var past = document.body.dataset.page === "game" ? "?link=past" : "";
    fetch("/partial/story/" + encodeURIComponent(block.dataset.story) + past, { cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        waiting = false;
        if (html !== null) swapIn(html);
      })
      .catch(function () { waiting = false; });
  }

  function check() {
    var block = document.getElementById("story");
    if (!waiting && block && block.dataset.story && block.hasAttribute("data-pending")) load(block);
  }

  // A block still being worked out (or just put on the page by a live update) is fetched
  // every two seconds until it is ready.
  document.addEventListener("pawnlight:updated", check);
  setInterval(check, 2000);
  check();
})();
