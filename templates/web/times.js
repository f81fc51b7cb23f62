// Deadlines in the reader's own time zone, and the time left before them. The page writes each deadline in UTC
// in a <time datetime="...Z"> (what a reader without scripts keeps); this rewrites it in the browser's zone, the
// UTC text kept as its tooltip, and adds the time left, counted again every minute.
(function () {
  "use strict";
  var shown = new Intl.DateTimeFormat(undefined, {
    weekday: "short", day: "2-digit", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit", timeZoneName: "short"
  });
  function left(ms) {
    if (ms <= 0) { return "passed"; }
    var minutes = Math.floor(ms / 60000);
    var days = Math.floor(minutes / 1440), hours = Math.floor(minutes / 60) % 24, mins = minutes % 60;
    var parts = [];
    if (days) { parts.push(days + (days === 1 ? " day" : " days")); }
    if (hours) { parts.push(hours + (hours === 1 ? " hour" : " hours")); }
    if (!days && (mins || !hours)) { parts.push(mins + (mins === 1 ? " minute" : " minutes")); }
    return parts.join(" ") + " left";
  }
  var times = Array.prototype.slice.call(document.querySelectorAll("time.deadline"));
  times.forEach(function (t) {
    var at = new Date(t.getAttribute("datetime"));
    if (isNaN(at.getTime())) { return; }
    t.title = t.textContent;
    t.textContent = shown.format(at);
    var rest = document.createElement("span");
    rest.className = "left";
    t.parentNode.insertBefore(rest, t.nextSibling);
    t.left = rest;
    t.at = at;
  });
  function tick() {
    var now = Date.now();
    times.forEach(function (t) { if (t.left) { t.left.textContent = " (" + left(t.at.getTime() - now) + ")"; } });
  }
  tick();
  setInterval(tick, 60000);
})();
