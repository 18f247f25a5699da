// The tree explorer: any JSON game tree, searched by minimax and
// alpha-beta. The text goes into the request as written, so the service
// does all the validation and its own error message is shown.

import { $, el } from './dom.js';
import { postBestMove } from './client.js';
import { fillCompare, fillPv } from './analysis.js';

const SHOWN_MOVES = 40;
const moveName = (idx, name) => (name ? idx + ' (' + name + ')' : String(idx));

export function treeExplorer() {
  let treeRequest = null;

  function submit() {
    const text = $('tree-input').value;
    const maximizing = $('tree-maximizing').checked;
    const body = '{"tree": ' + text + ', "maximizing": ' + (maximizing ? 'true' : 'false') + '}';
    $('tree-body').textContent = body;
    $('tree-request').hidden = false;
    const result = $('tree-result');
    const errorEl = $('tree-error');
    const btn = $('tree-submit');
    if (treeRequest) treeRequest.abort();
    errorEl.replaceChildren();
    result.setAttribute('aria-busy', 'true');
    btn.disabled = true;
    const original = 'Find best move';
    const req = postBestMove(body, { onSlow: () => { if (treeRequest === req) btn.textContent = 'Thinking…'; } });
    treeRequest = req;
    req.promise.then((r) => {
      if (treeRequest !== req) return;
      treeRequest = null;
      btn.disabled = false;
      btn.textContent = original;
      result.removeAttribute('aria-busy');
      if (!r.ok) {
        if (r.kind === 'aborted') return;
        result.dataset.state = result.dataset.state === 'idle' ? 'idle' : 'error';
        if (r.kind === 'service') {
          errorEl.append(el('strong', null, r.error.message));
          const meta = [];
          if (r.error.field) meta.push('field: ' + r.error.field);
          if (r.error.code) meta.push(r.error.code);
          if (meta.length) errorEl.append(' ', el('span', { class: 'code' }, '(' + meta.join(' · ') + ')'));
        } else {
          errorEl.append(el('strong', null, r.message));
        }
        return;
      }
      show(r.data);
    });
  }

  function show(d) {
    $('tree-result').dataset.state = 'ok';
    $('tree-placeholder').hidden = true;
    $('tree-best').textContent = d.best_move === null || d.best_move === undefined
      ? 'none (the root is a leaf)'
      : moveName(d.best_move, d.best_move_name);
    $('tree-score').textContent = String(d.score);
    fillPv($('tree-pv'), d.principal_variation, (m) => ({ text: String(m) }));
    const list = $('tree-children');
    list.replaceChildren();
    const moves = Array.isArray(d.moves) ? d.moves : [];
    const scores = moves.map((m) => m.score).filter((s) => typeof s === 'number');
    const lo = Math.min(0, ...scores), hi = Math.max(0, ...scores);
    const span = hi - lo || 1;
    moves.slice(0, SHOWN_MOVES).forEach((m) => {
      const li = el('li', m.move === d.best_move ? { class: 'best' } : null);
      li.appendChild(el('span', { class: 'lbl' }, 'move ' + moveName(m.move, m.name)));
      const bar = el('div', { class: 'bar ' + (m.move === d.best_move ? 'ab' : 'mm'), 'aria-hidden': 'true' });
      const fill = el('span');
      fill.style.width = Math.max(3, 100 * (m.score - lo) / span) + '%';
      bar.appendChild(fill);
      li.appendChild(bar);
      li.appendChild(el('span', { class: 'val' }, String(m.score)));
      list.appendChild(li);
    });
    if (moves.length > SHOWN_MOVES) list.appendChild(el('li', null, '… ' + (moves.length - SHOWN_MOVES) + ' more moves'));
    fillCompare('tree-', d, $('tree-saved'));
  }

  $('tree-submit').addEventListener('click', submit);
  $('tree-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); submit(); }
  });
  document.querySelectorAll('[data-example]').forEach((b) => b.addEventListener('click', () => {
    $('tree-input').value = b.dataset.example;
    $('tree-input').focus();
  }));
}
