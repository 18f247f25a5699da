// The game review panel, written once for every game: the "Review" button
// sends the moves of the game shown to POST /review and streams its answer,
// one ply at a time (from the end of the game backwards); the panel fills
// in as they arrive: the evaluation graph (the first player's winning
// chance after each move, exact stretches shaded, exact points solid), the
// move list with each move's judgement (?! inaccuracy, ? mistake, ??
// blunder, filled when proven), each side's tally and accuracy. Choosing a
// move shows the position before it on the game's board, with the best
// moves and the move played marked (the controller's review view).
//
// What it takes from the game's adapter (see controller.js): reviewBody(moves,
// settings) (the request), reviewWords(score, pliesToEnd, exact) (a score of
// the review in words, for its mover), moveShort and moveName (a move's
// names), sideName, timed (the review time applies), and render's `review`
// view ({best, played}) for the board.

import { $, el, svgEl } from './dom.js';
import { postReview } from './client.js';
import { capitalize, fmtInt, fmtUs } from './format.js';
import {
  ReviewPlies, accuracyText, areaPath, glyphOf, graphScale, judgementWords, linePath, markClass, percent, plyTicks,
} from './review-model.js';

/** The review time of a game whose review time applies, when the page does not say. */
const DEFAULT_MS = 20000;
/** Time allowed beyond the review's budget: waiting for a slot, and the last ply's answer. */
const GRACE_MS = 20000;
const TALLY = [['best', 'Best'], ['good', 'Good'], ['inaccuracy', '?! Inaccuracies'], ['mistake', '? Mistakes'], ['blunder', '?? Blunders']];

export class GameReview {
  constructor() {
    this.root = $('review');
    this.graph = $('review-graph');
    this.list = $('review-moves');
    this.game = null;      // the controller of the game shown
    this.request = null;   // the review in flight, to cancel it
    this.run = null;       // the review shown: {game, adapter, moves, settings, plies, names, final, selected}
    this.generation = 0;
    $('review-start').addEventListener('click', () => this.start());
    $('review-stop').addEventListener('click', () => this.stop());
    $('review-back').addEventListener('click', () => this.back());
    $('review-prev').addEventListener('click', () => this.step(-1));
    $('review-next').addEventListener('click', () => this.step(1));
    this.graph.addEventListener('click', (e) => this.graphClick(e));
    this.list.addEventListener('keydown', (e) => this.listKey(e));
  }

  /** The game shown changed: its review starts empty. */
  attach(game) {
    this.cancel();
    if (this.game) this.game.leaveReview();
    this.game = game;
    this.run = null;
    this.setState('idle');
    this.status('Play a game (or set one up from a move list), then press “Review” to see every move judged.');
    this.draw();
  }

  setState(state) {
    this.root.dataset.state = state;
    $('review-stop').hidden = state !== 'running';
    // The count of plies judged changes many times a second: said once the review ends.
    $('review-status').setAttribute('aria-busy', String(state === 'running'));
  }

  status(text, opts = {}) {
    const s = $('review-status');
    s.classList.toggle('error', !!opts.error);
    s.replaceChildren();
    if (opts.spinner) s.appendChild(el('span', { class: 'spinner', 'aria-hidden': 'true' }));
    s.append(text);
  }

  cancel() {
    this.generation += 1;
    if (this.request) this.request.abort();
    this.request = null;
  }

  /** Reviews the moves of the game shown, as they are now. */
  start() {
    const g = this.game;
    if (!g || !g.canReview()) return;
    this.cancel();
    g.leaveReview();
    const a = g.adapter;
    const moves = g.moves.slice();
    const settings = g.settings;
    const passes = [];
    moves.forEach((m, i) => { if (g.isPass(m)) passes.push(i + 1); });
    // The service's X moves first: the page's mark of the first mover may be O (tic-tac-toe).
    const first = g.sideAt(0);
    const pageMark = (side) => (side === 'X' ? first : first === 'X' ? 'O' : 'X');
    const nameOf = (side) => capitalize(a.sideName(pageMark(side), settings)) + (pageMark(side) === settings.human ? ' (you)' : ' (computer)');
    this.run = {
      game: g, adapter: a, moves, settings, plies: new ReviewPlies(moves.length, passes),
      names: { X: nameOf('X'), O: nameOf('O') }, final: null, selected: null,
    };
    const body = a.reviewBody(moves, settings);
    if (a.timed) body.time_ms = Number($('review-time').value) || DEFAULT_MS;
    const gen = this.generation;
    this.setState('running');
    this.root.dataset.plies = '0';
    this.status('Reviewing ' + this.run.plies.judged + ' moves…', { spinner: true });
    this.draw();
    this.request = postReview(JSON.stringify(body), {
      onProgress: (p) => { if (gen === this.generation) this.onPly(p); },
      timeoutMs: (body.time_ms || DEFAULT_MS) + GRACE_MS,
    });
    this.request.promise.then((r) => {
      if (gen !== this.generation) return;
      this.request = null;
      if (r.ok) this.finish(r.data);
      else if (r.kind !== 'aborted') this.failed(r);
    });
  }

  /** One ply judged: into the graph, the list and the tally. */
  onPly(p) {
    const run = this.run;
    if (!run.plies.add(p)) return;
    this.root.dataset.plies = String(run.plies.size);
    this.status('Reviewing: ' + run.plies.size + ' of ' + run.plies.judged + ' moves judged…', { spinner: true });
    // The chosen move's words (a live region) change only when its own ply is reported.
    this.draw(false);
    if (run.selected === p.ply) this.select(p.ply);
  }

  finish(d) {
    const run = this.run;
    for (const p of d.plies || []) run.plies.add(p);
    run.final = d;
    this.root.dataset.plies = String(run.plies.size);
    this.setState('done');
    const exact = typeof d.exact_plies === 'number' ? d.exact_plies : run.plies.list().filter((p) => p.exact).length;
    const turns = (d.turning_points || []);
    this.status(run.plies.size + ' moves reviewed in ' + fmtUs(d.elapsed_us) + ', ' +
      (exact === run.plies.size ? 'every one proven exact' : exact + ' of them proven exact') +
      (turns.length ? '; the proven result changed at move' + (turns.length > 1 ? 's ' : ' ') + turns.join(', ') + '.' : '.'));
    this.draw();
    // The first turning point, or the worst move, or the first move, is shown on the board.
    if (run.selected === null) this.select(this.firstToShow(), false);
  }

  /** The move shown when the review ends: its first turning point, else its first blunder or mistake,
   *  else its first move. */
  firstToShow() {
    const run = this.run;
    const turns = (run.final && run.final.turning_points) || [];
    if (turns.length && run.plies.get(turns[0])) return turns[0];
    for (const j of ['blunder', 'mistake', 'inaccuracy']) {
      const p = run.plies.list().find((x) => x.judgement === j);
      if (p) return p.ply;
    }
    const first = run.plies.list()[0];
    return first ? first.ply : null;
  }

  failed(r) {
    this.setState('error');
    let msg = r.message;
    if (r.kind === 'service') msg = 'The service could not review the game: ' + r.error.message;
    this.status(msg, { error: true });
  }

  /** Stops the review in flight: the plies judged so far stay. */
  stop() {
    if (!this.request) return;
    this.cancel();
    this.setState('stopped');
    this.status('Review stopped: ' + this.run.plies.size + ' of ' + this.run.plies.judged + ' moves judged.');
  }

  /** The game's board shows the game again. */
  back() {
    if (this.game) this.game.leaveReview();
  }

  // --- choosing a move ---

  /** Shows the position before a ply on the board, with the best moves and the move played. */
  select(ply, focus) {
    const run = this.run;
    if (!run || ply === null || ply < 1 || ply > run.moves.length || run.game !== this.game) return;
    run.selected = ply;
    const p = run.plies.get(ply);
    run.game.showReview({
      moves: run.moves.slice(0, ply - 1), settings: run.settings, ply,
      played: run.moves[ply - 1], best: p ? p.best_moves : [],
      onLeave: () => { if (this.run === run) { run.selected = null; this.markSelected(); this.detail(); } },
    });
    this.markSelected(focus);
    this.detail();
    this.drawCursor();
  }

  /** The next (or previous) move with a judgement to show; passes are stepped over. */
  step(by) {
    const run = this.run;
    if (!run) return;
    let ply = run.selected === null ? (by > 0 ? 0 : run.moves.length + 1) : run.selected;
    do { ply += by; } while (ply >= 1 && ply <= run.moves.length && run.plies.passes.has(ply));
    if (ply >= 1 && ply <= run.moves.length) this.select(ply, true);
  }

  graphClick(e) {
    const run = this.run;
    if (!run) return;
    const box = this.graph.getBoundingClientRect();
    if (!box.width) return;
    const sc = graphScale(run.moves.length);
    let ply = sc.plyAt(((e.clientX - box.left) / box.width) * sc.width);
    while (run.plies.passes.has(ply) && ply > 1) ply -= 1;
    this.select(ply, false);
  }

  listKey(e) {
    const delta = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    if (delta) { e.preventDefault(); this.step(delta); return; }
    if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      this.run.selected = null;
      this.step(e.key === 'Home' ? 1 : -1);
    }
  }

  // --- drawing ---

  draw(words = true) {
    const run = this.run;
    $('review-body').hidden = !run;
    if (!run) return;
    this.drawGraph();
    this.drawList();
    this.drawSides();
    if (words) this.detail();
  }

  drawGraph() {
    const run = this.run;
    const svg = this.graph;
    const sc = graphScale(run.moves.length);
    svg.setAttribute('viewBox', '0 0 ' + sc.width + ' ' + sc.height);
    svg.replaceChildren();
    const plot = { x: sc.left, y: sc.top, width: sc.width - sc.left - sc.right, height: sc.height - sc.top - sc.bottom };
    svg.appendChild(svgEl('rect', Object.assign({ class: 'g-plot' }, plot)));
    for (const [from, to] of run.plies.exactSpans()) {
      svg.appendChild(svgEl('rect', { class: 'g-exact', x: sc.x(from), y: plot.y, width: sc.x(to) - sc.x(from), height: plot.height }));
    }
    for (const [c, label] of [[1, '100%'], [0.5, '50%'], [0, '0%']]) {
      svg.appendChild(svgEl('line', { class: c === 0.5 ? 'g-mid' : 'g-grid', x1: sc.left, x2: sc.width - sc.right, y1: sc.y(c), y2: sc.y(c) }));
      const t = svgEl('text', { class: 'g-label', x: sc.left - 6, y: sc.y(c) + 4, 'text-anchor': 'end' });
      t.textContent = label;
      svg.appendChild(t);
    }
    for (const tick of plyTicks(run.moves.length)) {
      const t = svgEl('text', { class: 'g-label', x: sc.x(tick), y: sc.height - 6, 'text-anchor': 'middle' });
      t.textContent = String(tick);
      svg.appendChild(t);
    }
    for (const ply of (run.final && run.final.turning_points) || []) {
      svg.appendChild(svgEl('line', { class: 'g-turn', x1: sc.x(ply), x2: sc.x(ply), y1: plot.y, y2: plot.y + plot.height }));
    }
    const runs = run.plies.runs();
    for (const r of runs) svg.appendChild(svgEl('path', { class: 'g-area', d: areaPath(r, sc) }));
    for (const r of runs) if (r.length > 1) svg.appendChild(svgEl('path', { class: 'g-line', d: linePath(r, sc) }));
    svg.appendChild(svgEl('rect', { class: 'g-cursor', id: 'review-cursor', x: 0, width: 0, y: plot.y, height: plot.height, visibility: 'hidden' }));
    for (const pt of run.plies.points()) {
      const marked = ['inaccuracy', 'mistake', 'blunder'].includes(pt.judgement);
      const cls = 'pt ' + (pt.exact ? 'exact' : 'est') + (marked ? ' j-' + pt.judgement + (pt.proven ? ' proven' : '') : '');
      const c = svgEl('circle', { class: cls, cx: sc.x(pt.ply), cy: sc.y(pt.chance), r: marked ? 5 : 3.2, 'data-ply': String(pt.ply) });
      svg.appendChild(c);
    }
    this.drawCursor();
    const pts = run.plies.points();
    const end = pts.length ? pts[pts.length - 1] : null;
    svg.setAttribute('aria-label', 'Evaluation graph: ' + run.names.X + '’s winning chance after each move; ' + pts.length +
      ' points so far' + (end ? ', ' + percent(end.chance) + ' after move ' + end.ply : '') + '. Shaded stretches are proven exact.');
    $('review-graph-who').textContent = run.names.X.replace(/ \(.*\)$/, '') + '’s winning chance';
  }

  /** The chosen move's span on the graph (from the position before it to the one after). */
  drawCursor() {
    const cursor = $('review-cursor');
    if (!cursor || !this.run) return;
    const ply = this.run.selected;
    if (ply === null) { cursor.setAttribute('visibility', 'hidden'); return; }
    const sc = graphScale(this.run.moves.length);
    cursor.setAttribute('x', sc.x(ply - 1));
    cursor.setAttribute('width', Math.max(2, sc.x(ply) - sc.x(ply - 1)));
    cursor.setAttribute('visibility', 'visible');
  }

  /** The move list: a row per move pair, each move a button with its judgement's mark. */
  drawList() {
    const run = this.run;
    const a = run.adapter;
    const items = [];
    for (let ply = 1; ply <= run.moves.length; ply += 2) {
      const li = el('li', { class: 'rv-row' });
      li.appendChild(el('span', { class: 'rv-num', 'aria-hidden': 'true' }, (ply + 1) / 2 + '.'));
      for (const k of [ply, ply + 1]) if (k <= run.moves.length) li.appendChild(this.plyItem(k, a));
      items.push(li);
    }
    // A move that has the focus keeps it when the list is drawn again (a ply reported meanwhile).
    const focused = this.list.contains(document.activeElement) ? document.activeElement.dataset.ply : null;
    this.list.replaceChildren(...items);
    this.markSelected();
    const again = focused && this.list.querySelector('button[data-ply="' + focused + '"]');
    if (again) again.focus({ preventScroll: true });
  }

  plyItem(ply, a) {
    const run = this.run;
    const move = run.moves[ply - 1];
    const side = ply % 2 === 1 ? 'X' : 'O';
    if (run.plies.passes.has(ply)) {
      return el('span', { class: 'rv-ply rv-pass', 'aria-label': 'Move ' + ply + ': ' + run.names[side] + ' passes' }, 'pass');
    }
    const p = run.plies.get(ply);
    const b = el('button', { type: 'button', class: 'rv-ply ' + markClass(p) + (p && p.proven ? ' proven' : ''), 'data-ply': String(ply), tabindex: '-1' });
    b.appendChild(el('span', { class: 'mv' }, a.moveShort(move)));
    const glyph = glyphOf(p);
    if (glyph) b.appendChild(el('span', { class: 'gl', 'aria-hidden': 'true' }, glyph));
    const words = 'Move ' + ply + ', ' + run.names[side] + ' ' + a.moveName(move) + ': ' + judgementWords(p);
    b.setAttribute('aria-label', words);
    b.title = words;
    b.addEventListener('click', () => this.select(ply, false));
    return b;
  }

  /** The chosen move's button is current, and the one the Tab key reaches. */
  markSelected(focus) {
    const run = this.run;
    const buttons = [...this.list.querySelectorAll('button.rv-ply')];
    const chosen = run && run.selected !== null ? String(run.selected) : null;
    const tabbable = buttons.find((b) => b.dataset.ply === chosen) || buttons[0];
    for (const b of buttons) {
      if (b.dataset.ply === chosen) b.setAttribute('aria-current', 'true'); else b.removeAttribute('aria-current');
      b.tabIndex = b === tabbable ? 0 : -1;
    }
    if (focus && tabbable && chosen) tabbable.focus({ preventScroll: true });
  }

  /** Each side's tally: the service's at the end, counted from the plies judged until then. */
  drawSides() {
    const run = this.run;
    const sides = (run.final && run.final.sides) || run.plies.sides();
    const body = $('review-sides');
    body.replaceChildren();
    for (const side of ['X', 'O']) {
      const s = sides[side] || {};
      const tr = el('tr', { 'data-side': side });
      tr.appendChild(el('th', { scope: 'row' }, run.names[side]));
      tr.appendChild(el('td', { class: 'acc' }, accuracyText(s.accuracy)));
      for (const [key] of TALLY) tr.appendChild(el('td', { class: 'n j-' + key + (s[key] ? '' : ' zero') }, String(s[key] || 0)));
      body.appendChild(tr);
    }
  }

  /** The chosen move in words: who played what, its judgement, the scores of the move played and of the best. */
  detail() {
    const box = $('review-detail');
    const run = this.run;
    $('review-prev').disabled = !run;
    $('review-next').disabled = !run;
    $('review-back').hidden = !(run && run.selected !== null);
    const head = $('review-detail-head');
    const facts = $('review-facts');
    if (!run || run.selected === null) {
      box.dataset.ply = '';
      head.textContent = run ? 'Choose a move in the list or on the graph to see its position on the board.' : '';
      facts.replaceChildren();
      return;
    }
    const ply = run.selected;
    const a = run.adapter;
    const p = run.plies.get(ply);
    const side = ply % 2 === 1 ? 'X' : 'O';
    box.dataset.ply = String(ply);
    head.replaceChildren('Move ' + ply + ': ' + run.names[side] + ' played ' + a.moveName(run.moves[ply - 1]) + ' ',
      el('span', { class: 'rv-verdict ' + markClass(p) + (p && p.proven ? ' proven' : '') }, (glyphOf(p) ? glyphOf(p) + ' ' : '') + judgementWords(p)));
    facts.replaceChildren();
    const fact = (dt, dd) => { facts.appendChild(el('dt', null, dt)); facts.appendChild(el('dd', null, dd)); };
    if (!p) { fact('Best', 'not judged yet'); return; }
    const bestNames = (p.best_moves || []).map((m) => a.moveName(m));
    const words = (score, plies) => (typeof score === 'number' ? a.reviewWords(score, plies, p.exact) : 'not scored');
    fact('Played', a.moveName(run.moves[ply - 1]) + ': ' + words(p.played_score, p.played_plies_to_end));
    fact(bestNames.length > 1 ? 'Best moves' : 'Best move', (bestNames.join(', ') || '—') + ': ' + words(p.best_score, p.best_plies_to_end));
    if (typeof p.best_win_chance === 'number' && typeof p.played_win_chance === 'number') {
      fact('Winning chance', percent(p.best_win_chance) + ' with the best move, ' + percent(p.played_win_chance) + ' after the move played');
    }
    if (typeof p.accuracy === 'number') fact('Accuracy', accuracyText(p.accuracy));
    fact('Search', fmtInt(p.nodes) + ' positions in ' + fmtUs(p.elapsed_us));
  }
}
