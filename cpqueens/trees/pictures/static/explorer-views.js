// The three views of the tree. The node-link view draws only the nodes expanded so
// far (a collapsed subtree is one marker with its node count); the icicle and pixel
// views paint a canvas, one rectangle per node wide enough to see and one per pixel
// column for the rest, so that no view makes an element per node of a big tree.
(function () {
  "use strict";
  const CPQ = (window.CPQ = window.CPQ || {});

  // Colours by status (solution, failure, branch, rejected, cut, merged) and by side.
  CPQ.STATUS_COLOURS = ["#2a9d3f", "#d62728", "#1f77b4", "#8c8c8c", "#bcbd22", "#9467bd"];
  CPQ.SIDE_COLOURS = ["#7f7f7f", "#ff7f0e", "#17becf"];
  const SYMBOLS = [d3.symbolDiamond, d3.symbolSquare, d3.symbolCircle, d3.symbolCross,
                   d3.symbolTriangle, d3.symbolStar];
  CPQ.symbolPath = function (status, area) {
    return d3.symbol().type(SYMBOLS[status] || d3.symbolCircle).size(area || 90)();
  };
  CPQ.colour = function (T, i) {
    return T.side ? CPQ.SIDE_COLOURS[T.side[i]] : CPQ.STATUS_COLOURS[T.status[i]] || "#000";
  };

  // At most this many nodes are drawn in the node-link view at once.
  const MAX_DRAWN = 4000;
  const DY = 56;

  CPQ.treeView = function (app) {
    const T = app.T, state = app.state;
    // Room for a label beside each node when the tree has its own (another solver's).
    const DX = T.labels ? 120 : 22;
    const svg = d3.select("#tree-view");
    const layer = svg.append("g").attr("class", "zoom-layer");
    const links = layer.append("path").attr("class", "link");
    const nodes = layer.append("g").attr("class", "nodes");
    const zoom = d3.zoom().scaleExtent([0.01, 8])
      .on("zoom", function (event) { layer.attr("transform", event.transform); });
    svg.call(zoom).on("dblclick.zoom", null);
    let drawn = 0, positions = new Map();

    function shown(i) { return i === 0 || !(state.hideFailed && T.unfailed[i] === 0); }
    function shownChildren(i) { return CPQ.children(T, i).filter(shown); }

    // Expand the nodes below `starts` level by level, while the drawing stays within
    // `budget` more nodes (the first level always, when it fits at all).
    function expand(starts, budget) {
      let frontier = starts.filter(function (i) { return T.kids[i] > 0; });
      let total = drawn, first = true;
      while (frontier.length) {
        const next = [];
        let adding = 0;
        for (const i of frontier) if (!state.expanded[i]) adding += shownChildren(i).length;
        if (total + adding > MAX_DRAWN || (!first && total + adding > drawn + budget)) {
          if (first) app.message("Too many nodes to draw here: use the icicle or pixel view, or collapse some subtrees.");
          break;
        }
        for (const i of frontier) {
          state.expanded[i] = 1;
          for (const c of shownChildren(i)) if (T.kids[c] > 0) next.push(c);
        }
        total += adding;
        first = false;
        frontier = next;
      }
    }

    function collapse(i) { state.expanded.fill(0, i, i + T.size[i]); }

    function render() {
      const root = d3.hierarchy(0, function (i) {
        return state.expanded[i] ? shownChildren(i) : null;
      });
      d3.tree().nodeSize([DX, DY])
        .separation(function (a, b) { return a.parent === b.parent ? 1 : 1.4; })(root);
      const all = root.descendants();
      drawn = all.length;
      positions = new Map(all.map(function (d) { return [d.data, d]; }));
      const path = [];
      for (const d of all) if (d.parent) path.push("M" + d.parent.x + "," + d.parent.y + "L" + d.x + "," + d.y);
      links.attr("d", path.join(""));
      nodes.selectAll("g.node").remove();
      const g = nodes.selectAll("g.node").data(all).join("g")
        .attr("class", "node")
        .attr("transform", function (d) { return "translate(" + d.x + "," + d.y + ")"; })
        .attr("data-id", function (d) { return d.data; })
        .attr("data-status", function (d) { return CPQ.statusName(T, d.data); })
        .attr("data-collapsed", function (d) {
          return T.kids[d.data] > 0 && !state.expanded[d.data] ? "1" : "0";
        })
        .attr("data-size", function (d) { return T.size[d.data]; });
      const folded = g.filter(function (d) { return T.kids[d.data] > 0 && !state.expanded[d.data]; });
      folded.append("path")
        .attr("class", function (d) {
          const i = d.data;
          return "aggregate " + (T.solutions[i] > 0 ? "has-solutions"
            : T.unfailed[i] > 0 ? "undetermined" : "all-failed");
        })
        .attr("d", function (d) {
          const w = Math.min(20, 6 + 2 * Math.log2(T.size[d.data]));
          return "M0,6L" + -w / 2 + "," + (DY * 0.55) + "L" + w / 2 + "," + (DY * 0.55) + "Z";
        });
      folded.append("text").attr("class", "count").attr("y", DY * 0.55 + 10)
        .text(function (d) { return CPQ.format(T.size[d.data] - 1); });
      g.append("path").attr("class", "mark")
        .attr("d", function (d) { return CPQ.symbolPath(T.status[d.data], d.data === 0 ? 130 : 90); })
        .attr("fill", function (d) { return CPQ.colour(T, d.data); });
      if (T.labels) {
        g.append("text").attr("class", "label").attr("y", -9)
          .text(function (d) { return CPQ.shortLabel(T, d.data, 20); });
        g.append("title").text(function (d) { return CPQ.label(T, d.data); });
      }
      g.on("click", function (event, d) { app.click(d.data); })
        .on("dblclick", function (event, d) { app.toggle(d.data); })
        .on("mouseenter", function (event, d) { app.preview(d.data); })
        .on("mouseleave", function () { app.preview(null); });
      highlight(state.selected);
      d3.select("#tree-view").attr("data-drawn", drawn);
    }

    function highlight(i) {
      nodes.selectAll("g.node").classed("selected", function (d) { return d.data === i; });
    }

    function centre(i) {
      const d = positions.get(i);
      if (d) svg.call(zoom.translateTo, d.x, d.y);
    }

    // Fit the drawing's width in the view (never magnified), the root at the top.
    function resetZoom() {
      const width = svg.node().clientWidth || 800;
      let low = 0, high = 0;
      positions.forEach(function (d) { low = Math.min(low, d.x); high = Math.max(high, d.x); });
      const k = Math.max(0.25, Math.min(1, (width - 40) / (high - low + DX)));
      svg.call(zoom.transform, d3.zoomIdentity.translate(width / 2 - k * (low + high) / 2, 40).scale(k));
    }

    return {
      start: function () {
        state.expanded.fill(0);
        drawn = 1;
        expand([0], 300);
        render();
        resetZoom();
      },
      draw: render,
      expand: function (i) { expand([i], 200); render(); },
      collapse: function (i) { collapse(i); render(); },
      reveal: function (i) {
        // The path's nodes and their siblings: drawn beside what is open when they fit,
        // alone when only they fit, not at all when even they would be too many.
        const path = [];
        let adding = 0;
        for (let a = T.parent[i]; a >= 0; a = T.parent[a]) {
          path.push(a);
          if (!state.expanded[a]) adding += shownChildren(a).length;
        }
        if (drawn + adding > MAX_DRAWN) {
          state.expanded.fill(0);
          adding = path.reduce(function (sum, a) { return sum + shownChildren(a).length; }, 1);
          if (adding > MAX_DRAWN) {
            app.message("The path to this node is too long to draw here: see it in the pixel view.");
            render();
            return;
          }
        }
        for (const a of path) state.expanded[a] = 1;
        render();
        centre(i);
      },
      selected: highlight,
      resetZoom: resetZoom,
    };
  };

  // A canvas the size of its box, in device pixels, with d3-zoom on it.
  function canvasOf(selector, app, redraw) {
    const canvas = document.querySelector(selector);
    const box = { canvas: canvas, context: canvas.getContext("2d"), t: d3.zoomIdentity };
    box.zoom = d3.zoom().scaleExtent([1, 1e6]).on("zoom", function (event) {
      box.t = event.transform;
      redraw();
    });
    d3.select(canvas).call(box.zoom).on("dblclick.zoom", null);
    box.fit = function () {
      const ratio = window.devicePixelRatio || 1;
      box.width = Math.max(1, Math.floor(canvas.clientWidth * ratio));
      box.height = Math.max(1, Math.floor(canvas.clientHeight * ratio));
      if (canvas.width !== box.width) canvas.width = box.width;
      if (canvas.height !== box.height) canvas.height = box.height;
      box.ratio = ratio;
    };
    function at(event) {
      const rect = canvas.getBoundingClientRect();
      return [(event.clientX - rect.left) * box.ratio, (event.clientY - rect.top) * box.ratio];
    }
    canvas.addEventListener("click", function (event) {
      const i = box.hit(at(event));
      if (i !== null) app.select(i);
    });
    canvas.addEventListener("mousemove", function (event) { app.preview(box.hit(at(event))); });
    canvas.addEventListener("mouseleave", function () { app.preview(null); });
    return box;
  }

  CPQ.icicleView = function (app) {
    const T = app.T, state = app.state;
    const box = canvasOf("#icicle-view", app, draw);
    const total = Math.max(1, T.leafStart[T.N]);
    function rowHeight() { return Math.max(3, Math.min(28, box.height / (T.maxDepth + 1))); }
    function X(leaf) { return box.t.applyX(leaf / total * box.width); }
    function Y(depth) { return box.t.y + depth * rowHeight() * box.t.k; }
    function hidden(i) { return i > 0 && state.hideFailed && T.unfailed[i] === 0; }

    // Nodes too narrow to tell apart are pooled per pixel column and level: the cell
    // is green if it holds a solution, else red to blue by its share of failures.
    function draw() {
      box.fit();
      const ctx = box.context, W = box.width, H = box.height;
      const rh = rowHeight() * box.t.k;
      const top = Math.max(0, Math.floor(-box.t.y / rh)), rows = Math.ceil(H / rh) + 1;
      const pooled = [new Uint32Array(W * rows), new Uint32Array(W * rows), new Uint32Array(W * rows)];
      ctx.clearRect(0, 0, W, H);
      ctx.font = Math.round(11 * box.ratio) + "px sans-serif";
      let painted = 0;
      for (let i = 0; i < T.N;) {
        if (hidden(i)) { i += T.size[i]; continue; }
        const x0 = X(T.leafStart[i]), x1 = X(T.leafStart[i + T.size[i]]), y0 = Y(T.depth[i]);
        if (x1 < 0 || x0 >= W || y0 >= H) { i += T.size[i]; continue; }
        if (y0 + rh <= 0) { i += 1; continue; }
        if (x1 - x0 < 1.5) {
          const cell = Math.max(0, Math.floor(x0)) * rows + (T.depth[i] - top);
          pooled[T.status[i] === CPQ.SOLUTION ? 0 : T.status[i] === CPQ.FAILURE ? 1 : 2][cell] += 1;
          i += 1;
          continue;
        }
        ctx.fillStyle = CPQ.colour(T, i);
        ctx.globalAlpha = T.kids[i] > 0 ? 0.55 : 0.9;
        ctx.fillRect(x0, y0, x1 - x0 - 0.5, rh - 1);
        ctx.globalAlpha = 1;
        if (x1 - x0 > 40 && rh > 10) {
          ctx.fillStyle = "#111";
          ctx.fillText(CPQ.shortLabel(T, i), x0 + 3, y0 + rh / 2 + 4, x1 - x0 - 6);
        }
        painted += 1;
        i += 1;
      }
      for (let cell = 0; cell < W * rows; cell++) {
        const failures = pooled[1][cell], all = failures + pooled[2][cell];
        if (!pooled[0][cell] && !all) continue;
        ctx.fillStyle = pooled[0][cell] ? CPQ.STATUS_COLOURS[0]
          : d3.interpolateRgb(CPQ.STATUS_COLOURS[2], CPQ.STATUS_COLOURS[1])(failures / all);
        ctx.fillRect(Math.floor(cell / rows), Y(top + (cell % rows)), 1, rh - 1);
        painted += 1;
      }
      const s = state.selected;
      if (s !== null && !hidden(s)) {
        const x0 = X(T.leafStart[s]), x1 = X(T.leafStart[s + T.size[s]]);
        ctx.strokeStyle = "#000";
        ctx.lineWidth = 2 * box.ratio;
        ctx.strokeRect(x0, Y(T.depth[s]), Math.max(2, x1 - x0), rh);
      }
      box.canvas.dataset.drawn = painted;
    }

    box.hit = function (point) {
      const depth = Math.floor((point[1] - box.t.y) / (rowHeight() * box.t.k));
      const leaf = (box.t.invertX(point[0]) / box.width) * total;
      if (depth < 0 || leaf < 0 || leaf >= total) return null;
      let node = 0;
      while (T.depth[node] < depth) {
        let next = null;
        for (const c of CPQ.children(T, node)) {
          if (!hidden(c) && T.leafStart[c] <= leaf && leaf < T.leafStart[c + T.size[c]]) { next = c; break; }
        }
        if (next === null) break;
        node = next;
      }
      return T.depth[node] === depth ? node : null;
    };
    return { start: draw, draw: draw, selected: draw, reveal: draw,
             resetZoom: function () { d3.select(box.canvas).call(box.zoom.transform, d3.zoomIdentity); } };
  };

  CPQ.pixelView = function (app) {
    const T = app.T, state = app.state;
    const box = canvasOf("#pixel-view", app, draw);
    const depths = T.maxDepth + 1;
    let levels = depths;  // the levels that fit the canvas, one pixel row at least each
    function rowHeight() { return Math.max(1, Math.min(12, Math.floor(box.height / depths))); }
    function column(i) { return Math.floor(box.t.applyX((i / T.N) * box.width)); }
    function hidden(i) { return i > 0 && state.hideFailed && T.unfailed[i] === 0; }

    function draw() {
      box.fit();
      const W = box.width, H = box.height, rh = rowHeight();
      levels = Math.min(depths, Math.ceil(H / rh));
      const count = new Uint32Array(W * levels), solved = new Uint32Array(W * levels);
      const failed = new Uint32Array(W * levels);
      const first = Math.max(0, Math.floor((box.t.invertX(0) / W) * T.N));
      const last = Math.min(T.N, Math.ceil((box.t.invertX(W) / W) * T.N) + 1);
      let perColumn = 1;
      for (let i = first; i < last;) {
        if (hidden(i)) { i += T.size[i]; continue; }
        const x = column(i);
        if (x >= 0 && x < W && T.depth[i] < levels) {
          const cell = x * levels + T.depth[i];
          count[cell] += 1;
          if (count[cell] > perColumn) perColumn = count[cell];
          if (T.status[i] === CPQ.SOLUTION) solved[cell] += 1;
          else if (T.status[i] === CPQ.FAILURE) failed[cell] += 1;
        }
        i += 1;
      }
      const image = box.context.createImageData(W, H);
      const px = image.data;
      let painted = 0;
      for (let x = 0; x < W; x++) {
        for (let d = 0; d < levels; d++) {
          const cell = x * levels + d;
          if (count[cell] === 0) continue;
          painted += 1;
          const shade = 0.35 + 0.65 * Math.min(1, Math.log1p(count[cell]) / Math.log1p(perColumn));
          const rgb = solved[cell] > 0 ? [42, 157, 63]
            : failed[cell] === count[cell] ? [214, 39, 40] : [31, 119, 180];
          for (let y = d * rh; y < Math.min(H, (d + 1) * rh); y++) {
            const at = (y * W + x) * 4;
            px[at] = rgb[0]; px[at + 1] = rgb[1]; px[at + 2] = rgb[2];
            px[at + 3] = Math.round(255 * shade);
          }
        }
      }
      box.context.putImageData(image, 0, 0);
      const s = state.selected;
      if (s !== null) {
        box.context.fillStyle = "rgba(0,0,0,0.8)";
        box.context.fillRect(column(s), 0, Math.max(1, box.ratio), H);
      }
      box.canvas.dataset.drawn = painted;
    }

    box.hit = function (point) {
      const x = Math.floor(point[0]), depth = Math.floor(point[1] / rowHeight());
      const from = Math.max(0, Math.floor((box.t.invertX(x) / box.width) * T.N));
      const to = Math.min(T.N, Math.ceil((box.t.invertX(x + 1) / box.width) * T.N));
      for (let i = from; i < to; i++) if (T.depth[i] === depth && !hidden(i)) return i;
      return null;
    };
    return { start: draw, draw: draw, selected: draw, reveal: draw,
             resetZoom: function () { d3.select(box.canvas).call(box.zoom.transform, d3.zoomIdentity); } };
  };
})();
