// The tree of the page: its base64 columns decoded to typed arrays, and the figures
// derived from them (depth, subtree size, solutions and leaves below, height), one
// pass each over the preorder. Nodes are in preorder: a node's subtree is the range
// i .. i + size[i] - 1, and its children follow one another from i + 1.
(function () {
  "use strict";
  const CPQ = (window.CPQ = window.CPQ || {});

  function bytes(text) {
    const raw = atob(text);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  function decode(text, Type) {
    if (text === null || text === undefined) return null;
    const raw = bytes(text);
    return new Type(raw.buffer, 0, raw.length / Type.BYTES_PER_ELEMENT);
  }

  CPQ.SOLUTION = 0;
  CPQ.FAILURE = 1;
  CPQ.BRANCH = 2;
  CPQ.REJECTED = 3;

  CPQ.loadTree = function (data) {
    const N = data.nodes;
    const T = {
      data: data,
      N: N,
      n: data.n,
      parent: decode(data.parent, Int32Array),
      row: decode(data.row, Int16Array),
      column: decode(data.column, Int16Array),
      status: decode(data.status, Uint8Array),
      side: decode(data.side, Uint8Array),
      cls: decode(data.classes, Uint8Array),
      palette: data.palette,
      domains: data.domains ? bytes(data.domains) : null,
      domainBytes: data.domain_bytes,
      labels: data.labels,
      fixed: new Map(data.fixed.map(function (rc) { return [rc[0], rc[1]]; })),
      blocked: data.blocked,
    };
    const depth = new Uint16Array(N);
    const size = new Int32Array(N);
    const solutions = new Int32Array(N);
    const leaves = new Int32Array(N);
    // The leaves below that are no failure (solutions, and nodes cut off by max_depth):
    // a subtree without any is a failed subtree, the one "hide failed" hides.
    const unfailed = new Int32Array(N);
    const height = new Uint16Array(N);
    const kids = new Int32Array(N);
    let maxDepth = 0;
    for (let i = 1; i < N; i++) {
      depth[i] = depth[T.parent[i]] + 1;
      kids[T.parent[i]] += 1;
      if (depth[i] > maxDepth) maxDepth = depth[i];
    }
    for (let i = N - 1; i >= 0; i--) {
      size[i] += 1;
      if (T.status[i] === CPQ.SOLUTION) solutions[i] += 1;
      if (kids[i] === 0) {
        leaves[i] += 1;
        if (T.status[i] !== CPQ.FAILURE && T.status[i] !== CPQ.REJECTED) unfailed[i] += 1;
      }
      const p = T.parent[i];
      if (p >= 0) {
        size[p] += size[i];
        solutions[p] += solutions[i];
        leaves[p] += leaves[i];
        unfailed[p] += unfailed[i];
        if (height[i] + 1 > height[p]) height[p] = height[i] + 1;
      }
    }
    // leafStart[i]: the leaves before node i in preorder; the leaves of i's subtree
    // are leafStart[i] .. leafStart[i + size[i]] - 1 (the icicle's extent of i).
    const leafStart = new Int32Array(N + 1);
    for (let i = 0; i < N; i++) leafStart[i + 1] = leafStart[i] + (kids[i] === 0 ? 1 : 0);
    Object.assign(T, { depth: depth, size: size, solutions: solutions, leaves: leaves,
                       unfailed: unfailed, height: height, kids: kids, leafStart: leafStart, maxDepth: maxDepth });
    return T;
  };

  // The children of i in search order.
  CPQ.children = function (T, i) {
    const out = [];
    const end = i + T.size[i];
    for (let c = i + 1; c < end; c += T.size[c]) out.push(c);
    return out;
  };

  // The queens on the path from the root to i, by row (-1 where none); the queens
  // given in advance are nodes of the path too.
  CPQ.placement = function (T, i) {
    const columns = new Array(T.n).fill(-1);
    for (let a = i; a > 0; a = T.parent[a]) {
      if (T.row[a] >= 0 && T.row[a] < T.n) columns[T.row[a]] = T.column[a];
    }
    return columns;
  };

  // Whether column c is still in row r's domain at node i (propagated trees).
  CPQ.inDomain = function (T, i, r, c) {
    const at = (i * T.n + r) * T.domainBytes + (c >> 3);
    return (T.domains[at] >> (c & 7)) & 1;
  };

  CPQ.label = function (T, i) {
    if (T.labels) return String(T.labels[i]);
    return i === 0 || T.row[i] < 0 ? "" : "q" + T.row[i] + "=" + T.column[i];
  };

  CPQ.statusName = function (T, i) {
    return T.data.status_names[T.status[i]] || "status " + T.status[i];
  };

  CPQ.format = function (x) { return Number(x).toLocaleString("en-US"); };
})();
