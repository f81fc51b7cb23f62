// The map's script: previous and next buttons and a slider that show each phase's map in place, and on a map of
// several boards (CW Heptadiplomacy's seven) a chooser that shows one board at a time, kept from phase to phase.
// Without this script the page still works: each phase is a link to its own page, each board a link to its picture.
// With mapview.js (loaded first), the map it shows in the page (zoomed, names on hover) swaps the picture.
(function () {
  "use strict";
  var data = document.getElementById("frames");
  var img = document.getElementById("map");
  if (!data || !img) { return; }
  var frames = JSON.parse(data.textContent);
  var link = document.getElementById("map-link");
  var caption = document.getElementById("map-caption");
  var box = document.querySelector(".js-stepper");
  var range = document.getElementById("step-range");
  var results = document.getElementById("step-results");
  var prev = document.getElementById("step-prev");
  var next = document.getElementById("step-next");
  var choices = document.querySelectorAll("a[data-board]");
  var at = frames.length - 1;
  var board = choices.length ? "1" : "";
  var current = img.getAttribute("src");
  var zoom = window.judgeMap ? "" : " (open the picture to zoom)";  // mapview.js has the buttons
  function put(src, alt) {
    if (window.judgeMap) {
      if (src !== current) { window.judgeMap.show(src, alt); }
    } else {
      img.src = src; img.alt = alt;
      if (link) { link.href = src; }
    }
    current = src;
  }
  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[at];
    var src = board ? f.boards[board] : f.src;
    put(src, (board ? "Board " + board + ": " : "") + f.alt);
    caption.textContent = f.label + (board ? ", board " + board : "") + zoom;
    choices.forEach(function (a) {
      var mine = a.getAttribute("data-board");
      a.href = mine ? f.boards[mine] : f.src;
      if (mine === board) { a.setAttribute("aria-current", "true"); } else { a.removeAttribute("aria-current"); }
    });
    if (!box) { return; }
    range.value = String(at);
    range.setAttribute("aria-valuetext", f.name);
    results.href = f.page;
    results.textContent = f.results;
    prev.disabled = at === 0; next.disabled = at === frames.length - 1;
  }
  choices.forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      board = a.getAttribute("data-board");
      show(at);
    });
  });
  if (box) {
    prev.addEventListener("click", function () { show(at - 1); });
    next.addEventListener("click", function () { show(at + 1); });
    range.addEventListener("input", function () { show(parseInt(range.value, 10)); });
    box.hidden = false;
  }
  show(at);
})();
