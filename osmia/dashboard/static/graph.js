// The graph page: fetch a bounded neighbourhood from /api/graph and draw it with cytoscape.js.
// Labels are set as data and drawn on a canvas by cytoscape (never parsed as HTML).
"use strict";
(function () {
  const meta = document.getElementById("graph-meta");
  const box = document.getElementById("graph");
  const params = new URLSearchParams();
  for (const key of ["node", "tenant", "repository", "hops"]) {
    if (meta.dataset[key]) params.set(key, meta.dataset[key]);
  }
  if (!params.get("node") && !params.get("repository")) return;
  const colours = { relates_to: "#6b7785", contradicts: "#c0392b", supersedes: "#8e44ad" };
  fetch("/api/graph?" + params.toString())
    .then((r) => (r.ok ? r.json() : r.text().then((t) => Promise.reject(new Error(t)))))
    .then((data) => {
      const nodes = data.elements.filter((e) => !e.data.source).length;
      const edges = data.elements.length - nodes;
      meta.textContent = `${nodes} nodes, ${edges} edges, ${data.components} connected part(s)` +
        (data.truncated ? " (cut at the size limit)" : "");
      const cy = cytoscape({
        container: box,
        elements: data.elements,
        wheelSensitivity: 0.3,
        layout: { name: "cose", animate: false, randomize: false, nodeRepulsion: 9000 },
        style: [
          { selector: "node", style: {
              "label": "data(label)", "font-size": 9, "text-wrap": "ellipsis", "text-max-width": 140,
              "width": "mapData(confidence, 0, 1, 10, 42)", "height": "mapData(confidence, 0, 1, 10, 42)",
              "background-color": "#2f6fb3", "color": "#1d2733" } },
          { selector: "node[?centre]", style: { "border-width": 3, "border-color": "#e67e22" } },
          { selector: "node[!valid]", style: { "background-color": "#aab4bf" } },
          { selector: "edge", style: {
              "curve-style": "bezier", "target-arrow-shape": "triangle", "width": 1.5,
              "line-color": (e) => colours[e.data("relation")] || "#999",
              "target-arrow-color": (e) => colours[e.data("relation")] || "#999" } },
        ],
      });
      cy.on("tap", "node", (evt) => { window.location.href = "/node/" + encodeURIComponent(evt.target.id()); });
      box.dataset.nodes = String(nodes);
      box.dataset.edges = String(edges);
      window.osmiaGraph = cy; // for tests and the curious
    })
    .catch((err) => { meta.textContent = "could not load the graph: " + err.message; });
})();
