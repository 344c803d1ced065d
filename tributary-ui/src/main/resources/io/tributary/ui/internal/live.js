"use strict";
// Keeps the page at the run's latest state: each "page" event carries the new content of
// <main id="run">, rendered by the same code as report.html. Elements that did not change are
// left in place, so focus, folding and scrolling survive an update.
(function () {
  var main = document.getElementById("run");
  var live = document.createElement("p");
  live.id = "connection";
  live.className = "outcome";
  live.textContent = "live: connecting";
  main.after(live);
  var events = new EventSource("events");
  events.addEventListener("page", function (e) {
    var open = {};
    main.querySelectorAll("details[id]").forEach(function (d) { open[d.id] = d.open; });
    var focused = document.activeElement && main.contains(document.activeElement)
        ? document.activeElement.id : "";
    var t = document.createElement("template");
    t.innerHTML = e.data;
    var fresh = Array.prototype.slice.call(t.content.children);
    var old = Array.prototype.slice.call(main.children);
    if (fresh.length !== old.length) {
      // A section came or went (the round under way): take the new content whole, text between
      // the elements included, so that the final page is the report's markup exactly.
      main.replaceChildren.apply(main, Array.prototype.slice.call(t.content.childNodes));
    } else {
      fresh.forEach(function (n, i) {
        if (!n.isEqualNode(old[i])) {
          old[i].replaceWith(n);
        }
      });
    }
    main.querySelectorAll("details[id]").forEach(function (d) {
      if (d.id in open) {
        d.open = open[d.id];
      }
    });
    if (focused && document.activeElement === document.body) {
      var f = document.getElementById(focused);
      if (f) {
        f.focus();
      }
    }
    main.dataset.version = e.lastEventId;
    live.textContent = "live: updated " + new Date().toLocaleTimeString();
  });
  events.addEventListener("end", function () {
    events.close();
    live.textContent = "live: ended; this is the final state";
  });
  events.onerror = function () {
    if (events.readyState === EventSource.CLOSED) {
      live.textContent = "live: disconnected; reload to try again";
    } else {
      live.textContent = "live: connection lost, reconnecting";
    }
  };
})();
