// The three views of the tree. The node-link view draws only the nodes expanded so
// far (a collapsed subtree is one marker with its node count); the icicle and pixel
// views paint a canvas, one rectangle per node wide enough to see and one per pixel
// column for the rest, so that no view makes an element per node of a big tree.
(function () {
  "use strict";
  const CPQ = (window.CPQ = window.CPQ || {});

  // Shapes by status (solution, failure, branch, rejected, cut, merged); colours by
  // class, the palette of the static pictures (by status, or by side in a merged tree).
  const SYMBOLS = [d3.symbolDiamond, d3.symbolSquare, d3.symbolCircle, d3.symbolCross,
                   d3.symbolTriangle, d3.symbolStar];
  CPQ.symbolPath = function (status, area) {
    return d3.symbol().type(SYMBOLS[status] || d3.symbolCircle).size(area || 90)();
  };
  CPQ.colour = function (T, i) { return T.palette[T.cls[i]] || "#000"; };

  // At most this many nodes are drawn in the node-link view at once.
  const MAX_DRAWN = 4000;
  // The least room a node gets across and down (pixels), and the most.
  const MIN_DX = 22, MAX_DX = 160, MIN_DY = 56;
  // A level takes at most this share of the view's height; a folded marker this tall.
  const MOST_LEVEL = 0.45, FOLDED = 70;
  // A folded subtree's count is shown when its node has this much room across.
  const COUNT_ROOM = 34;

  CPQ.treeView = function (app) {
    const T = app.T, state = app.state;
    // Room for a label beside each node when the tree has its own (another solver's).
    const LEAST_DX = T.labels ? 120 : MIN_DX;
    let DX = LEAST_DX, DY = MIN_DY;
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

    // The room a node gets: the drawing fills the view's width and height at scale 1
    // when its leaves and levels allow, within MIN_ and MAX_DX, MIN_DY and MOST_LEVEL.
    function fit(root) {
      const width = svg.node().clientWidth || 800, height = svg.node().clientHeight || 600;
      DX = Math.max(LEAST_DX, Math.min(MAX_DX, (width - 40) / Math.max(1, root.leaves().length)));
      const room = height - 60 - FOLDED;
      DY = Math.max(MIN_DY, Math.min(MOST_LEVEL * height, room / Math.max(1, root.height)));
    }

    function render(refit) {
      const root = d3.hierarchy(0, function (i) {
        return state.expanded[i] ? shownChildren(i) : null;
      });
      if (refit) fit(root);
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
          const h = Math.min(FOLDED, DY * 0.55);
          return "M0,6L" + -w / 2 + "," + h + "L" + w / 2 + "," + h + "Z";
        });
      // The nodes below a folded subtree, where there is room to read them (else on
      // hover, in the panel).
      if (DX >= COUNT_ROOM) {
        folded.append("text").attr("class", "count").attr("y", Math.min(FOLDED, DY * 0.55) + 10)
          .text(function (d) { return CPQ.format(T.size[d.data] - 1); });
      }
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
        // Open level after level while the next one fits the view's width at
        // MIN_DX a node: the first view is readable at scale 1, never a thin strip.
        const fits = Math.max(8, Math.floor(((svg.node().clientWidth || 800) - 40) / LEAST_DX));
        state.expanded.fill(0);
        let level = [0];
        for (let first = true; level.length; first = false) {
          const next = [];
          for (const i of level) for (const c of shownChildren(i)) next.push(c);
          if (!next.length || (!first && next.length > fits) || next.length > MAX_DRAWN) break;
          for (const i of level) state.expanded[i] = 1;
          level = next.filter(function (c) { return T.kids[c] > 0; });
          if (next.length > fits) break;
        }
        render(true);
        resetZoom();
      },
      draw: render,
      expand: function (i) { expand([i], 200); render(true); resetZoom(); },
      collapse: function (i) { collapse(i); render(true); },
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

  // ------------------------------------------------------------ shares as areas
  // As the static pictures (cpqueens/trees/pictures/arrays.py): each cell, a column of
  // pixels at one depth, is a stacked bar of its classes' shares of the band, from the
  // band's foot in class order, white above, rounded to whole pixels with the same
  // golden-ratio dither. A strip of ticks under the bands marks the columns holding a
  // solution: a mark, not a share. The bands fill the canvas's height.
  const STRIP = 8, GAP = 4;

  function rgb(hex) {
    const v = parseInt(hex.slice(1), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }

  CPQ.bandOf = function (height, levels) {
    return Math.max(1, Math.floor((height - STRIP - GAP) / levels));
  };

  // The rows atop each icicle band that mark where bars start, outside the shares
  // (arrays.gutter_rows).
  CPQ.gutterOf = function (band) { return band < 12 ? 0 : Math.max(2, Math.floor(band / 12)); };

  // shares: levels * W * kinds shares of a band; edges: cells where a bar starts,
  // marked black in the band's gutter (null: no gutter); ticks: columns with a solution.
  function paintBands(box, T, shares, edges, ticks, levels) {
    const W = box.width, H = box.height, kinds = T.palette.length;
    const band = CPQ.bandOf(H, levels), strip = band * levels + GAP;
    const gutter = edges ? CPQ.gutterOf(band) : 0, rows = band - gutter;
    const image = box.context.createImageData(W, H);
    const px = image.data;
    px.fill(255);
    const colours = T.palette.map(rgb), tick = rgb(T.data.tick_colour), golden = T.data.golden;
    let painted = 0;
    for (let x = 0; x < W; x++) {
      const offset = (x * golden) % 1;
      for (let d = 0; d < levels; d++) {
        const cell = d * W + x;
        if (gutter && edges[cell]) {
          for (let y = d * band; y < d * band + gutter; y++) {
            const at = (y * W + x) * 4;
            px[at] = 0; px[at + 1] = 0; px[at + 2] = 0;
          }
        }
        let below = 0, total = 0;
        for (let k = 0; k < kinds; k++) {
          total += shares[cell * kinds + k];
          const top = Math.min(rows, Math.max(0, Math.floor(total * rows + offset)));
          const colour = colours[k];
          for (let r = below; r < top; r++) {
            const at = (((d + 1) * band - 1 - r) * W + x) * 4;
            px[at] = colour[0]; px[at + 1] = colour[1]; px[at + 2] = colour[2];
          }
          if (top > below) { painted += 1; below = top; }
        }
      }
      if (ticks[x]) {
        for (let y = strip; y < Math.min(H, strip + STRIP); y++) {
          const at = (y * W + x) * 4;
          px[at] = tick[0]; px[at + 1] = tick[1]; px[at + 2] = tick[2];
        }
      }
    }
    box.context.putImageData(image, 0, 0);
    Object.assign(box.canvas.dataset, { band: band, levels: levels, gutter: gutter, strip: strip,
                                        stripHeight: STRIP });
    return painted;
  }

  CPQ.icicleView = function (app) {
    const T = app.T, state = app.state;
    const box = canvasOf("#icicle-view", app, draw);
    const total = Math.max(1, T.leafStart[T.N]);
    const levels = T.maxDepth + 1, kinds = T.palette.length;
    function X(leaf) { return box.t.applyX(leaf / total * box.width); }
    function hidden(i) { return i > 0 && state.hideFailed && T.unfailed[i] === 0; }

    // Each class's share of each cell: the part of the pixel its bars cover (a bar
    // narrower than a pixel covers that much of it), as the static icicle computes it.
    function draw() {
      box.fit();
      const W = box.width, ctx = box.context, edge = T.data.edge_pixels;
      const shares = new Float64Array(levels * W * kinds);
      const edges = new Uint8Array(levels * W), ticks = new Uint8Array(W);
      const labelled = [];
      for (let i = 0; i < T.N;) {
        if (hidden(i)) { i += T.size[i]; continue; }
        const x0 = X(T.leafStart[i]), x1 = X(T.leafStart[i + T.size[i]]);
        if (x1 <= 0 || x0 >= W) { i += T.size[i]; continue; }
        const a = Math.max(0, x0), b = Math.min(W, x1), row = T.depth[i] * W, k = T.cls[i];
        for (let p = Math.floor(a); p < b; p++) {
          shares[(row + p) * kinds + k] += Math.min(b, p + 1) - Math.max(a, p);
        }
        if (x1 - x0 >= edge && x0 >= 0) edges[row + Math.floor(x0)] = 1;
        if (T.status[i] === CPQ.SOLUTION) ticks[Math.min(W - 1, Math.floor(a))] = 1;
        if (x1 - x0 > 60) labelled.push(i);
        i += 1;
      }
      const painted = paintBands(box, T, shares, edges, ticks, levels);
      const band = CPQ.bandOf(box.height, levels), gutter = CPQ.gutterOf(band);
      // Labels go in the gutter, where they hide no share; none where it is too thin.
      if (gutter >= 11) {
        ctx.font = Math.round(gutter - 2) + "px sans-serif";
        ctx.fillStyle = "#111";
        ctx.textBaseline = "top";
        for (const i of labelled) {
          const x0 = Math.max(0, X(T.leafStart[i])), x1 = Math.min(W, X(T.leafStart[i + T.size[i]]));
          ctx.fillText(CPQ.shortLabel(T, i), x0 + 3, T.depth[i] * band + 1, x1 - x0 - 6);
        }
      }
      const s = state.selected;
      // The selected node: a bar in its band's gutter, over no share.
      if (s !== null && s > 0 && !hidden(s)) {
        const x0 = X(T.leafStart[s]), x1 = X(T.leafStart[s + T.size[s]]);
        ctx.fillStyle = "rgba(0,0,0,0.85)";
        ctx.fillRect(x0, T.depth[s] * band, Math.max(2, x1 - x0), Math.max(2, gutter));
      }
      box.canvas.dataset.drawn = painted;
    }

    box.hit = function (point) {
      const depth = Math.floor(point[1] / CPQ.bandOf(box.height, levels));
      const leaf = (box.t.invertX(point[0]) / box.width) * total;
      if (depth < 0 || depth >= levels || leaf < 0 || leaf >= total) return null;
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
    const levels = T.maxDepth + 1, kinds = T.palette.length;
    let first = 0, step = 1;  // the first node shown and the nodes to a column
    function hidden(i) { return i > 0 && state.hideFailed && T.unfailed[i] === 0; }

    // The nodes in view, `step` of them to a column as the static pixel tree puts
    // them; a class's height in a cell is its nodes over the nodes of the fullest cell.
    function draw() {
      box.fit();
      const W = box.width;
      first = Math.max(0, Math.floor((box.t.invertX(0) / W) * T.N));
      const last = Math.min(T.N, Math.ceil((box.t.invertX(W) / W) * T.N));
      step = Math.max(1, Math.ceil((last - first) / W));
      const shares = new Float64Array(levels * W * kinds), filled = new Uint32Array(levels * W);
      const ticks = new Uint8Array(W);
      let fullest = 1;
      for (let i = first; i < last;) {
        if (hidden(i)) { i += T.size[i]; continue; }
        const x = Math.floor((i - first) / step), cell = T.depth[i] * W + x;
        shares[cell * kinds + T.cls[i]] += 1;
        filled[cell] += 1;
        if (filled[cell] > fullest) fullest = filled[cell];
        if (T.status[i] === CPQ.SOLUTION) ticks[x] = 1;
        i += 1;
      }
      for (let j = 0; j < shares.length; j++) shares[j] /= fullest;
      const painted = paintBands(box, T, shares, null, ticks, levels);
      const s = state.selected;
      if (s !== null && s >= first && s < last) {
        box.context.fillStyle = "rgba(0,0,0,0.8)";
        box.context.fillRect(Math.floor((s - first) / step), 0, Math.max(1, box.ratio), 4 * box.ratio);
      }
      Object.assign(box.canvas.dataset, { drawn: painted, step: step, first: first });
    }

    box.hit = function (point) {
      const x = Math.floor(point[0]), depth = Math.floor(point[1] / CPQ.bandOf(box.height, levels));
      const from = first + x * step, to = Math.min(T.N, from + step);
      for (let i = from; i < to; i++) if (T.depth[i] === depth && !hidden(i)) return i;
      return null;
    };
    return { start: draw, draw: draw, selected: draw, reveal: draw,
             resetZoom: function () { d3.select(box.canvas).call(box.zoom.transform, d3.zoomIdentity); } };
  };
})();
