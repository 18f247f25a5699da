// The few DOM helpers every module of the page uses.

export const $ = (id) => document.getElementById(id);

/** A new element with attributes and, optionally, text. */
export function el(tag, attrs, text) {
  const e = document.createElement(tag);
  if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A new SVG element with attributes. */
export function svgEl(tag, attrs) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, attrs[k]);
  return e;
}

/** Keyboard moves on a square board of buttons: the arrows (wrapping around), Home and End move the
 *  focus between `cells()`, a board of `size()` columns, row after row. */
export function gridKeys(boardEl, cells, size) {
  boardEl.addEventListener('keydown', (e) => {
    const all = cells(), n = size();
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const r = Math.floor(i / n), c = i % n;
    const to = {
      ArrowLeft: [r, (c + n - 1) % n], ArrowRight: [r, (c + 1) % n],
      ArrowUp: [(r + n - 1) % n, c], ArrowDown: [(r + 1) % n, c],
      Home: [r, 0], End: [r, n - 1],
    }[e.key];
    if (!to) return;
    e.preventDefault();
    all[to[0] * n + to[1]].focus();
  });
}
