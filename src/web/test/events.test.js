// The event-stream parser: framing, comments, multi-line data, events split
// anywhere across chunks, and what each event of a search's stream means.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventStreamParser, readEvent, readReviewEvent } from '../events.js';

const all = (chunks) => {
  const p = new EventStreamParser();
  const events = chunks.flatMap((c) => p.push(c));
  return events.concat(p.end());
};

test('one event with a name and data', () => {
  assert.deepEqual(all(['event: answer\ndata: {"a":1}\n\n']), [{ event: 'answer', data: '{"a":1}' }]);
});

test('an event without a name is a message; without data it is not dispatched', () => {
  assert.deepEqual(all(['data: x\n\nevent: progress\n\n']), [{ event: 'message', data: 'x' }]);
});

test('several data lines join with newlines', () => {
  assert.deepEqual(all(['event: e\ndata: one\ndata:two\ndata\ndata:  three\n\n']), [{ event: 'e', data: 'one\ntwo\n\n three' }]);
});

test('comments are skipped, even between the fields of an event', () => {
  assert.deepEqual(all([': keep-alive\n\nevent: e\n: a comment\ndata: 1\n\n:\n\n']), [{ event: 'e', data: '1' }]);
});

test('unknown fields, id and retry are ignored', () => {
  assert.deepEqual(all(['id: 7\nretry: 100\nfoo: bar\ndata: 2\n\n']), [{ event: 'message', data: '2' }]);
});

test('the same stream split at every byte gives the same events', () => {
  const text = 'event: progress\ndata: {"depth":1}\n\n: comment\r\nevent: answer\r\ndata: {"best_move":3,\r\ndata: "x":"é"}\r\n\r\n';
  const whole = all([text]);
  assert.equal(whole.length, 2);
  assert.deepEqual(whole[1], { event: 'answer', data: '{"best_move":3,\n"x":"é"}' });
  for (let i = 1; i < text.length; i++) {
    assert.deepEqual(all([text.slice(0, i), text.slice(i)]), whole, 'split at ' + i);
  }
  assert.deepEqual(all([...text]), whole, 'one character per chunk');
});

test('bytes split inside a multi-byte character decode correctly', () => {
  const bytes = new TextEncoder().encode('data: "é→ü"\n\n');
  for (let i = 1; i < bytes.length; i++) {
    assert.deepEqual(all([bytes.slice(0, i), bytes.slice(i)]), [{ event: 'message', data: '"é→ü"' }], 'split at byte ' + i);
  }
});

test('CR, LF and CRLF all end lines, and a CR at the end of a chunk waits for a possible LF', () => {
  assert.deepEqual(all(['data: a\rdata: b\r\r']), [{ event: 'message', data: 'a\nb' }]);
  assert.deepEqual(all(['data: a\r', '\ndata: b\r', '\n\r', '\n']), [{ event: 'message', data: 'a\nb' }]);
  // Were the CR taken as a line end and the LF as a blank line, "a" would be dispatched alone.
  const p = new EventStreamParser();
  assert.deepEqual(p.push('data: a\r'), []);
  assert.deepEqual(p.push('\ndata: b\n'), []);
  assert.deepEqual(p.push('\n'), [{ event: 'message', data: 'a\nb' }]);
});

test('a byte order mark at the start is dropped', () => {
  assert.deepEqual(all(['\ufeffdata: 1\n\n']), [{ event: 'message', data: '1' }]);
});

test('an event not ended by a blank line is dropped at the end of the stream', () => {
  assert.deepEqual(all(['data: 1\n\ndata: 2\n']), [{ event: 'message', data: '1' }]);
});

test('the events of a search stream: progress, a settled column, answer, error', () => {
  assert.deepEqual(readEvent({ event: 'progress', data: '{"depth":3}' }, 200), { progress: { depth: 3 } });
  assert.deepEqual(readEvent({ event: 'move', data: '{"move":3,"score":1}' }, 200),
    { progress: { scored: { move: 3, score: 1 } } });
  assert.deepEqual(readEvent({ event: 'answer', data: '{"best_move":2}' }, 200), { outcome: { ok: true, data: { best_move: 2 } } });
  const error = { code: 'timeout', message: 'too slow' };
  assert.deepEqual(readEvent({ event: 'error', data: JSON.stringify({ error }) }, 200),
    { outcome: { ok: false, kind: 'service', status: 200, error, message: 'too slow' } });
  assert.equal(readEvent({ event: 'answer', data: 'not json' }, 200), null);
  assert.equal(readEvent({ event: 'message', data: '{}' }, 200), null);
  assert.equal(readEvent({ event: 'error', data: '{"no":"error"}' }, 200), null);
});

test('a review\'s events: a ply is a report, the review the result, an answer event means nothing', () => {
  assert.deepEqual(readReviewEvent({ event: 'ply', data: '{"ply":3}' }, 200), { progress: { ply: 3 } });
  assert.deepEqual(readReviewEvent({ event: 'review', data: '{"kind":"review"}' }, 200), { outcome: { ok: true, data: { kind: 'review' } } });
  const error = { code: 'timeout', message: 'late' };
  assert.equal(readReviewEvent({ event: 'error', data: JSON.stringify({ error }) }, 200).outcome.message, 'late');
  assert.equal(readReviewEvent({ event: 'answer', data: '{"best_move":2}' }, 200), null);
  assert.equal(readReviewEvent({ event: 'progress', data: '{"depth":1}' }, 200), null);
});
