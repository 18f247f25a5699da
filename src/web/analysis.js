// The parts of the analysis panels every game and the tree explorer share:
// the line of best play, and the three searches side by side.

import { $, el } from './dom.js';
import { fmtInt, fmtUs, depthText } from './format.js';

/** A line of best play as a list. `item(move, k)` gives {text, cls?, glyph?, label?} for each move. */
export function fillPv(listEl, pv, item) {
  listEl.replaceChildren();
  if (!Array.isArray(pv) || pv.length === 0) { listEl.appendChild(el('li', null, '—')); return; }
  pv.forEach((mv, k) => {
    if (k > 0) listEl.appendChild(el('li', { class: 'arrow', 'aria-hidden': 'true' }, '→'));
    const it = item(mv, k);
    const li = el('li', it.cls ? { class: it.cls } : null);
    if (it.glyph) li.append(it.glyph, ' ', el('span', { class: 'n' }, it.text));
    else li.textContent = it.text;
    if (it.label) li.setAttribute('aria-label', it.label);
    listEl.appendChild(li);
  });
}

/** A scored square of a game's analysis map: its words (the chosen move's say whether it was
 *  suggested or played) as its title and label, the chosen one marked. */
export function labelScored(li, name, words, d, ctx) {
  const chosen = name === d.best_move;
  if (chosen) li.classList.add('chosen');
  const text = name + ': ' + words + (chosen ? (ctx.source === 'hint' ? ' (suggested)' : ' (played)') : '');
  li.title = text;
  li.setAttribute('aria-label', text);
}

/** The answers whose minimax and alpha-beta search to the depth the comparison budget allows. */
const BUDGETED = ['connect4', 'othello'];

/** Node counts, times and depths of the searches in an answer, as bars side by side. */
// What the engine did: its search, or an answer read from its opening book (no position searched).
export function engineWords(en) {
  const depth = typeof en.depth === 'number' ? en.depth : null;
  if (en.nodes === 0 && en.book_hits > 0) {
    return 'The engine answered from its opening book' + (depth !== null ? ', searched to depth ' + depth + ' when the book was built.' : '.');
  }
  return 'The engine visited ' + fmtInt(en.nodes) + ' nodes' + (depth !== null ? ', reaching depth ' + depth : '') +
    (en.exact ? ', and solved the position.' : '.');
}

export function fillCompare(prefix, d, savedEl) {
  const reports = [['mm', d.minimax], ['ab', d.alphabeta], ['en', d.engine]];
  const max = Math.max(1, ...reports.map(([, r]) => (r && r.nodes) || 0));
  for (const [key, found] of reports) {
    const nodesEl = $(prefix + key + '-nodes');
    if (!nodesEl) continue;
    const r = found || {};
    nodesEl.textContent = fmtInt(r.nodes);
    $(prefix + key + '-time').textContent = fmtUs(r.elapsed_us);
    // Set through the CSSOM, which the page's content policy allows (a style attribute it would not).
    $(prefix + key + '-bar').style.width = typeof r.nodes === 'number' ? Math.max(2, 100 * r.nodes / max) + '%' : '0';
    const depthEl = $(prefix + key + '-depth');
    if (depthEl) depthEl.textContent = depthText(r.depth);
  }
  const mm = d.minimax || {}, ab = d.alphabeta || {}, en = d.engine;
  savedEl.replaceChildren();
  if (mm.nodes > 0 && typeof ab.nodes === 'number') {
    const saved = 100 * (1 - ab.nodes / mm.nodes);
    const same = mm.best_move === ab.best_move && mm.score === ab.score;
    savedEl.append((typeof ab.depth === 'number' && BUDGETED.includes(d.kind) ? 'At depth ' + ab.depth + ', a' : 'A') + 'lpha-beta visited ',
      el('strong', null, saved.toFixed(1) + '% fewer'), ' nodes than minimax' + (same ? ' and found the same answer.' : '.'));
    if (en && typeof en.nodes === 'number') savedEl.append(' ' + engineWords(en));
  } else if (en && typeof en.nodes === 'number') {
    // A game too wide for the plain searches (Gomoku): the engine alone.
    savedEl.textContent = 'Minimax and alpha-beta are not run on a board this wide. ' + engineWords(en);
  } else {
    savedEl.textContent = 'Nothing to search.';
  }
}
