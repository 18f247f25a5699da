// How the page words counts, times and scores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtInt, fmtRate, fmtUs, hintWords, outcomeText, scoreLabel, scoreShort, scoreWords, settledText } from '../format.js';

test('counts, durations and rates', () => {
  assert.equal(fmtInt(1234567), '1,234,567');
  assert.equal(fmtInt(undefined), '—');
  assert.equal(fmtUs(0.5), '<1 µs');
  assert.equal(fmtUs(999), '999 µs');
  assert.equal(fmtUs(1500), '1.50 ms');
  assert.equal(fmtUs(25000), '25.0 ms');
  assert.equal(fmtUs(2500000), '2.50 s');
  assert.equal(fmtRate(5e6, 1e6), '5.0 M/s');
  assert.equal(fmtRate(50000, 1e6), '50 k/s');
  assert.equal(fmtRate(10, 0), '—');
});

test('scores: exact ones with their distance, others with a question mark', () => {
  assert.equal(scoreLabel({ score: 5, plies_to_end: 3 }), 'W3');
  assert.equal(scoreLabel({ score: -5, plies_to_end: 2 }), 'L2');
  assert.equal(scoreLabel({ score: 0, plies_to_end: 9 }), 'D');
  assert.equal(scoreLabel({ score: 0, plies_to_end: null }), 'D?');
  assert.equal(scoreLabel({ score: 3, plies_to_end: 7, exact: false }), 'W?');
  assert.equal(scoreWords({ score: 1, plies_to_end: 1 }, 'cut'), 'win in 1 ply');
  assert.equal(scoreWords({ score: -1, plies_to_end: null }, 'not solved in time'), 'not solved in time, looks lost');
  assert.equal(outcomeText(1, 5, true, 'indigo', 'cut'), 'indigo wins in 5 plies');
  assert.equal(outcomeText(-1, 5, false, 'X', 'beyond the lookahead'), 'X looks losing (beyond the lookahead)');
  assert.equal(hintWords({ exact: true, score: 0 }, 'cut'), 'a draw');
  assert.equal(hintWords({ exact: false, score: 2 }, 'not solved in time'), 'not solved in time');
  assert.equal(scoreShort(1, true, 4), 'win in 4');
  assert.equal(scoreShort(0, false, null), 'open');
});

test('the scoring phase counts the settled moves, of a total when known', () => {
  assert.equal(settledText(0, 7, 'columns'), 'scoring columns: 0 of 7 settled');
  assert.equal(settledText(3, 5, 'columns'), 'scoring columns: 3 of 5 settled');
  assert.equal(settledText(2, null, 'moves'), 'scoring moves: 2 settled');
});
