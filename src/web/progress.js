// The search progress panel: the engine's iterations as the event stream
// reports them, and what the search is doing between reports.
//
// The service reports each finished iteration of the engine's deepening
// (a `progress` event), which is short (a small share of the time budget);
// after it, the engine scores every root move (each Connect Four column) for
// the rest of the budget and reports each move's score as it settles (a
// `move` event, read as `{ scored }`). The panel's phase line then counts the
// settled moves ("scoring columns: 3 of 7 settled"). After a report that is
// exact (the deepening is over), or after QUIET_MS without one, the panel
// shows the scoring phase even before the first move settles, instead of a
// display that looks stuck.

import { $ } from './dom.js';
import { fmtInt, fmtRate, fmtUs, scoreShort, settledText, toTheEnd } from './format.js';

/** Silence after an iteration's report that means the scoring has begun. */
export const QUIET_MS = 400;
const STATS = ['pg-depth', 'pg-best', 'pg-score', 'pg-nodes', 'pg-rate'];

export class ProgressPanel {
  /** From the game's adapter: `moveShort(move)` names a move in a cell of the panel, `scoringText`
   *  names the scoring phase and `scoredNoun` its moves, plural ('columns'); `bestLabel` heads the
   *  best move's cell ('Best column'); `progressScore(report)`, if given, words a report's score. */
  constructor({ moveShort, scoringText, scoredNoun, bestLabel, progressScore }) {
    this.root = $('progress');
    this.moveShort = moveShort;
    this.scoringText = scoringText;
    this.scoredNoun = scoredNoun || 'moves';
    this.bestLabel = bestLabel || 'Best move';
    this.scoreText = progressScore || ((p) => scoreShort(p.score, p.exact, p.plies_to_end));
    this.settled = new Set();  // the root moves whose score settled during this search
    this.total = null;         // the root moves of this search, when known
    this.clockTimer = null;
    this.quietTimer = null;
    this.liveAt = 0;
  }

  clock(on) {
    clearInterval(this.clockTimer);
    this.clockTimer = null;
    if (!on) return;
    const start = performance.now();
    const tick = () => { $('pg-clock').textContent = ((performance.now() - start) / 1000).toFixed(1) + ' s'; };
    tick();
    this.clockTimer = setInterval(tick, 100);
  }

  phase(name) {
    clearTimeout(this.quietTimer);
    this.quietTimer = null;
    this.root.dataset.phase = name;
    const scoring = this.settled.size ? settledText(this.settled.size, this.total, this.scoredNoun) : this.scoringText;
    const words = { starting: 'searching…', deepening: 'deepening…', scoring, done: '', idle: '' };
    $('pg-phase').textContent = words[name] || '';
  }

  /** The panel is this game's, and idle: its words, and no figures of another game's search. */
  reset() {
    this.clock(false);
    this.phase('idle');
    $('pg-best-label').textContent = this.bestLabel;
    $('pg-clock').textContent = '';
    this.root.dataset.state = 'idle';
    this.root.dataset.updates = '0';
    this.root.removeAttribute('aria-busy');
    $('pg-title').textContent = 'Search progress';
    for (const id of STATS) $(id).textContent = '—';
  }

  /** A search begins; `total` is the number of its root moves (null: unknown). */
  start(title, total = null) {
    this.settled.clear();
    this.total = total;
    this.clock(true);
    this.phase('starting');
    this.root.dataset.state = 'running';
    this.root.dataset.updates = '0';
    this.root.dataset.settled = '0';
    this.root.setAttribute('aria-busy', 'true');
    $('pg-title').textContent = title;
    for (const id of STATS) $(id).textContent = '…';
    $('pg-live').textContent = title;
    this.liveAt = performance.now();
  }

  show(p) {
    $('pg-depth').textContent = toTheEnd(p.depth) ? 'to the end' : typeof p.depth === 'number' ? String(p.depth) : '—';
    $('pg-best').textContent = p.best_move !== null && p.best_move !== undefined ? this.moveShort(p.best_move) : '—';
    $('pg-score').textContent = typeof p.score === 'number' ? this.scoreText(p) : '—';
    $('pg-nodes').textContent = fmtInt(p.nodes);
    $('pg-rate').textContent = fmtRate(p.nodes, p.elapsed_us);
  }

  /** One progress event. */
  update(p) {
    if (this.root.dataset.state !== 'running') return;
    if (p.scored) {
      // A root move's score settled: the engine is scoring the moves, this many so far.
      this.settled.add(p.scored.move);
      this.root.dataset.settled = String(this.settled.size);
      this.phase('scoring');
      return;
    }
    this.show(p);
    this.root.dataset.updates = String(Number(this.root.dataset.updates) + 1);
    if (p.exact) {
      this.phase('scoring');
    } else {
      this.phase('deepening');
      this.quietTimer = setTimeout(() => this.phase('scoring'), QUIET_MS);
    }
    // Screen readers hear a summary at most every two seconds, not every iteration.
    const now = performance.now();
    if (now - this.liveAt > 2000) {
      this.liveAt = now;
      $('pg-live').textContent = 'Depth ' + p.depth + ', best ' + this.moveShort(p.best_move) + ', ' + fmtInt(p.nodes) + ' positions.';
    }
  }

  /** The answer came: the panel shows the engine's final figures. */
  done(d) {
    this.clock(false);
    this.phase('done');
    this.root.dataset.state = 'done';
    this.root.removeAttribute('aria-busy');
    $('pg-title').textContent = 'Last search';
    const en = d && d.engine;
    if (en && typeof en.nodes === 'number') {
      this.show({ depth: en.depth, best_move: d.best_move === null || d.random_move ? en.best_move : d.best_move,
        score: d.score, exact: d.exact, plies_to_end: d.plies_to_end, evaluation: d.evaluation, nodes: en.nodes, elapsed_us: en.elapsed_us });
      $('pg-clock').textContent = fmtUs(en.elapsed_us);
      $('pg-live').textContent = d.best_move === null || d.best_move === undefined ? ''
        : 'Search finished' + (toTheEnd(en.depth) ? ', to the end of the game,' : ' at depth ' + en.depth) +
          ' after ' + fmtInt(en.nodes) + ' positions.';
    } else if (Number(this.root.dataset.updates) === 0) {
      for (const id of STATS) $(id).textContent = '—';
    }
  }

  /** The search was cancelled or failed. */
  stop() {
    if (this.root.dataset.state === 'running') {
      this.reset();
    } else {
      this.clock(false);
      this.phase('idle');
    }
  }
}
