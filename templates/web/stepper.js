// The phase stepper: previous and next buttons and a slider that show each phase's map in place. Without this
// script the page still works: each phase is a link to its own page. With mapview.js (loaded first), the map it
// shows in the page swaps the picture.
(function () {
  "use strict";
  var data = document.getElementById("frames");
  var box = document.querySelector(".js-stepper");
  if (!data || !box) { return; }
  var frames = JSON.parse(data.textContent);
  var img = document.getElementById("map");
  var link = document.getElementById("map-link");
  var caption = document.getElementById("map-caption");
  var range = document.getElementById("step-range");
  var results = document.getElementById("step-results");
  var prev = document.getElementById("step-prev");
  var next = document.getElementById("step-next");
  var at = frames.length - 1;
  function show(i) {
    at = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[at];
    if (window.judgeMap) { window.judgeMap.show(f.src, f.alt); } else { img.src = f.src; img.alt = f.alt; link.href = f.src; }
    caption.textContent = f.label;
    range.value = String(at);
    results.href = f.page;
    results.textContent = f.results;
    prev.disabled = at === 0; next.disabled = at === frames.length - 1;
  }
  prev.addEventListener("click", function () { show(at - 1); });
  next.addEventListener("click", function () { show(at + 1); });
  range.addEventListener("input", function () { show(parseInt(range.value, 10)); });
  box.hidden = false;
  show(at);
})();
