// The service client over a stand-in fetch: the event stream read chunk by
// chunk, JSON answers and errors, and the ways a request can fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { postBestMove, postReview, readEventStream, readJsonAnswer } from '../client.js';

/** A response whose body arrives in these chunks. */
function streamed(chunks, status = 200) {
  const body = new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      controller.close();
    },
  });
  return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream' } });
}

test('progress events are passed on in order and the answer settles the result', async () => {
  const seen = [];
  const res = streamed(['event: progress\ndata: {"depth":1}\n', '\nevent: progress\nda', 'ta: {"depth":2}\n\nevent: ans',
    'wer\ndata: {"best_move":4}\n\n']);
  const r = await readEventStream(res, (p) => seen.push(p.depth));
  assert.deepEqual(seen, [1, 2]);
  assert.deepEqual(r, { ok: true, data: { best_move: 4 } });
});

test('an error event becomes a service error', async () => {
  const r = await readEventStream(streamed(['event: error\ndata: {"error":{"code":"timeout","message":"late"}}\n\n']));
  assert.equal(r.ok, false);
  assert.equal(r.kind, 'service');
  assert.equal(r.message, 'late');
});

test('a stream that ends without an answer is an error, not a hang', async () => {
  const r = await readEventStream(streamed(['event: progress\ndata: {"depth":1}\n\n']), () => {});
  assert.equal(r.ok, false);
  assert.equal(r.kind, 'http');
});

test('JSON answers: success, the service error with Retry-After, and an unreadable error', async () => {
  assert.deepEqual(await readJsonAnswer(new Response('{"best_move":1}', { status: 200 })), { ok: true, data: { best_move: 1 } });
  const busy = await readJsonAnswer(new Response('{"error":{"code":"overloaded","message":"Busy."}}',
    { status: 503, headers: { 'Retry-After': '2' } }));
  assert.equal(busy.kind, 'service');
  assert.equal(busy.message, 'Busy. (try again in 2 s)');
  const html = await readJsonAnswer(new Response('<html>', { status: 502 }));
  assert.equal(html.kind, 'http');
  assert.match(html.message, /502/);
});

test('postBestMove asks for a stream only when it watches the progress', async (t) => {
  const asked = [];
  t.mock.method(globalThis, 'fetch', async (url, init) => {
    asked.push({ url, accept: init.headers.Accept, body: init.body, method: init.method });
    return init.headers.Accept === 'text/event-stream'
      ? streamed(['event: answer\ndata: {"best_move":0}\n\n'])
      : new Response('{"best_move":5}', { headers: { 'Content-Type': 'application/json' } });
  });
  const plain = await postBestMove('{"board":"........."}').promise;
  const watched = await postBestMove('{"game":"connect4"}', { onProgress: () => {} }).promise;
  assert.deepEqual(plain, { ok: true, data: { best_move: 5 } });
  assert.deepEqual(watched, { ok: true, data: { best_move: 0 } });
  assert.deepEqual(asked.map((a) => [a.url, a.method, a.accept]),
    [['/best-move', 'POST', 'application/json'], ['/best-move', 'POST', 'text/event-stream']]);
});

test('a network failure, a cancelled request and a timeout are told apart', async (t) => {
  t.mock.method(globalThis, 'fetch', (url, init) => new Promise((_, reject) => {
    if (init.body === 'fail') reject(new TypeError('connection refused'));
    init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  }));
  assert.equal((await postBestMove('fail').promise).kind, 'network');
  const cancelled = postBestMove('wait');
  cancelled.abort();
  assert.equal((await cancelled.promise).kind, 'aborted');
  const slow = await postBestMove('wait', { timeoutMs: 20 }).promise;
  assert.equal(slow.kind, 'timeout');
});

test('postReview streams a review: each ply passed on as it is judged, the review settles it', async (t) => {
  const asked = [];
  t.mock.method(globalThis, 'fetch', async (url, init) => {
    asked.push({ url, accept: init.headers.Accept });
    return streamed(['event: ply\ndata: {"ply":2,"judgement":"best"}\n\n', 'event: ply\ndata: {"ply":1,"judgement":"mistake"}\n\n',
      'event: review\ndata: {"kind":"review","plies":[]}\n\n']);
  });
  const seen = [];
  const r = await postReview('{"game":"connect4","moves":"44"}', { onProgress: (p) => seen.push(p.ply) }).promise;
  assert.deepEqual(seen, [2, 1]);
  assert.deepEqual(r, { ok: true, data: { kind: 'review', plies: [] } });
  assert.deepEqual(asked, [{ url: '/review', accept: 'text/event-stream' }]);
});
