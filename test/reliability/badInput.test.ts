/**
 * Bad input, generated: every route of the interface gets malformed requests (wrong types, missing
 * fields, huge strings, deep nesting, invalid UTF-8, bogus ids, wrong content types and methods,
 * oversized and truncated bodies). The server never crashes, never answers 5xx (except the
 * interface's own search case), answers every refusal with one JSON error, and a refused request
 * leaves the store byte-for-byte as it was.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../support/helpers.ts';
import { allRoutes, fillPath, type Route } from './routes.ts';
import { figures, jsonErrorCode, raw, rawBytes, storeDigest, type RawReply } from './support.ts';
import { APPLICATION, seed } from './writes.ts';
import { ENCODER_ID } from '../../src/core/models/catalog.ts';

const BODY_LIMIT = 256 * 1024;
const RUNS = Number(process.env.SATCHEL_BAD_INPUT_RUNS ?? 2500);
const TIME_LIMIT_MS = 30_000;

/**
 * Huge values are generated as this marker and expanded only when sent, so a counterexample that
 * fast-check prints stays readable.
 */
const HUGE = '<HUGE>';
const expand = (text: string): string => text.replaceAll(HUGE, 'x'.repeat(60_000)).replaceAll(encodeURIComponent(HUGE), 'q'.repeat(4_000));

let t: TestServer;
/**
 * Ids that exist, per path parameter name, so generated requests also reach the code behind a
 * successful lookup. Filled through the API in `before`.
 */
const known: Record<string, string[]> = {};
const templates: Record<string, unknown> = {};

async function postJson(path: string, value: unknown): Promise<{ id?: string } & Record<string, unknown>> {
  const reply = await raw(t.server.port, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
  assert.equal(reply.status, 200, `${path}: ${reply.text.slice(0, 300)}`);
  return reply.json as { id?: string };
}

async function idsFrom(path: string): Promise<string[]> {
  const reply = await raw(t.server.port, { path });
  const iterable = (reply.json as { iterable?: Array<{ id?: unknown }> } | undefined)?.iterable ?? [];
  return iterable.map((entry) => entry.id).filter((id): id is string => typeof id === 'string').slice(0, 4);
}

before(async () => {
  // Catalog downloads the generator may start go to a closed loopback port, never the internet.
  t = await startTestServer({ bodyLimit: BODY_LIMIT, models: { catalogBaseUrl: 'http://127.0.0.1:9/', retryBackoffMs: 10 } });
  const assets = [];
  for (const text of ['const a = 1;\nconsole.log(a + 1);', 'def b():\n    return [x * 2 for x in range(10)]', 'Notes about the release: remember to tag it and write the changelog.']) assets.push(await postJson('/assets/create', seed(text)));
  known.asset = assets.map((a) => a.id!);
  known.tag = [(await postJson('/tags/create', { text: 'badinput', asset: known.asset[0] })).id!];
  known.website = [(await postJson('/websites/create', { url: 'https://example.com/x', name: 'x', asset: known.asset[0] })).id!];
  known.conversation = [(await postJson('/conversations/create', { type: 'COPILOT', name: 'c', application: APPLICATION })).id!];
  // Not the built-in encoder: an accepted load would start a 250 MB process whose back-fill writes
  // vectors in the background while later refusals are checked.
  known.model = (await idsFrom('/models')).filter((id) => id !== ENCODER_ID);
  known.application = [APPLICATION.id, ...(await idsFrom('/applications'))];
  known.format = await idsFrom('/formats');
  // Near misses of a real asset and format exercise the update paths' validation.
  templates['/asset/update'] = assets[1];
  templates['/format/update/value'] = (assets[2]!.formats as { iterable: unknown[] }).iterable[0];
});
after(() => t.close());

// ---- generators ------------------------------------------------------------------------------

const bogusId = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('..', '.', '%', '%00', '%FF%FE', '%2F..%2F', 'null', 'undefined', '0', '-1', '1e309', ' ', '\u0000', '😀', HUGE),
);

/** A value for the path parameter `name`: an existing id of its kind (or of another), or anything at all. */
function paramValue(name: string): fc.Arbitrary<string> {
  const own = known[name] ?? [];
  const others = Object.values(known).flat();
  return fc.oneof(
    { weight: own.length > 0 ? 3 : 0, arbitrary: own.length > 0 ? fc.constantFrom(...own) : bogusId },
    { weight: 1, arbitrary: fc.constantFrom(...others) },
    { weight: 3, arbitrary: bogusId },
  );
}

const deepJson = fc.record({ depth: fc.integer({ min: 500, max: 20_000 }), open: fc.constantFrom('[', '{"a":') });

/** Replaces, removes or retypes parts of a valid body, so validation sees near misses. */
function mutations(template: unknown): fc.Arbitrary<unknown> {
  const leaves: string[][] = [];
  const walk = (value: unknown, path: string[]): void => {
    leaves.push(path);
    if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
    }
  };
  walk(template, []);
  const weird = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(null, true, -1, 1e308, '', [], {}, HUGE, '\uD800', '\u0000'),
  );
  return fc.tuple(fc.constantFrom(...leaves), weird, fc.boolean()).map(([path, value, remove]) => {
    const copy = structuredClone(template) as Record<string, unknown>;
    if (path.length === 0) return value;
    let parent: Record<string, unknown> = copy;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    const last = path.at(-1)!;
    if (remove) delete parent[last];
    else parent[last] = value;
    return copy;
  });
}

/** Valid bodies per route, where the area defines one; near misses are generated from them. */
Object.assign(templates, {
  '/assets/create': seed('const x = 1;'),
  '/assets/draft': seed('def f(): pass'),
  '/assets/search': { query: 'x', filters: { iterable: [{ classification: 'ts' }], type: 'AND' } },
  '/asset/reclassify': { asset: { id: 'x' }, ext: 'py' },
  '/asset/:asset/scores/increment': { asset: { id: 'x' }, score: { manual: 1 } },
  '/connect': { application: APPLICATION },
  '/applications/register': APPLICATION,
  '/models/create': { version: '1', name: 'm', foundation: 'LLAMA_3_8B', unique: 'u', cpu: true, type: 'GEN_AI', usage: 'OCR' },
  '/tags/create': { text: 'tag', category: 'UNKNOWN' },
  '/websites/create': { url: 'https://example.com', name: 'example' },
  '/conversations/create': { type: 'COPILOT', name: 'c', application: APPLICATION },
  '/messages/create': { role: 'USER', fragment: { string: { raw: 'hi' } }, conversation: { id: 'x' } },
});

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'deep'; depth: number; open: string };

function bodyFor(template: string): fc.Arbitrary<Body> {
  const options: Array<fc.Arbitrary<Body>> = [
    fc.constant<Body>({ kind: 'none' }),
    fc.jsonValue({ maxDepth: 4 }).map((value): Body => ({ kind: 'json', value })),
    fc.string({ maxLength: 200 }).map((text): Body => ({ kind: 'text', text })),
    deepJson.map(({ depth, open }): Body => ({ kind: 'deep', depth, open })),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes): Body => ({ kind: 'bytes', bytes: Uint8Array.from([0x22, ...bytes, 0x22]) })),
    fc.constantFrom('{"a":', '[1,2', '"unterminated', '{"a":1}}', 'nul', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}').map(
      (text): Body => ({ kind: 'text', text }),
    ),
    fc.constant<Body>({ kind: 'json', value: { value: HUGE, iterable: [HUGE, HUGE] } }),
  ];
  const valid = templates[template];
  if (valid !== undefined) options.push(mutations(valid).map((value): Body => ({ kind: 'json', value })), mutations(valid).map((value): Body => ({ kind: 'json', value })));
  return fc.oneof(...options);
}

const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/vnd.x+json', '', 'multipart/form-data; boundary=x', 'application/octet-stream') },
);

const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom('transferables', 'pseudo', 'query', 'searchable_tags', 'searchableTags', 'suggested', 'export_type', 'exportType', 'x'),
      fc.oneof(fc.constantFrom('true', 'false', '', '1', 'yes', 'null'), fc.string({ maxLength: 30 }), fc.constant(HUGE)),
      { maxKeys: 3 },
    )
    .map((entries) => '?' + new URLSearchParams(entries).toString()),
);

const paramNames = (template: string): string[] => [...template.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);

interface Generated {
  readonly method: string;
  readonly template: string;
  readonly path: string;
  readonly type: string;
  readonly body: Body;
}

const requestArb = (routes: readonly Route[], streams: readonly string[]): fc.Arbitrary<Generated> => fc
  .constantFrom(...routes.map((r) => ({ method: r.method as string, template: r.path })), ...streams.map((path) => ({ method: 'GET', template: path })))
  .chain(({ method, template }) =>
    fc.record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD') }),
      template: fc.constant(template),
      path: fc.tuple(fc.tuple(...paramNames(template).map(paramValue)), query).map(([values, q]) => {
        let i = 0;
        return fillPath(template, () => values[i++]!) + q;
      }),
      type: contentType,
      body: bodyFor(template),
    }),
  );

function encode(body: Body): Buffer | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json':
      return Buffer.from(expand(JSON.stringify(body.value) ?? 'null'));
    case 'text':
      return Buffer.from(expand(body.text));
    case 'bytes':
      return Buffer.from(body.bytes);
    case 'deep':
      return Buffer.from(body.open.repeat(body.depth) + '1' + (body.open === '[' ? ']' : '}').repeat(body.depth));
  }
}

// ---- the property --------------------------------------------------------------------------

/**
 * Tables whose rows move on by themselves after an earlier, accepted request: `models` while a
 * download it started fails and retries, and the secrets scan's bookkeeping (what is pending, what
 * was scanned, what it found) while the background scan reads the snippets that request wrote. The
 * user's own secret choices (dismissed values, included snippets, settings) stay in the digest.
 */
const BACKGROUND_TABLES = new Set(['models', 'secret_pending', 'secret_scans', 'secret_findings']);

/** The store digest without the tables background work changes on its own. */
const requestDigest = (db: Parameters<typeof storeDigest>[0]): string =>
  storeDigest(db)
    .split('\n')
    .filter((line) => !BACKGROUND_TABLES.has(line.slice(0, line.indexOf(':'))))
    .join('\n');

/** The one 5xx the interface itself specifies: GET /assets/search with neither query nor tags. */
function allowed5xx(request: Generated, reply: RawReply): boolean {
  if (request.template !== '/assets/search' || reply.status !== 500) return false;
  // HEAD is GET without a body, so it carries the same status and no error to read.
  return request.method === 'HEAD' || (request.method === 'GET' && jsonErrorCode(reply) === 'search_unspecified');
}

test('generated malformed requests on every route: no crash, no 5xx, a JSON error each time, nothing written by a refusal', async () => {
  const db = t.core.context.database.db;
  const statuses = new Map<number, number>();
  /** One example per (kind of violation, route), so one run reports every broken route, not just the first. */
  const violations = new Map<string, string>();
  let tried = 0;
  let refused = 0;
  const started = Date.now();
  const { routes, streams } = allRoutes(t.core);
  await fc.check(
    fc.asyncProperty(requestArb(routes, streams), async (request) => {
      if (Date.now() - started > TIME_LIMIT_MS) return;
      const before = requestDigest(db);
      const body = encode(request.body);
      const route = `${request.method} ${request.template}`;
      let reply: RawReply;
      try {
        reply = await raw(t.server.port, {
          method: request.method,
          path: expand(request.path),
          headers: request.type ? { 'content-type': request.type } : {},
          ...(body !== undefined ? { body } : {}),
        });
      } catch (error) {
        violations.set(`no answer: ${route}`, `${(error as Error).message} to ${request.path.slice(0, 200)}`);
        return;
      }
      tried++;
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      const where = `${request.method} ${request.path.slice(0, 160)} (${request.type}, ${request.body.kind}) → ${reply.status} ${reply.text.slice(0, 160)}`;
      if (reply.status >= 500 && !allowed5xx(request, reply)) violations.set(`5xx: ${route}`, where);
      if (reply.status >= 400) {
        refused++;
        if (request.method !== 'HEAD' && !jsonErrorCode(reply)) violations.set(`not a JSON error: ${route}`, where);
        const after = requestDigest(db);
        if (after !== before) {
          const changed = after.split('\n').filter((line) => !before.includes(line)).map((line) => line.split(':')[0]);
          violations.set(`refusal wrote to the store: ${route}`, `${where} (tables ${changed.join(',')})`);
        }
      }
    }),
    { numRuns: RUNS },
  );
  // The server is still there and still healthy.
  assert.equal((await raw(t.server.port, { path: '/.well-known/health' })).status, 200);
  assert.equal(t.core.context.database.integrityCheck(), 'ok');
  const histogram = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}:${n}`).join(',');
  figures('bad-input.generated', { routes: routes.length + streams.length, requests: tried, refused, violations: violations.size, statuses: histogram });
  const report = [...violations].map(([what, example]) => `${what}\n    e.g. ${example}`).join('\n');
  assert.equal(violations.size, 0, `violations:\n${report}`);
  assert.ok(tried >= Math.min(RUNS, 200), `only ${tried} requests were tried`);
});

test('oversized, truncated and malformed HTTP requests are refused and the server keeps answering', async () => {
  const db = t.core.context.database.db;
  const before = requestDigest(db);
  let tried = 0;
  const writeRoutes = allRoutes(t.core).routes.filter((route) => route.method === 'POST').map((route) => fillPath(route.path, () => 'tag-0'));
  for (const path of writeRoutes) {
    // Oversized: declared up front, and streamed without a length.
    const big = Buffer.alloc(BODY_LIMIT + 1, 0x20);
    big[0] = 0x22;
    const declared = await raw(t.server.port, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: big });
    assert.equal(declared.status, 413, `${path}: ${declared.text}`);
    assert.equal(jsonErrorCode(declared), 'too_large');
    const chunked = await rawBytes(
      t.server.port,
      Buffer.concat([
        Buffer.from(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`),
        Buffer.from(`${(BODY_LIMIT + 10).toString(16)}\r\n`),
        Buffer.alloc(BODY_LIMIT + 10, 0x31),
        Buffer.from('\r\n0\r\n\r\n'),
      ]),
    );
    assert.equal(chunked.status, 413, `${path} chunked: ${chunked.text}`);
    // Truncated: the declared length is never sent; the client gives up (half-close).
    const truncated = await rawBytes(
      t.server.port,
      Buffer.from(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"asset":{"id":"`),
    );
    assert.ok(truncated.status === 0 || (truncated.status >= 400 && truncated.status < 500), `${path} truncated: ${truncated.status}`);
    tried += 3;
  }
  const malformed = [
    'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcde',
    'POST /assets/create HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
    'GET /\u0000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    'BREW /coffee HTCPCP/1.0\r\n\r\n',
    `GET /${'a'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(100_000)}\r\n\r\n`,
  ];
  for (const text of malformed) {
    const reply = await rawBytes(t.server.port, Buffer.from(text, 'latin1'));
    assert.ok(reply.status === 0 || (reply.status >= 400 && reply.status < 500), `${JSON.stringify(text.slice(0, 60))} → ${reply.status}`);
    tried++;
  }
  assert.equal((await raw(t.server.port, { path: '/.well-known/health' })).status, 200);
  assert.equal(requestDigest(db), before);
  figures('bad-input.transport', { requests: tried, accepted: 0 });
});

test('a request head larger than the HTTP limit gets 431 with the one JSON error shape', async () => {
  // Such requests never reach Koa (Node's parser refuses them), so the server's clientError
  // handler answers; it must still say what was wrong in the shape every client parses.
  const longUrl = await raw(t.server.port, { path: `/assets/search?query=${'q'.repeat(20_000)}` });
  const bigHeader = await raw(t.server.port, { path: '/.well-known/health', headers: { 'x-filler': 'h'.repeat(20_000) } });
  assert.equal((await raw(t.server.port, { path: '/.well-known/health' })).status, 200);
  for (const [what, reply] of [['a 20 KB URL', longUrl], ['a 20 KB header', bigHeader]] as const) {
    assert.equal(reply.status, 431, `${what} got ${reply.status}`);
    assert.ok(jsonErrorCode(reply), `${what} got a non-JSON answer: ${JSON.stringify(reply.text)}`);
  }
});

test('valid seeds with unusual content are stored and read back exactly', async () => {
  // The other side of bad input: content that is odd but legal (tiny, empty, binary-looking,
  // any Unicode, long lines) must be accepted and come back byte-for-byte.
  const content = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom('', ' ', '\n', '#', '# notes\nsome text', '\u0000', 'a', '😀', '\r\n\r\n', 'x'.repeat(200_000)),
    fc.array(fc.constantFrom('if', '(', ')', '{', '}', ';', 'x', '=', '1', '\n', ' '), { maxLength: 400 }).map((parts) => parts.join('')),
  );
  let tried = 0;
  const result = await fc.check(
    fc.asyncProperty(content, async (text) => {
      tried++;
      const reply = await raw(t.server.port, {
        method: 'POST',
        path: '/assets/create',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(seed(text)),
      });
      assert.equal(reply.status, 200, `create of ${JSON.stringify(text.slice(0, 60))} (${text.length} chars) → ${reply.status} ${reply.text.slice(0, 200)}`);
      const id = (reply.json as { id: string }).id;
      const back = await raw(t.server.port, { path: `/asset/${id}` });
      const raw0 = (back.json as { formats: { iterable: Array<{ fragment?: { string?: { raw?: string } } }> } }).formats.iterable[0]?.fragment?.string?.raw;
      assert.equal(raw0, text, 'the content changed on the way through the store');
    }),
    { numRuns: 150, endOnFailure: true, examples: [['# notes\nsome text'], [''], ['x']] },
  );
  figures('bad-input.odd-content', { creates: tried, failed: result.failed ? 1 : 0 });
  if (result.failed) {
    assert.fail(`${(result.errorInstance as Error | undefined)?.message}\ncounterexample: ${fc.stringify(result.counterexample)}`);
  }
});

test('a write with an invalid query parameter is refused before anything is written', async () => {
  // Deterministic companion of the generated test: each write route, given a valid body and known
  // ids, but an invalid transferables/pseudo value. Refused or not, a refusal must write nothing.
  const db = t.core.context.database.db;
  const { routes } = allRoutes(t.core);
  const problems: string[] = [];
  let tried = 0;
  for (const route of routes) {
    if (route.method !== 'POST') continue;
    const template = templates[route.path];
    if (route.body && template === undefined) continue;
    const names = paramNames(route.path);
    if (names.some((name) => !known[name]?.length)) continue;
    let i = 0;
    const path = fillPath(route.path, () => known[names[i++]!]![0]!);
    for (const query of ['?transferables=maybe', '?pseudo=maybe&transferables=2', '?transferable=maybe']) {
      const before = requestDigest(db);
      const reply = await raw(t.server.port, {
        method: 'POST',
        path: path + query,
        ...(template !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(template) } : {}),
      });
      tried++;
      if (reply.status >= 400 && requestDigest(db) !== before) problems.push(`POST ${route.path}${query} → ${reply.status} ${jsonErrorCode(reply)}, yet the store changed`);
      if (reply.status >= 500) problems.push(`POST ${route.path}${query} → ${reply.status}`);
    }
  }
  figures('bad-input.query-before-write', { requests: tried, problems: problems.length });
  assert.ok(tried > 10);
  assert.deepEqual(problems, []);
});
