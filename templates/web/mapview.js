// The map in the page: zoom (buttons, the wheel) and pan (drag), and each province's name on hover. The picture
// is fetched and put in the page as SVG, so that its provinces' <title>s show as the pointer rests on them; where
// it cannot be fetched (an exported folder opened from the disk) the picture stays an image, zoomed the same way.
// Without this script the page shows the picture as an image that opens at full size.
(function () {
  "use strict";
  var figure = document.querySelector("figure.map");
  var img = figure && figure.querySelector("img");
  if (!img) { return; }
  var link = img.parentNode.tagName === "A" ? img.parentNode : null;
  var view = document.createElement("div");
  view.className = "mapview";
  (link || img).parentNode.insertBefore(view, link || img);
  if (link) { link.parentNode.removeChild(link); }
  view.appendChild(img);
  var shown = img;
  var scale = 1, dx = 0, dy = 0, asked = "";

  var bar = document.createElement("div");
  bar.className = "mapbar";
  function button(words, act) {
    var b = document.createElement("button");
    b.type = "button"; b.textContent = words;
    b.addEventListener("click", act);
    bar.appendChild(b);
    return b;
  }
  button("Zoom in", function () { zoom(1.5, 0.5, 0.5); });
  button("Zoom out", function () { zoom(1 / 1.5, 0.5, 0.5); });
  button("Whole map", function () { scale = 1; dx = 0; dy = 0; apply(); });
  var open = document.createElement("a");
  open.textContent = "open the picture";
  bar.appendChild(open);
  figure.insertBefore(bar, view);
  var caption = figure.querySelector("figcaption");
  if (caption) { caption.textContent = caption.textContent.replace(" (open the picture to zoom)", ""); }

  function apply() {
    var w = view.clientWidth, h = view.clientHeight;
    dx = Math.min(0, Math.max(w - w * scale, dx));
    dy = Math.min(0, Math.max(h - h * scale, dy));
    shown.style.transform = "translate(" + dx + "px," + dy + "px) scale(" + scale + ")";
    view.classList.toggle("zoomed", scale > 1);
  }
  function zoom(by, fx, fy) {
    var w = view.clientWidth, h = view.clientHeight;
    var next = Math.max(1, Math.min(8, scale * by));
    var px = fx * w, py = fy * h;
    dx = px - (px - dx) * next / scale;
    dy = py - (py - dy) * next / scale;
    scale = next;
    apply();
  }
  view.addEventListener("wheel", function (e) {
    if (!e.ctrlKey && scale === 1) { return; }  // the wheel scrolls the page past the whole map; ctrl (a pinch) zooms
    e.preventDefault();
    var box = view.getBoundingClientRect();
    zoom(e.deltaY < 0 ? 1.25 : 0.8, (e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height);
  }, { passive: false });
  var drag = null;
  view.addEventListener("pointerdown", function (e) {
    if (scale === 1) { return; }
    drag = { x: e.clientX - dx, y: e.clientY - dy };
    view.setPointerCapture(e.pointerId);
  });
  view.addEventListener("pointermove", function (e) {
    if (!drag) { return; }
    dx = e.clientX - drag.x; dy = e.clientY - drag.y;
    apply();
  });
  function stop() { drag = null; }
  view.addEventListener("pointerup", stop);
  view.addEventListener("pointercancel", stop);

  function show(src, alt) {
    asked = src;
    open.href = src;
    img.src = src; img.alt = alt || img.alt;
    if (!window.fetch || !window.DOMParser) { return; }
    fetch(src).then(function (answer) {
      if (!answer.ok) { throw new Error(String(answer.status)); }
      return answer.text();
    }).then(function (text) {
      if (src !== asked) { return; }  // a later phase was asked for meanwhile
      var doc = new DOMParser().parseFromString(text, "image/svg+xml");
      var svg = doc.documentElement;
      if (svg.nodeName !== "svg") { return; }
      svg = document.importNode(svg, true);
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", img.alt);
      svg.removeAttribute("width"); svg.removeAttribute("height");
      svg.classList.add("map-svg");
      if (shown !== img) { view.removeChild(shown); }
      img.hidden = true;
      view.appendChild(svg);
      shown = svg;
      apply();
    }).catch(function () {
      if (shown !== img) { view.removeChild(shown); shown = img; }
      img.hidden = false;
      apply();
    });
  }
  window.judgeMap = { show: show };
  window.addEventListener("resize", apply);
  show(img.getAttribute("src"), img.alt);
})();
