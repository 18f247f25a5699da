// A game review as the page reads it (POST /review): the plies judged so
// far (they arrive from the end of the game backwards, out of order), the
// first player's winning chance over the game for the graph, the marks of
// the judgements and each side's tally. Game-free and pure: no DOM, so the
// Node tests import it as is.
//
// A ply object of the service: {ply (from 1, passes counted), to_move ('X'
// moves first), move, played_score, best_score, best_moves, exact,
// played_plies_to_end, best_plies_to_end, loss, best_win_chance,
// played_win_chance (the mover's chances, from 0 to 1), accuracy,
// judgement ('best' | 'good' | 'inaccuracy' | 'mistake' | 'blunder' | null),
// proven, forced, nodes, elapsed_us}.

export const JUDGEMENTS = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'];

/** The mark of each judgement in a move list, as Lichess writes them (none for a best or good move). */
export const GLYPHS = { best: '', good: '', inaccuracy: '?!', mistake: '?', blunder: '??' };
/** The mark of an only move (the mover had no choice), as chess annotators write it. */
export const FORCED_GLYPH = '\u25a1';

/** A judgement in words, for labels. */
export const JUDGEMENT_WORDS = { best: 'best move', good: 'good move', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder' };

/** The winning chance of the first player (X) after a ply, from 0 to 1, or null when not known. */
export function firstChance(p) {
  if (!p || typeof p.played_win_chance !== 'number') return null;
  return p.to_move === 'O' ? 1 - p.played_win_chance : p.played_win_chance;
}

/** The first player's chance before a ply (best play from there), or null. */
export function firstChanceBefore(p) {
  if (!p || typeof p.best_win_chance !== 'number') return null;
  return p.to_move === 'O' ? 1 - p.best_win_chance : p.best_win_chance;
}

/** The plies of a review as they arrive: by ply number, each ply once (a later report replaces one
 *  seen before). `total` is the plies the game has (the request's moves, passes counted), `passes`
 *  the ply numbers the review does not judge (a side that had no move). */
export class ReviewPlies {
  constructor(total, passes = []) {
    this.total = total;
    this.passes = new Set(passes);
    this.byPly = new Map();
  }

  /** Takes one reported ply; false when it is not one of the game's. */
  add(p) {
    if (!p || !Number.isInteger(p.ply) || p.ply < 1 || p.ply > this.total) return false;
    this.byPly.set(p.ply, p);
    return true;
  }

  get(ply) { return this.byPly.get(ply) || null; }
  get size() { return this.byPly.size; }
  /** The plies judged so far, in the game's order. */
  list() { return [...this.byPly.values()].sort((a, b) => a.ply - b.ply); }

  /** The points of the graph: {ply, chance, exact, judgement, proven} for the start (ply 0, from the
   *  first ply's best chance) and after each ply judged; ply numbers the service skipped (passes)
   *  have none. */
  points() {
    const out = [];
    const first = this.get(1);
    const start = firstChanceBefore(first);
    if (start !== null) out.push({ ply: 0, chance: start, exact: !!first.exact, judgement: null, proven: false });
    for (const p of this.list()) {
      const chance = firstChance(p);
      if (chance !== null) out.push({ ply: p.ply, chance, exact: !!p.exact, judgement: p.judgement, proven: !!p.proven });
    }
    return out;
  }

  /** The runs of the graph's line: points that follow each other (a pass between two plies joins
   *  them), each run a list of points. */
  runs() {
    const runs = [];
    let run = [];
    let last = null;
    for (const pt of this.points()) {
      if (last !== null && !this.joined(last, pt.ply)) { runs.push(run); run = []; }
      run.push(pt);
      last = pt.ply;
    }
    if (run.length) runs.push(run);
    return runs;
  }

  /** True when every ply strictly between two is one the review does not judge (a pass). */
  joined(a, b) {
    for (let k = a + 1; k < b; k++) if (!this.passes.has(k)) return false;
    return true;
  }

  /** The plies the review judges, passes left out. */
  get judged() { return this.total - this.passes.size; }

  /** The stretches of the game whose plies are proven exact, as [from, to] in ply numbers (the span
   *  of ply p is from p - 1 to p). */
  exactSpans() {
    const spans = [];
    for (const p of this.list()) {
      if (!p.exact) continue;
      const last = spans[spans.length - 1];
      if (last && this.joined(last[1], p.ply)) last[1] = p.ply; else spans.push([p.ply - 1, p.ply]);
    }
    return spans;
  }

  /** Each side's tally of the plies judged so far, as the service's `sides` counts them: moves, the
   *  count of each judgement and the mean accuracy of the moves that had a choice (null with none). */
  sides() {
    const out = {};
    for (const side of ['X', 'O']) {
      const mine = this.list().filter((p) => p.to_move === side);
      const tally = { moves: mine.length };
      for (const j of JUDGEMENTS) tally[j] = mine.filter((p) => p.judgement === j).length;
      const scored = mine.filter((p) => !p.forced && typeof p.accuracy === 'number');
      tally.accuracy = scored.length ? scored.reduce((s, p) => s + p.accuracy, 0) / scored.length : null;
      out[side] = tally;
    }
    return out;
  }
}

/** The class of a ply's mark: its judgement ('j-mistake'), 'j-forced' for an only move, 'j-none'
 *  when it was not judged, 'j-pending' before its report. */
export function markClass(p) {
  if (!p) return 'j-pending';
  if (p.forced) return 'j-forced';
  return p.judgement ? 'j-' + p.judgement : 'j-none';
}

/** The glyph shown after a move in the list. */
export function glyphOf(p) {
  if (!p) return '';
  if (p.forced) return FORCED_GLYPH;
  return (p.judgement && GLYPHS[p.judgement]) || '';
}

/** A ply's judgement in words: 'mistake (proven)', 'only move', 'not judged in time', 'not judged yet'. */
export function judgementWords(p) {
  if (!p) return 'not judged yet';
  if (p.forced) return 'only move';
  if (!p.judgement) return 'not judged in time';
  return JUDGEMENT_WORDS[p.judgement] + (p.proven ? ' (proven)' : ' (from estimates)');
}

/** A chance from 0 to 1 as a percentage: '73%'. */
export const percent = (c) => (typeof c === 'number' ? Math.round(100 * c) + '%' : '—');

/** An accuracy from 0 to 100: '95.3%'. */
export const accuracyText = (a) => (typeof a === 'number' ? a.toFixed(1) + '%' : '—');

/** The graph's geometry: the SVG's size, its plot area and the scales of plies and chances. */
export function graphScale(total, { width = 640, height = 190, left = 38, right = 10, top = 10, bottom = 24 } = {}) {
  const span = Math.max(1, total);
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  return {
    width, height, left, right, top, bottom, total: span,
    x: (ply) => left + (plotW * ply) / span,
    y: (chance) => top + plotH * (1 - chance),
    /** The ply nearest an x coordinate of the SVG, from 1 to total. */
    plyAt: (x) => Math.min(span, Math.max(1, Math.round(((x - left) / plotW) * span))),
  };
}

/** An SVG path through points of a run ("M x y L x y ..."), at two decimals. */
export function linePath(run, sc) {
  return run.map((pt, k) => (k ? 'L' : 'M') + sc.x(pt.ply).toFixed(2) + ' ' + sc.y(pt.chance).toFixed(2)).join(' ');
}

/** The area between a run's line and the even line (a chance of one half), closed. */
export function areaPath(run, sc) {
  if (!run.length) return '';
  const mid = sc.y(0.5).toFixed(2);
  const first = sc.x(run[0].ply).toFixed(2);
  const last = sc.x(run[run.length - 1].ply).toFixed(2);
  return 'M' + first + ' ' + mid + ' ' + linePath(run, sc).replace(/^M/, 'L') + ' L' + last + ' ' + mid + ' Z';
}

/** The ply ticks of the graph's axis: at most about `n` multiples of a round step, up to total. */
export function plyTicks(total, n = 8) {
  if (total < 1) return [];
  const raw = total / n;
  const step = [1, 2, 5, 10, 20, 50].find((s) => s >= raw) || 100;
  const ticks = [];
  for (let t = step; t <= total; t += step) ticks.push(t);
  return ticks;
}
