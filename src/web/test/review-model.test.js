// The review as the page reads it: plies that arrive out of order, the
// first player's winning chance for the graph, the exact stretches, the
// marks of the judgements and each side's tally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ReviewPlies, areaPath, firstChance, firstChanceBefore, glyphOf, graphScale, judgementWords, linePath, markClass, plyTicks,
} from '../review-model.js';

/** A ply as the service reports it, with the fields the page reads. */
const ply = (n, over = {}) => Object.assign({
  ply: n, to_move: n % 2 === 1 ? 'X' : 'O', best_moves: [], exact: true, judgement: 'best', proven: true, forced: false,
  best_win_chance: 1, played_win_chance: 1, accuracy: 100,
}, over);

test('a chance is the first player\'s: O\'s chance is turned around', () => {
  assert.equal(firstChance(ply(1, { played_win_chance: 0.75 })), 0.75);
  assert.equal(firstChance(ply(2, { played_win_chance: 0.75 })), 0.25);
  assert.equal(firstChanceBefore(ply(2, { best_win_chance: 0.9 })), 0.09999999999999998);
  assert.equal(firstChance(ply(1, { played_win_chance: null })), null);
  assert.equal(firstChance(null), null);
});

test('plies arriving from the end backwards are put in the game\'s order, each once', () => {
  const plies = new ReviewPlies(4);
  for (const n of [4, 3, 1, 2, 3]) assert.equal(plies.add(ply(n)), true);
  assert.equal(plies.add(ply(5)), false, 'not a ply of the game');
  assert.equal(plies.add({ ply: 'x' }), false);
  assert.deepEqual(plies.list().map((p) => p.ply), [1, 2, 3, 4]);
  assert.equal(plies.size, 4);
});

test('the graph\'s points start before the first move and run on where the plies follow each other', () => {
  const plies = new ReviewPlies(6);
  plies.add(ply(6, { played_win_chance: 1 }));
  plies.add(ply(5, { played_win_chance: 0, exact: false }));
  plies.add(ply(2, { played_win_chance: 0.5 }));
  // Ply 1 not judged yet: no start point, and 2 stands alone.
  assert.deepEqual(plies.runs().map((r) => r.map((pt) => pt.ply)), [[2], [5, 6]]);
  plies.add(ply(1, { best_win_chance: 0.6, played_win_chance: 0.6 }));
  const pts = plies.points();
  assert.deepEqual(pts.map((pt) => [pt.ply, pt.chance]), [[0, 0.6], [1, 0.6], [2, 0.5], [5, 0], [6, 0]]);
  assert.deepEqual(plies.runs().map((r) => r.map((pt) => pt.ply)), [[0, 1, 2], [5, 6]]);
  assert.equal(pts.find((pt) => pt.ply === 5).exact, false);
});

test('a pass is stepped over: the line runs on across it, the exact stretch too', () => {
  const plies = new ReviewPlies(5, [3]);
  assert.equal(plies.judged, 4);
  for (const n of [1, 2, 4, 5]) plies.add(ply(n));
  assert.deepEqual(plies.runs().map((r) => r.map((pt) => pt.ply)), [[0, 1, 2, 4, 5]]);
  assert.deepEqual(plies.exactSpans(), [[0, 5]]);
});

test('the exact stretches are the runs of exact plies', () => {
  const plies = new ReviewPlies(6);
  for (const n of [1, 2, 3, 4, 5, 6]) plies.add(ply(n, { exact: n !== 3 && n !== 4 }));
  assert.deepEqual(plies.exactSpans(), [[0, 2], [4, 6]]);
});

test('each side\'s tally counts its judgements, its accuracy leaves out the only moves', () => {
  const plies = new ReviewPlies(5);
  plies.add(ply(1, { judgement: 'best', accuracy: 100 }));
  plies.add(ply(3, { judgement: 'blunder', accuracy: 20 }));
  plies.add(ply(5, { judgement: 'best', accuracy: 100, forced: true }));
  plies.add(ply(2, { judgement: null, accuracy: null }));
  const sides = plies.sides();
  assert.deepEqual(sides.X, { moves: 3, best: 2, good: 0, inaccuracy: 0, mistake: 0, blunder: 1, accuracy: 60 });
  assert.deepEqual(sides.O, { moves: 1, best: 0, good: 0, inaccuracy: 0, mistake: 0, blunder: 0, accuracy: null });
});

test('the marks of the judgements', () => {
  assert.equal(glyphOf(ply(1, { judgement: 'inaccuracy' })), '?!');
  assert.equal(glyphOf(ply(1, { judgement: 'mistake' })), '?');
  assert.equal(glyphOf(ply(1, { judgement: 'blunder' })), '??');
  assert.equal(glyphOf(ply(1, { judgement: 'best' })), '');
  assert.equal(glyphOf(ply(1, { forced: true })), '\u25a1');
  assert.equal(glyphOf(null), '');
  assert.equal(markClass(ply(1, { judgement: 'mistake' })), 'j-mistake');
  assert.equal(markClass(ply(1, { judgement: null })), 'j-none');
  assert.equal(markClass(null), 'j-pending');
  assert.equal(judgementWords(ply(1, { judgement: 'blunder' })), 'blunder (proven)');
  assert.equal(judgementWords(ply(1, { judgement: 'mistake', proven: false })), 'mistake (from estimates)');
  assert.equal(judgementWords(ply(1, { forced: true })), 'only move');
  assert.equal(judgementWords(ply(1, { judgement: null })), 'not judged in time');
});

test('the graph\'s scale: plies across, the chance up, a click read back as a ply', () => {
  const sc = graphScale(10, { width: 140, height: 120, left: 20, right: 20, top: 10, bottom: 10 });
  assert.equal(sc.x(0), 20);
  assert.equal(sc.x(10), 120);
  assert.equal(sc.y(1), 10);
  assert.equal(sc.y(0), 110);
  assert.equal(sc.plyAt(72), 5);
  assert.equal(sc.plyAt(0), 1);
  assert.equal(sc.plyAt(500), 10);
  const run = [{ ply: 0, chance: 0.5 }, { ply: 10, chance: 1 }];
  assert.equal(linePath(run, sc), 'M20.00 60.00 L120.00 10.00');
  assert.equal(areaPath(run, sc), 'M20.00 60.00 L20.00 60.00 L120.00 10.00 L120.00 60.00 Z');
});

test('the ply ticks are round numbers', () => {
  assert.deepEqual(plyTicks(8), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(plyTicks(42), [10, 20, 30, 40]);
  assert.deepEqual(plyTicks(12), [2, 4, 6, 8, 10, 12]);
  assert.deepEqual(plyTicks(0), []);
});
