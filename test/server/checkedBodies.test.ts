/**
 * Large bodies are checked with their operation's schema on the JSON worker (server/jsonWorkerThread.ts):
 * only what the schema keeps comes back to the event loop, and every answer is the one the same body
 * gets when it is small enough to be parsed and checked on the loop.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, request, errorCode, postChunked, type TestServer } from '../support/helpers.ts';
import { codeSeed } from '../support/assetFixtures.ts';
import { JsonParser } from '../../src/server/jsonParse.ts';
import { LIMITS, limitMessage } from '../../src/core/limits.ts';
import { LARGE_BODY_BYTES } from '../../src/server/body.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

/** Past server/body.ts's WORKER_PARSE_FROM (1 MiB): parsed and checked on the worker. */
const LARGE = 2 * 1024 * 1024;

/** `body` with an extra key whose JSON text makes it `LARGE` bytes or more. */
function padded(body: Record<string, unknown>, key = 'padding'): Record<string, unknown> {
  return { ...body, [key]: Array.from({ length: LARGE / 2 }, (_, i) => i % 10) };
}

/** What a client sees of a reply: status and, for an error, its code and message. */
function answerOf(reply: { status: number; json?: { error?: { code?: unknown; message?: unknown } } }): unknown {
  return { status: reply.status, code: reply.json?.error?.code, message: reply.json?.error?.message };
}

test('a large body the schema refuses gets the same 400 as a small one, field and words alike', async () => {
  const invalid: Array<[string, string, Record<string, unknown>]> = [
    ['POST', '/assets/create', { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: 5 } } } } }],
    ['POST', '/assets/create', { type: 'NOT_A_TYPE' }],
    ['POST', '/assets/search', { query: ['compute'] }],
    ['POST', '/assets/search', { query: 'x', filters: { iterable: [{ tags: 'not-a-list' }] } }],
  ];
  for (const [method, path, body] of invalid) {
    const small = await request(t.url, method, path, { body });
    const large = await request(t.url, method, path, { body: padded(body) });
    assert.equal(small.status, 400, `${path} ${small.text.slice(0, 200)}`);
    assert.equal(errorCode(small), errorCode(large));
    assert.deepEqual(answerOf(large), answerOf(small), `${path} ${JSON.stringify(body)}`);
  }
});

test('a large valid body is answered as the small one is, padding or not', async () => {
  const created = await request(t.url, 'POST', '/assets/create?transferables=false', { body: codeSeed('function compute() { return 42; }', 'compute.js') });
  assert.equal(created.status, 200, created.text.slice(0, 200));
  const small = await request(t.url, 'POST', '/assets/search?transferables=false', { body: { query: 'compute' } });
  const large = await request(t.url, 'POST', '/assets/search?transferables=false', { body: padded({ query: 'compute' }) });
  assert.equal(small.status, 200, small.text.slice(0, 200));
  assert.equal(large.status, 200, large.text.slice(0, 200));
  assert.deepEqual(large.json, small.json);
  // A seed keeps keys it does not declare (its schema passes them on): a large one is stored whole.
  const seeded = await request(t.url, 'POST', '/assets/create?transferables=false', { body: padded({ ...codeSeed('const large = 1;', 'large.js') }) });
  assert.equal(seeded.status, 200, seeded.text.slice(0, 200));
});

test('a refusal is thrown where the route reads its body: routes that answer before reading keep their answer', async () => {
  // The connector's `/:application/<verb>` routes refuse an unknown application before reading the body.
  const body = { seed: { type: 'NOT_A_TYPE' } };
  const small = await request(t.url, 'POST', '/no-such-application/suggestion', { body });
  const large = await request(t.url, 'POST', '/no-such-application/suggestion', { body: padded(body) });
  assert.notEqual(small.status, 400, small.text.slice(0, 200));
  assert.deepEqual(answerOf(large), answerOf(small));
});

test('the worker checks with the operation named and sends back only what its schema keeps', async () => {
  const parser = new JsonParser(0);
  try {
    const text = Buffer.from(JSON.stringify(padded({ query: 'compute', casing: true })));
    const searched = await parser.parseFor(text, 'request body', 'assetOperations.search');
    assert.deepEqual(searched, { value: { query: 'compute', casing: true }, checked: { operation: 'assetOperations.search', ok: true } });

    const refused = await parser.parseFor(Buffer.from(JSON.stringify({ query: 7 })), 'request body', 'assetOperations.search');
    assert.equal(refused.value, undefined);
    assert.deepEqual(refused.checked, { operation: 'assetOperations.search', ok: false, code: 'invalid_input', message: 'Invalid AssetsSearchWithFiltersInput at query: Invalid input: expected string, received number' });

    // No operation (a WebSocket frame, an unknown route): parsed only, as before.
    assert.deepEqual(await parser.parseFor(Buffer.from('{"padding":[1,2]}'), 'frame'), { value: { padding: [1, 2] } });
    // Malformed JSON is still malformed JSON, whatever the operation.
    await assert.rejects(parser.parseFor(Buffer.from('{"query":'), 'request body', 'assetOperations.search'), /not valid JSON/);
  } finally {
    parser.dispose();
  }
});

test("a seed over a record limit is refused on the worker with core's own 413, and nothing is stored", async () => {
  // Bytes that are UTF-8 text ("a" each) count as characters: one past the content limit.
  const raw = Array.from({ length: LIMITS.contentChars + 1 }, () => 97);
  const seed = { type: 'SEEDED_ASSET', asset: { format: { fragment: { bytes: { raw } } } } };
  const before = (await request(t.url, 'GET', '/assets/identifiers')).json as { iterable: unknown[] };
  for (const path of ['/assets/create', '/assets/draft']) {
    const reply = await request(t.url, 'POST', path, { body: seed });
    assert.equal(reply.status, 413, `${path} ${reply.text.slice(0, 200)}`);
    assert.deepEqual(answerOf(reply), { status: 413, code: 'too_large', message: limitMessage('contentChars', LIMITS.contentChars + 1) });
  }
  const after = (await request(t.url, 'GET', '/assets/identifiers')).json as { iterable: unknown[] };
  assert.equal(after.iterable.length, before.iterable.length);
  // Core's other first checks give the same answer large or small: an unknown language, no content.
  for (const body of [
    codeSeed('x', 'x', { ext: 'no-such-language' }),
    { type: 'SEEDED_ASSET', asset: { format: {} } },
  ]) {
    const small = await request(t.url, 'POST', '/assets/create', { body });
    const large = await request(t.url, 'POST', '/assets/create', { body: padded(body) });
    assert.equal(small.status, 400, small.text.slice(0, 200));
    assert.deepEqual(answerOf(large), answerOf(small));
  }
  // A draft without an asset is answered with the seed as given, large or small (draftSeed).
  const bare = await request(t.url, 'POST', '/assets/draft', { body: padded({ type: 'SEEDED_ASSET' }) });
  assert.equal(bare.status, 200, bare.text.slice(0, 200));
});

test('the worker refuses an over-limit seed with the limit and sends back nothing of it', async () => {
  const parser = new JsonParser(0);
  try {
    const seed = { type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: 'x'.repeat(LIMITS.contentChars + 5) } } } } };
    const refused = await parser.parseFor(Buffer.from(JSON.stringify(seed)), 'request body', 'assetOperations.create');
    assert.deepEqual(refused, {
      value: undefined,
      checked: { operation: 'assetOperations.create', ok: false, code: 'too_large', message: limitMessage('contentChars', LIMITS.contentChars + 5) },
    });
  } finally {
    parser.dispose();
  }
});

test('the host is told of a large body before it is read, and of no small one', async () => {
  const told: number[] = [];
  const server = await startTestServer({ beforeLargeBody: (bytes) => told.push(bytes) });
  try {
    const small = await request(server.url, 'POST', '/assets/create?transferables=false', { body: codeSeed('const small = 1;', 'small.js') });
    assert.equal(small.status, 200);
    assert.deepEqual(told, []);
    const body = padded({ ...codeSeed('const large = 1;', 'large.js') });
    const large = await request(server.url, 'POST', '/assets/create?transferables=false', { body });
    assert.equal(large.status, 200);
    assert.deepEqual(told, [Buffer.byteLength(JSON.stringify(body))]);
  } finally {
    await server.close();
  }
});

test('a large body of no declared length is told of each time its buffer grows past 1 MiB, and arrives whole', async () => {
  const told: number[] = [];
  const server = await startTestServer({ beforeLargeBody: (bytes) => told.push(bytes) });
  try {
    const text = Buffer.from(JSON.stringify(padded({ ...codeSeed('const chunked = 1;', 'chunked.js') })));
    const third = Math.ceil(text.length / 3);
    const reply = await postChunked(server.url, '/assets/create?transferables=false', text, [third, third]);
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    assert.match(reply.text, /"name":"chunked.js"/);
    assert.match(reply.text, /"bytes":\{"value":18,/, "the code arrived whole (its 18 bytes)");
    assert.ok(told.length >= 2, `told ${told.length} times`);
    assert.ok(told.every((bytes) => bytes > 0));
    const total = told.reduce((sum, bytes) => sum + bytes, 0);
    // The buffer holds the body (what was told plus what it had below 1 MiB) and at most doubles past it.
    assert.ok(total + LARGE_BODY_BYTES >= text.length && total <= 2 * text.length, `told ${total} for ${text.length} bytes`);
  } finally {
    await server.close();
  }
});

