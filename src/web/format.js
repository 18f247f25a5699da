// Numbers, times and scores as the page words them. Pure: no DOM, so the
// Node tests import it as is.

/** The other player's mark. */
export const other = (m) => (m === 'X' ? 'O' : 'X');

/** A count with thousands separators, or a dash when there is none. */
export const fmtInt = (n) => (typeof n === 'number' && isFinite(n) ? n.toLocaleString('en-US') : '—');

/** A duration in microseconds, in the unit that reads best. */
export function fmtUs(us) {
  if (typeof us !== 'number' || !isFinite(us)) return '—';
  if (us < 1) return '<1 µs';
  if (us < 1000) return us + ' µs';
  if (us < 1e6) return (us / 1000).toFixed(us < 10000 ? 2 : 1) + ' ms';
  return (us / 1e6).toFixed(2) + ' s';
}

/** Positions per second from a count and the microseconds it took. */
export function fmtRate(nodes, us) {
  if (!(nodes >= 0) || !(us > 0)) return '—';
  const r = nodes / (us / 1e6);
  if (r >= 1e6) return (r / 1e6).toFixed(r >= 1e7 ? 0 : 1) + ' M/s';
  if (r >= 1e3) return (r / 1e3).toFixed(r >= 1e4 ? 0 : 1) + ' k/s';
  return Math.round(r) + '/s';
}

export const plies = (n) => (n === 1 ? '1 ply' : n + ' plies');

/** True when a move's score is exact: the service gave its distance to the end. */
export const isExact = (m) => m.exact !== false && m.plies_to_end !== null && m.plies_to_end !== undefined;

/** A move's score as a short label: W3 (win in 3 plies), D, L2, or W?/D?/L? when not exact. */
export function scoreLabel(m) {
  const letter = m.score > 0 ? 'W' : m.score < 0 ? 'L' : 'D';
  if (!isExact(m)) return letter + '?';
  return letter === 'D' ? 'D' : letter + m.plies_to_end;
}

/** The class of a move's result: w, d or l. */
export const resultClass = (score) => (score > 0 ? 'w' : score < 0 ? 'l' : 'd');

/** A move's score in words; `cut` says why a score is not exact. */
export function scoreWords(m, cut) {
  if (!isExact(m)) {
    return cut + (m.score > 0 ? ', looks won' : m.score < 0 ? ', looks lost' : '');
  }
  if (m.score > 0) return 'win in ' + plies(m.plies_to_end);
  if (m.score < 0) return 'loss in ' + plies(m.plies_to_end);
  return 'draw';
}

/** The result of best play for `who`, the side to move; `cut` says why it is not exact. */
export function outcomeText(score, pliesToEnd, exact, who, cut) {
  if (!exact) {
    const s = score > 0 ? who + ' looks winning' : score < 0 ? who + ' looks losing' : 'no result yet';
    return cut ? s + ' (' + cut + ')' : s;
  }
  if (score > 0) return who + ' wins in ' + plies(pliesToEnd);
  if (score < 0) return who + ' loses in ' + plies(pliesToEnd);
  return 'draw';
}

/** A hint's result for the player who asked. */
export function hintWords(d, cut) {
  if (!d.exact) return cut;
  if (d.score > 0) return 'you win in ' + plies(d.plies_to_end);
  if (d.score < 0) return 'you lose in ' + plies(d.plies_to_end);
  return 'a draw';
}

/** A short reading of a search's score, from the point of view of the side to move. */
export function scoreShort(score, exact, pliesToEnd) {
  if (exact && typeof pliesToEnd === 'number') {
    if (score > 0) return 'win in ' + pliesToEnd;
    if (score < 0) return 'loss in ' + pliesToEnd;
    return 'draw';
  }
  if (score > 0) return 'looks won';
  if (score < 0) return 'looks lost';
  return 'open';
}

/** The scoring phase's progress: `n` of the `total` root moves (`noun`, plural) settled
 *  so far; `total` may be unknown (null). */
export function settledText(n, total, noun) {
  return 'scoring ' + noun + ': ' + n + (typeof total === 'number' ? ' of ' + total : '') + ' settled';
}

/** A report's depth: a number of plies, or null for a search to the end. */
export const toTheEnd = (depth) => depth === null;
export function depthText(depth) {
  if (depth === undefined) return '';
  return toTheEnd(depth) ? ' · to the end' : ' · depth ' + depth;
}

export const capitalize = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
