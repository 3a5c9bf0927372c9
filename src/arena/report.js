// The match report's board viewer (see src/arena/report.rs). It replays a
// game by moving the piece on each move's first point to its second, and
// places the pieces by the geometry the drawn boards carry.
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var viewer = document.getElementById('viewer');
  var boards = Array.prototype.slice.call(viewer.querySelectorAll('svg.xq-board'));
  var movesBox = document.getElementById('moves');
  var info = document.getElementById('game-info');
  var plyText = document.getElementById('ply');
  var graph = document.getElementById('score-graph');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.game'));
  var byNumber = {};
  data.games.forEach(function (g) { byNumber[g.n] = g; });
  var state = { game: null, ply: 0, flip: false, cells: [] };

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }

  function html(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // Square index (rank * 9 + file) of an ICCS point such as `h2`.
  function point(t) { return (t.charCodeAt(0) - 97) + 9 * (t.charCodeAt(1) - 48); }

  // The placement of a FEN: 90 letters ('' for empty), rank 0 first.
  function placement(fen) {
    var board = [], i;
    for (i = 0; i < 90; i++) board.push('');
    var ranks = fen.split(' ')[0].split('/');
    for (i = 0; i < 10; i++) {
      var rank = 9 - i, file = 0, text = ranks[i] || '';
      for (var j = 0; j < text.length; j++) {
        var c = text.charAt(j);
        if (c >= '1' && c <= '9') file += c.charCodeAt(0) - 48;
        else { board[rank * 9 + file] = c; file++; }
      }
    }
    return board;
  }

  function boardAt(g, ply) {
    var board = placement(g.fen);
    for (var i = 0; i < ply; i++) {
      var from = point(g.mv[i].slice(0, 2)), to = point(g.mv[i].slice(2, 4));
      board[to] = board[from];
      board[from] = '';
    }
    return board;
  }

  // Placement and side to move, the first two fields of a FEN.
  function fenOf(board, side) {
    var ranks = [];
    for (var rank = 9; rank >= 0; rank--) {
      var text = '', empty = 0;
      for (var file = 0; file < 9; file++) {
        var c = board[rank * 9 + file];
        if (!c) { empty++; continue; }
        if (empty) { text += empty; empty = 0; }
        text += c;
      }
      if (empty) text += empty;
      ranks.push(text);
    }
    return ranks.join('/') + ' ' + (side ? 'b' : 'w');
  }

  function sideAt(g, ply) { return (g.side + ply) % 2; }

  function scoreText(s) {
    if (s === null || s === undefined) return '';
    if (typeof s === 'string') return s;
    return (s > 0 ? '+' : '') + (s / 100).toFixed(2);
  }

  function timeText(ms) {
    if (ms === null || ms === undefined) return '';
    return ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  }

  // A score from Red's side on a scale of -1..1 (mates at the ends).
  function graphValue(s, moverIsRed) {
    if (s === null || s === undefined) return null;
    var v;
    if (typeof s === 'string') v = s.charAt(1) === '-' ? -1 : 1;
    else v = 2 / (1 + Math.exp(-s / 250)) - 1;
    return moverIsRed ? v : -v;
  }

  function drawBoards() {
    var g = state.game, board = boardAt(g, state.ply);
    var last = state.ply > 0 ? g.mv[state.ply - 1] : null;
    boards.forEach(function (svg) {
      var flip = svg.getAttribute('data-flip') === '1';
      svg.style.display = flip === state.flip ? '' : 'none';
      var id = svg.getAttribute('data-id');
      var x0 = +svg.getAttribute('data-x0'), y0 = +svg.getAttribute('data-y0');
      var cell = +svg.getAttribute('data-cell');
      var at = function (sq) {
        var f = sq % 9, r = (sq - f) / 9;
        return flip ? [x0 + (8 - f) * cell, y0 + r * cell] : [x0 + f * cell, y0 + (9 - r) * cell];
      };
      var place = function (href, sq, parent) {
        var p = at(sq);
        el('use', { href: href, x: p[0], y: p[1] }, parent);
      };
      var pieces = svg.querySelector('g.pieces'), marks = svg.querySelector('g.marks');
      pieces.textContent = '';
      marks.textContent = '';
      if (last) {
        place('#' + id + '-mark', point(last.slice(0, 2)), marks);
        place('#' + id + '-mark', point(last.slice(2, 4)), marks);
      }
      board.forEach(function (c, sq) {
        if (c) place('#' + id + '-' + (c === c.toUpperCase() ? 'r' : 'b') + c, sq, pieces);
      });
    });
    var fen = fenOf(board, sideAt(g, state.ply));
    viewer.setAttribute('data-fen', fen);
    viewer.setAttribute('data-ply', state.ply);
    boards.forEach(function (svg) { svg.setAttribute('data-fen', fen); });
  }

  function drawGraph() {
    var g = state.game, n = g.mv.length, W = 400, H = 110, pad = 6;
    graph.textContent = '';
    var x = function (ply) { return pad + (W - 2 * pad) * (n ? ply / n : 0); };
    var y = function (v) { return H / 2 - v * (H / 2 - pad); };
    el('rect', { x: 0, y: 0, width: W, height: H / 2, fill: '#fbecea' }, graph);
    el('rect', { x: 0, y: H / 2, width: W, height: H / 2, fill: '#eeeeee' }, graph);
    el('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: '#999' }, graph);
    if (g.book) {
      el('rect', { x: 0, y: 0, width: x(g.book), height: H, fill: '#000', 'fill-opacity': 0.06 }, graph);
    }
    var lines = [[], []];
    g.sc.forEach(function (s, i) {
      var ply = g.book + i + 1, moverIsRed = sideAt(g, ply - 1) === 0;
      var v = graphValue(s, moverIsRed);
      if (v !== null) lines[moverIsRed ? 0 : 1].push(x(ply).toFixed(1) + ',' + y(v).toFixed(1));
    });
    var colours = ['#b8322a', '#1d1b18'];
    lines.forEach(function (pts, side) {
      if (pts.length) {
        el('polyline', { points: pts.join(' '), fill: 'none', stroke: colours[side],
          'stroke-width': 1.6, 'stroke-linejoin': 'round' }, graph);
      }
    });
    var t = el('text', { x: W - pad, y: 14, 'text-anchor': 'end', 'font-size': 10,
      'font-family': 'sans-serif', fill: '#7a2019' }, graph);
    t.textContent = 'Red better';
    t = el('text', { x: W - pad, y: H - 6, 'text-anchor': 'end', 'font-size': 10,
      'font-family': 'sans-serif', fill: '#333' }, graph);
    t.textContent = 'Black better';
    el('line', { id: 'graph-cursor', x1: x(state.ply), x2: x(state.ply), y1: 0, y2: H,
      stroke: '#1f6fd1', 'stroke-width': 1.5 }, graph);
  }

  function moveGraphCursor() {
    var c = document.getElementById('graph-cursor'), n = state.game.mv.length;
    if (!c) return;
    var x = 6 + (400 - 12) * (n ? state.ply / n : 0);
    c.setAttribute('x1', x);
    c.setAttribute('x2', x);
  }

  function buildMoves() {
    var g = state.game, table = html('table'), body = html('tbody');
    var head = html('thead'), tr = html('tr');
    tr.appendChild(html('th', '', '#'));
    tr.appendChild(html('th', 'l', data.engines[g.red] + ' (Red)'));
    tr.appendChild(html('th', 'l', data.engines[g.black] + ' (Black)'));
    head.appendChild(tr);
    table.appendChild(head);
    table.appendChild(body);
    state.cells = [null];
    var row = null, number = 0;
    for (var i = 0; i < g.mv.length; i++) {
      var side = sideAt(g, i);
      if (!row || side === 0) {
        row = html('tr');
        number++;
        row.appendChild(html('td', '', number + '.'));
        body.appendChild(row);
        if (side === 1) row.appendChild(html('td', 'mv'));
      }
      var cell = html('td', 'mv' + (i < g.book ? ' book' : ''));
      cell.setAttribute('data-ply', i + 1);
      cell.appendChild(html('span', 'cn', g.cn[i] || g.mv[i]));
      cell.appendChild(html('span', 'iccs', g.mv[i]));
      var k = i - g.book, words;
      if (k < 0) words = 'book';
      else {
        words = [scoreText(g.sc[k]), g.d[k] !== null ? 'd' + g.d[k] : '', timeText(g.ms[k]),
          g.cl[k] !== null && g.cl[k] !== undefined ? '(' + timeText(g.cl[k]) + ' left)' : '']
          .filter(function (w) { return w; }).join(' ');
      }
      cell.appendChild(html('span', 'info', words));
      row.appendChild(cell);
      state.cells.push(cell);
    }
    movesBox.textContent = '';
    movesBox.appendChild(table);
  }

  function showInfo() {
    var g = state.game;
    info.textContent = '';
    var p = html('div');
    var b = html('b', '', 'Game ' + g.n + ': ');
    p.appendChild(b);
    p.appendChild(document.createTextNode(data.engines[g.red] + ' – ' + data.engines[g.black] +
      ', ' + g.res + ' (' + g.term + (g.inc ? '; ' + g.inc : '') + ')'));
    info.appendChild(p);
    var o = html('div', 'note', 'Opening: ' + (g.open || 'start position') +
      (g.detail ? ' · ' + g.detail : ''));
    info.appendChild(o);
  }

  function highlight() {
    state.cells.forEach(function (c, i) { if (c) c.classList.toggle('cur', i === state.ply); });
    var cur = state.cells[state.ply];
    if (cur) {
      // Scroll the move list only, never the page.
      var top = cur.offsetTop, box = movesBox;
      if (top < box.scrollTop + 30 || top > box.scrollTop + box.clientHeight - 40) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      }
    } else if (state.ply === 0) movesBox.scrollTop = 0;
    var n = state.game.mv.length, g = state.game;
    plyText.textContent = state.ply === 0 ? 'start' :
      'ply ' + state.ply + ' of ' + n + (state.ply <= g.book ? ' (opening)' : '');
  }

  function remember() {
    try {
      history.replaceState(null, '', '#g' + state.game.n + 'p' + state.ply);
    } catch (e) { /* a page opened from disk may not allow it: no matter */ }
  }

  function go(ply) {
    if (!state.game) return;
    state.ply = Math.max(0, Math.min(state.game.mv.length, ply));
    drawBoards();
    moveGraphCursor();
    highlight();
    remember();
  }

  function step(k) { if (state.game) go(state.ply + k); }

  function select(n, ply) {
    var g = byNumber[n];
    if (!g) return false;
    state.game = g;
    rows.forEach(function (r) { r.classList.toggle('cur', +r.getAttribute('data-game') === n); });
    showInfo();
    buildMoves();
    drawGraph();
    go(ply || 0);
    return true;
  }

  document.addEventListener('keydown', function (e) {
    var t = e.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA')) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (e.key in moves) step(moves[e.key]);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(Infinity);
    else return;
    e.preventDefault();
  });

  viewer.addEventListener('click', function (e) {
    var b = e.target.closest ? e.target.closest('button[data-go]') : null;
    if (!b || !state.game) return;
    var what = b.getAttribute('data-go');
    if (what === 'start') go(0);
    else if (what === 'back') step(-1);
    else if (what === 'forward') step(1);
    else if (what === 'end') go(Infinity);
    else if (what === 'flip') { state.flip = !state.flip; drawBoards(); }
  });

  graph.addEventListener('click', function (e) {
    if (!state.game) return;
    var r = graph.getBoundingClientRect();
    var f = (e.clientX - r.left) / r.width * 400;
    go(Math.round((f - 6) / (400 - 12) * state.game.mv.length));
  });

  movesBox.addEventListener('click', function (e) {
    var c = e.target.closest ? e.target.closest('td.mv[data-ply]') : null;
    if (c) go(+c.getAttribute('data-ply'));
  });

  rows.forEach(function (r) {
    r.addEventListener('click', function () { select(+r.getAttribute('data-game')); });
  });

  var filter = document.getElementById('filter');
  filter.addEventListener('input', function () {
    var words = filter.value.toLowerCase().split(/\s+/).filter(function (w) { return w; });
    rows.forEach(function (r) {
      var text = r.textContent.toLowerCase();
      r.style.display = words.every(function (w) { return text.indexOf(w) >= 0; }) ? '' : 'none';
    });
  });

  // For scripts (and the browser check): the viewer's controls.
  window.chuheReport = {
    select: select,
    go: go,
    step: step,
    games: function () { return data.games.map(function (g) { return g.n; }); },
    fen: function () { return viewer.getAttribute('data-fen'); },
    plies: function () { return state.game ? state.game.mv.length : 0; }
  };

  var m = /^#g(\d+)(?:p(\d+))?$/.exec(location.hash);
  if (!(m && select(+m[1], +(m[2] || 0))) && data.games.length) select(data.games[0].n);
})();
