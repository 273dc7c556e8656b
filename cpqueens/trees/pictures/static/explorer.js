// The page: reads the tree, wires the buttons, and shows the selected (or hovered)
// node's partial board and figures. Every text that comes from the tree (labels, the
// note, the title) is set with textContent or d3's .text(), never as markup.
(function () {
  "use strict";
  const CPQ = window.CPQ;
  const started = performance.now();
  const SVG = "http://www.w3.org/2000/svg";
  const T = CPQ.loadTree(JSON.parse(document.getElementById("tree-data").textContent));
  const state = { view: "tree", hideFailed: false, selected: 0, expanded: new Uint8Array(T.N) };
  const app = { T: T, state: state };

  CPQ.shortLabel = function (T, i, most) {
    const text = CPQ.label(T, i);
    return text.length > (most || 40) ? text.slice(0, (most || 40) - 1) + "\u2026" : text;
  };

  function element(tag, attributes, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const key in attributes) node.setAttribute(key, attributes[key]);
    parent.appendChild(node);
    return node;
  }

  function setValue(id, value) {
    const node = document.getElementById(id);
    node.textContent = CPQ.format(value);
    node.dataset.value = value;
  }

  app.message = function (text) { document.getElementById("message").textContent = text; };

  // ---------------------------------------------------------------- the node's panel

  const BOARD_CELLS = 48;  // past this size only the queens and blocked squares are drawn

  function drawBoard(i) {
    const board = document.getElementById("board");
    board.replaceChildren();
    const n = T.n;
    board.setAttribute("viewBox", "0 0 " + n + " " + n);
    board.dataset.node = i;
    const queens = CPQ.placement(T, i);
    const blocked = new Set(T.blocked.map(function (rc) { return rc[0] * n + rc[1]; }));
    const cells = n <= BOARD_CELLS;
    if (!cells) element("rect", { x: 0, y: 0, width: n, height: n, class: "light" }, board);
    for (let r = 0; r < n; r++) {
      let wiped = false;
      if (T.domains && queens[r] < 0) {
        wiped = true;
        for (let c = 0; c < n && wiped; c++) if (CPQ.inDomain(T, i, r, c)) wiped = false;
      }
      for (let c = 0; c < n; c++) {
        const isBlocked = blocked.has(r * n + c);
        if (!cells && !isBlocked) continue;
        const kind = isBlocked ? "blocked" : wiped ? "wiped" : (r + c) % 2 ? "dark" : "light";
        element("rect", { x: c, y: r, width: 1, height: 1, class: "cell " + kind,
                          "data-row": r, "data-col": c }, board);
        if (cells && T.domains && queens[r] < 0 && CPQ.inDomain(T, i, r, c)) {
          element("circle", { cx: c + 0.5, cy: r + 0.5, r: 0.17, class: "domain",
                              "data-row": r, "data-col": c }, board);
        }
      }
    }
    queens.forEach(function (c, r) {
      if (c < 0) return;
      const fixed = T.fixed.get(r) === c;
      const queen = element("text", { x: c + 0.5, y: r + 0.55, class: fixed ? "queen fixed" : "queen",
                                      "data-row": r, "data-col": c }, board);
      queen.textContent = "\u265b";
    });
  }

  function showFigures(i) {
    const figures = document.getElementById("figures");
    figures.replaceChildren();
    const rows = [["node", CPQ.format(i)], ["label", CPQ.label(T, i) || "(root)"],
                  ["status", CPQ.statusName(T, i)], ["depth", CPQ.format(T.depth[i])],
                  ["nodes below", CPQ.format(T.size[i] - 1)],
                  ["solutions below", CPQ.format(T.solutions[i])],
                  ["children", CPQ.format(T.kids[i])]];
    if (T.side) rows.push(["side", T.data.class_names[T.side[i]]]);
    if (T.n !== null && T.n > BOARD_CELLS && T.domains) rows.push(["domains", "not drawn past n = " + BOARD_CELLS]);
    for (const [term, value] of rows) {
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.textContent = value;
      dd.dataset.figure = term;
      figures.append(dt, dd);
    }
  }

  function show(i) {
    document.getElementById("selected-id").textContent = CPQ.format(i);
    document.getElementById("selected-id").dataset.value = i;
    if (T.n !== null && T.n !== undefined) drawBoard(i);
    showFigures(i);
  }

  // ---------------------------------------------------------------- actions

  const views = { tree: CPQ.treeView(app), icicle: CPQ.icicleView(app), pixel: CPQ.pixelView(app) };
  const drawnOnce = {};

  app.select = function (i, reveal) {
    state.selected = i;
    show(i);
    if (reveal) views[state.view].reveal(i);
    else views[state.view].selected(i);
  };
  app.preview = function (i) { show(i === null ? state.selected : i); };
  app.click = function (i) {
    app.select(i);
    if (T.kids[i] > 0 && !state.expanded[i]) views.tree.expand(i);
  };
  app.toggle = function (i) {
    if (state.expanded[i]) views.tree.collapse(i);
    else views.tree.expand(i);
  };

  function setView(name) {
    state.view = name;
    document.body.dataset.view = name;
    for (const other of ["tree", "icicle", "pixel"]) {
      document.getElementById("view-" + other).setAttribute("aria-pressed", String(other === name));
      // toggleAttribute: an <svg> has no .hidden property of its own.
      document.getElementById(other + "-view").toggleAttribute("hidden", other !== name);
    }
    for (const id of ["expand-selected", "collapse-selected"]) document.getElementById(id).disabled = name !== "tree";
    if (drawnOnce[name]) views[name].draw();
    else { drawnOnce[name] = true; views[name].start(); }
  }

  function nextSolution() {
    const from = state.selected === null ? -1 : state.selected;
    let found = -1;
    for (let i = from + 1; i < T.N && found < 0; i++) if (T.status[i] === CPQ.SOLUTION) found = i;
    let wrapped = false;
    for (let i = 0; i <= from && found < 0; i++) if (T.status[i] === CPQ.SOLUTION) { found = i; wrapped = true; }
    if (found < 0) { app.message("This tree has no solution."); return; }
    app.message(wrapped ? "Back to the first solution." : "");
    app.select(found, true);
  }

  function on(id, handler) { document.getElementById(id).addEventListener("click", handler); }
  on("view-tree", function () { setView("tree"); });
  on("view-icicle", function () { setView("icicle"); });
  on("view-pixel", function () { setView("pixel"); });
  on("next-solution", nextSolution);
  on("hide-failed", function () {
    state.hideFailed = !state.hideFailed;
    this.setAttribute("aria-pressed", String(state.hideFailed));
    views[state.view].draw();
  });
  on("expand-selected", function () { views.tree.expand(state.selected); });
  on("collapse-selected", function () { views.tree.collapse(state.selected); });
  on("reset-zoom", function () { views[state.view].resetZoom(); });
  // Keys walk the tree from the selected node: up to the parent, down to the first
  // child (expanding it), left and right to the siblings.
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.tagName === "INPUT") return;
    const i = state.selected, p = T.parent[i];
    let next = -1;
    if (event.key === "ArrowUp") next = p;
    else if (event.key === "ArrowDown" && T.kids[i] > 0) next = i + 1;
    else if (p >= 0 && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      const siblings = CPQ.children(T, p), at = siblings.indexOf(i);
      next = siblings[at + (event.key === "ArrowLeft" ? -1 : 1)];
      if (next === undefined) next = -1;
    }
    if (next < 0) return;
    event.preventDefault();
    app.select(next, true);
  });
  window.addEventListener("resize", function () { if (state.view !== "tree") views[state.view].draw(); });

  // ---------------------------------------------------------------- the page

  // What each colour, shape and mark means; the counts are nodes below the root, as
  // in the static pictures' legends and the command line's figures.
  function legend() {
    const box = document.getElementById("legend");
    function entry(kind, draw, text) {
      const div = document.createElement("div");
      div.dataset.kind = kind;
      const svg = element("svg", { width: 16, height: 16, viewBox: "-8 -8 16 16" }, div);
      draw(svg);
      div.append(text);
      box.appendChild(div);
    }
    const counts = new Array(T.palette.length).fill(0);
    for (let i = 1; i < T.N; i++) counts[T.cls[i]] += 1;
    T.data.class_names.forEach(function (name, k) {
      if (!counts[k]) return;
      entry("class", function (svg) {
        element("rect", { x: -6, y: -6, width: 12, height: 12, fill: T.palette[k] }, svg);
      }, name + " (" + CPQ.format(counts[k]) + ")");
    });
    const seen = new Set(T.status);
    T.data.status_names.forEach(function (name, code) {
      if (!seen.has(code)) return;
      entry("shape", function (svg) {
        element("path", { d: CPQ.symbolPath(code, 70), fill: "#fff", stroke: "#333" }, svg);
      }, "shape: " + name);
    });
    for (const [name, text] of [["has-solutions", "folded subtree with a solution below"],
                                ["all-failed", "folded subtree, every leaf a dead end"],
                                ["undetermined", "folded subtree, cut before its end"]]) {
      entry("folded", function (svg) {
        element("path", { d: "M0,-6L-6,6L6,6Z", class: "aggregate " + name }, svg);
      }, text);
    }
    if (T.solutions[0] > 0) {
      entry("tick", function (svg) {
        element("rect", { x: -1, y: -7, width: 2, height: 14, fill: T.data.tick_colour }, svg);
      }, "tick under the icicle and pixel views: a column holding a solution (a mark, not a share)");
    }
    if (T.domains) {
      entry("domain", function (svg) {
        element("circle", { cx: 0, cy: 0, r: 3, class: "domain-key" }, svg);
      }, "board: a square still in its row's domain");
      entry("wiped", function (svg) {
        element("rect", { x: -6, y: -6, width: 12, height: 12, class: "wiped-key" }, svg);
      }, "board: a row with no square left (wiped out)");
    }
    if (T.side) box.dataset.sides = "1";
    const note = document.createElement("p");
    note.className = "key-note";
    note.textContent = "Counts are nodes below the root. In the icicle a colour's height in a " +
      "column is its share of the column's leaves; in the pixel view it is its nodes, the " +
      "fullest cell filling its band.";
    box.appendChild(note);
  }

  document.getElementById("title").textContent = T.data.title;
  setValue("node-count", T.N - 1);
  setValue("solution-count", T.solutions[0] || 0);
  document.getElementById("max-depth").textContent = T.maxDepth;
  if (T.n === null || T.n === undefined) {
    document.getElementById("board").toggleAttribute("hidden", true);
    const note = document.getElementById("note");
    note.hidden = false;
    note.textContent = T.data.note || "No board: this tree does not come from an n-queens search.";
  }
  legend();
  setView("tree");
  show(0);
  document.body.dataset.firstDrawMs = Math.round(performance.now() - started);
  document.body.dataset.ready = "1";
})();
