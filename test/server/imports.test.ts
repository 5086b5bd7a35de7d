/** POST /satchel/import through a real host: fixtures, duplicates on re-run, stream subscribers, cancellation, bad input. */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { startTestServer, request, waitFor, type TestServer } from '../support/helpers.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import type { ImportFile } from '../../src/client/imports.ts';
import { parseImportFile } from '../../src/core/import/detect.ts';
import { importFileFromBytes } from '../../src/core/import/importTree.ts';
import type { Logger } from '../../src/core/context.ts';
import { SPOOL_FOLDER } from '../../src/core/import/importSpool.ts';

const NAMES = ['web.code-snippets', 'python.json', 'massCode-db.json', 'pieces-assets.json', 'gist.json', 'unknown.json'];
const fixtures = (names: readonly string[] = NAMES): ImportFile[] =>
  names.map((name) => ({ name, read: async () => ({ name, content: readFileSync(new URL(`../fixtures/import/${name}`, import.meta.url), 'utf8') }) }));

let h: TestServer;
let client: SatchelClient;
before(async () => {
  h = await startTestServer();
  client = new SatchelClient(h.url);
});
after(async () => {
  client.dispose();
  await h.close();
});

test('every format imports through the host, stream subscribers hear of each asset, a re-run skips all', async () => {
  const ws = new WebSocket(`${h.url.replace('http', 'ws')}/assets/stream/identifiers`);
  const heard = new Set<string>();
  let frames = 0;
  ws.on('message', (data) => {
    frames++;
    for (const entry of (JSON.parse(String(data)) as { iterable: Array<{ asset: { id: string } }> }).iterable) heard.add(entry.asset.id);
  });
  await new Promise((resolve) => ws.once('message', resolve));

  const progress: number[] = [];
  const summary = await client.imports.importFiles(fixtures(), { onProgress: (p) => progress.push(p.filesDone) });
  assert.equal(summary.imported, 10);
  assert.equal(summary.files, NAMES.length);
  assert.equal(summary.filesDone, NAMES.length);
  assert.ok(summary.failures.some((f) => f.source === 'unknown.json'));
  assert.deepEqual(summary.formats, { vscode: 2, masscode: 1, pieces: 1, gist: 1 });
  assert.equal(progress.at(-1), NAMES.length);
  // The request's files went through the spool (written before the store's copy), each removed once read.
  assert.deepEqual(readdirSync(join(h.dataDir, SPOOL_FOLDER)), []);

  const assets = await client.assets.list();
  assert.equal(assets.iterable.length, 10);
  const deadline = Date.now() + 5000;
  while (heard.size < 10 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  ws.close();
  assert.deepEqual([...heard].sort(), assets.iterable.map((a) => a.id).sort(), 'the identifiers stream announced every imported asset');
  assert.ok(frames > 1);

  const again = await client.imports.importFiles(fixtures());
  assert.equal(again.imported, 0);
  assert.equal(again.duplicates, 10);
  assert.equal((await client.assets.list()).iterable.length, 10);
});

test('aborting the request cancels the import between batches; the batches written stay', async () => {
  const snippets = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`Cancel ${i}`, { prefix: `c${i}`, body: `const cancelled${i} = ${i} * 7;` }]));
  const stop = new AbortController();
  const before = (await client.assets.list()).iterable.length;
  const summary = await client.imports.importFiles([{ name: 'javascript.json', read: async () => ({ name: 'javascript.json', content: JSON.stringify(snippets) }) }], {
    batchSize: 20,
    signal: stop.signal,
    onProgress: (p) => {
      if (p.imported >= 40) stop.abort();
    },
  });
  assert.equal(summary.cancelled, true);
  // The host stops at its next batch boundary after it sees the connection close.
  await h.core.context.database.settled();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const written = (await client.assets.list()).iterable.length - before;
  assert.ok(written >= 40 && written < 2000, `${written} written`);
  assert.equal(written % 20, 0, 'whole batches only');
  assert.ok(summary.imported >= 40 && summary.imported <= written, `the summary counts the batches reported before the cancel (${summary.imported} of ${written})`);
});

test('a file read on the caller side goes as parts of snippets; unreadable files count as failed', async () => {
  const snippets = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`Part ${i}`, { prefix: ['part', `p${i}`], body: `fn part_${i}() -> u32 { ${i} }` }]));
  snippets['Bad'] = { prefix: 'bad', body: 7 } as never;
  const parsed = parseImportFile('rust.json', JSON.stringify(snippets));
  const progress: number[] = [];
  const summary = await client.imports.importFiles(
    [
      { name: 'rust.json', read: async () => ({ name: 'rust.json', parsed }) },
      { name: 'gone.json', read: async () => ({ name: 'gone.json', error: 'ENOENT: no such file' }) },
    ],
    { batchSize: 7, onProgress: (p) => progress.push(p.imported) },
  );
  assert.deepEqual([summary.imported, summary.duplicates, summary.failed, summary.found, summary.filesDone], [30, 0, 2, 30, 2]);
  assert.deepEqual(summary.formats, { vscode: 1 });
  assert.ok(summary.failures.some((f) => f.source === 'gone.json'));
  assert.ok(summary.failures.some((f) => /Bad/.test(f.source)));
  // A line as the first batch is written, then at most one every 100 ms (ndjson.ts), the last always.
  assert.deepEqual([progress[0], progress.at(-1)], [7, 30]);
  assert.ok(progress.every((imported, i) => i === 0 || imported >= progress[i - 1]!), progress.join(', '));
  const stored = (await client.assets.list()).iterable.find((a) => a.name === 'Part 3')!;
  assert.equal(stored.formats.iterable[0]?.classification.specific, 'rs');
  assert.deepEqual(stored.tags?.iterable.map((t) => t.text).sort(), ['p3', 'part']);
});

test("a file given as its bytes (the extension's read) imports as its text: a byte-order mark dropped, every character kept", async () => {
  // (`\\` would be read as the snippet syntax's escaped backslash: a snippet file's rule, not this test's.)
  const body = 'let s = "naïve ☃ 😀\\t";\r\nlet q = \'"\';\u0001';
  const file = `\ufeff${JSON.stringify({ Bytes: { scope: 'rust', prefix: 'bytes', body } })}`;
  const read = importFileFromBytes('bytes.code-snippets', new TextEncoder().encode(file));
  assert.ok('utf8' in read, 'sent as bytes, not decoded on the caller side');
  const summary = await client.imports.importFiles([{ name: 'bytes.code-snippets', read: async () => read }]);
  assert.deepEqual([summary.imported, summary.failed], [1, 0]);
  const stored = (await client.assets.list()).iterable.find((a) => a.name === 'Bytes')!;
  assert.equal(stored.formats.iterable[0]?.fragment?.string?.raw, body);
});

test('files too large to share a request go one request each, at most two under way; progress and the summary add them up', async () => {
  // Three ~9 MB files: no two fit one request (16 MB), so each is a request, at most two under way at once.
  const files: ImportFile[] = [0, 1, 2].map((file) => {
    const name = `big-${file}.code-snippets`;
    const entries = Array.from({ length: 60 }, (_, i) => [`Big ${file}-${i}`, { scope: 'javascript', prefix: [`big${file}`], body: `// big ${file}-${i}\n${'x'.repeat(150_000)}` }]);
    return { name, read: async () => ({ name, content: JSON.stringify(Object.fromEntries(entries)) }) };
  });
  // The host's side: an import is asked for once a request's body is in; the importer runs them in turn.
  const importer = h.core.imports;
  const original = importer.import.bind(importer);
  let asked = 0;
  let most = 0;
  let active = 0;
  importer.import = (sources, options) => {
    asked++;
    most = Math.max(most, ++active);
    return original(sources, options).finally(() => active--);
  };
  const progress: Array<{ imported: number; filesDone: number }> = [];
  let summary;
  try {
    summary = await client.imports.importFiles(files, { onProgress: (p) => progress.push({ imported: p.imported, filesDone: p.filesDone }) });
  } finally {
    importer.import = original;
  }
  assert.deepEqual([summary.imported, summary.filesDone, summary.found, summary.failed], [180, 3, 180, 0]);
  assert.deepEqual(summary.formats, { vscode: 3 });
  assert.equal(asked, 3, 'one request per file');
  // Never more than two at once. Whether the next is read while one still imports depends on how long
  // each takes here; that it is sent then is test/client/importRequests.test.ts's.
  assert.ok(most >= 1 && most <= 2, `${most} imports at once`);
  for (let i = 1; i < progress.length; i++) {
    assert.ok(progress[i]!.imported >= progress[i - 1]!.imported && progress[i]!.filesDone >= progress[i - 1]!.filesDone, `progress went back: ${JSON.stringify(progress.slice(i - 1, i + 1))}`);
  }
  assert.deepEqual(progress.at(-1), { imported: 180, filesDone: 3 });
  assert.equal(h.core.assets.list().filter((asset) => asset.name?.startsWith('Big ')).length, 180);
});

test('health answers between batches while an import runs', async () => {
  const snippets = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`Health ${i}`, { prefix: ['h', `h${i}`], body: `export function health${i}(value: number): number {\n  return value * ${i} + ${i % 7};\n}` }]));
  const importing = client.imports.importFiles([{ name: 'typescript.json', read: async () => ({ name: 'typescript.json', content: JSON.stringify(snippets) }) }]);
  let done = false;
  void importing.finally(() => (done = true));
  let slowest = 0;
  let answered = 0;
  while (!done) {
    const started = performance.now();
    assert.equal((await request(h.url, 'GET', '/.well-known/health')).status, 200);
    slowest = Math.max(slowest, performance.now() - started);
    answered++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.equal((await importing).imported, 4000);
  assert.ok(answered >= 2, `${answered} health answers during the import`);
  // Generous for a shared machine: a batch takes about 250 ms, health waits for at most one.
  assert.ok(slowest < 3000, `slowest health answer ${slowest.toFixed(0)} ms`);
});

test('bad requests answer 400 JSON and import nothing', async () => {
  const count = (await client.assets.list()).iterable.length;
  for (const body of [{}, { files: [] }, { files: [{ name: 'x.json' }] }, { files: [{ name: 'x.json', content: '{}' }], format: 'zip' }, { parts: [{ name: 'p', format: 'gist', snippets: [{ name: 'x' }] }] }]) {
    const reply = await request(h.url, 'POST', '/satchel/import', { body });
    assert.equal(reply.status, 400, JSON.stringify(body));
    assert.equal(reply.json.error.code, 'invalid_input');
  }
  const foreign = await request(h.url, 'POST', '/satchel/import', {
    body: { files: [{ name: 'python.json', content: '{"A": {"prefix": "a", "body": "a = 1"}}' }] },
    headers: { origin: 'https://example.com' },
  });
  assert.equal(foreign.status, 403);
  assert.equal((await client.assets.list()).iterable.length, count);
});

/** A logger that keeps what it is told, errors with their stack. */
function recordingLogger(): Logger & { readonly infos: string[]; readonly errors: string[] } {
  const infos: string[] = [];
  const errors: string[] = [];
  return {
    infos,
    errors,
    info: (message) => void infos.push(message),
    warn: (message) => void infos.push(message),
    error: (message, error) => void errors.push(`${message} ${error instanceof Error ? error.stack : String(error ?? '')}`),
  };
}

/** A 20,000-snippet import's body (over 1 MiB: it is parsed off the event loop, which takes a while). */
function manySnippets(tag: string): string {
  const snippets = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`${tag} ${i}`, { prefix: `${tag}${i}`, body: `const ${tag}${i} = ${i} * 3;` }]));
  return JSON.stringify({ files: [{ name: 'javascript.json', content: JSON.stringify(snippets) }], batchSize: 500 });
}

function postImport(url: string, body: string, onReply: (res: IncomingMessage, req: ClientRequest) => void = () => {}): ClientRequest {
  const { hostname, port } = new URL(url);
  const req = httpRequest({ host: hostname, port, method: 'POST', path: '/satchel/import', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) =>
    onReply(res, req),
  );
  req.on('error', () => {});
  return req;
}

test('an import whose client left while its body was being parsed is cancelled: nothing is written', async () => {
  const logger = recordingLogger();
  const host = await startTestServer({ logger });
  try {
    // The connection closes right after the last byte: the host is still parsing when it sees the close.
    const body = manySnippets('gone');
    const req = postImport(host.url, body);
    req.end(body, () => req.destroy());
    await waitFor(() => logger.infos.some((line) => /Import cancelled/.test(line)) || host.core.assets.identifiers().length >= 20_000, 30_000).catch(() => undefined);
    await host.core.imports.merged();
    assert.equal(host.core.assets.identifiers().length, 0, 'nothing of the import was written');
    assert.deepEqual(logger.errors, []);
  } finally {
    await host.close();
  }
});

test('a client that leaves mid-import cancels it with one info line: no error and no stack in the log', async () => {
  const logger = recordingLogger();
  const host = await startTestServer({ logger });
  try {
    const body = manySnippets('left');
    // The client leaves once the first progress line arrives (a batch is written).
    const req = postImport(host.url, body, (res, sent) => res.once('data', () => sent.destroy()));
    req.end(body);
    await waitFor(() => logger.infos.some((line) => /Import cancelled/.test(line)), 30_000).catch(() => undefined);
    await host.core.imports.merged();
    const written = host.core.assets.identifiers().length;
    assert.ok(written > 0 && written < 20_000, `${written} written`);
    assert.deepEqual(logger.errors, [], 'a client that left is not an error');
    assert.deepEqual(logger.infos.filter((line) => /import/i.test(line)), [`Import cancelled by its client after ${written} of 20000 snippets.`]);
  } finally {
    await host.close();
  }
});

test('imports queued with their bodies hold the body budget: the next is refused 503, and the client sends it again once there is room', async () => {
  const MIB = 1024 * 1024;
  const host = await startTestServer({ bodyLimit: MIB, bodyInFlight: MIB });
  const importsClient = new SatchelClient(host.url);
  // Imports wait at a gate, as behind a long one, with their bodies.
  const original = host.core.imports.import.bind(host.core.imports);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  host.core.imports.import = async (sources, options) => {
    waiting++;
    await gate;
    return original(sources, options);
  };
  const bigFile = (name: string): ImportFile => ({
    name,
    read: async () => ({ name, content: JSON.stringify({ [name]: { scope: 'javascript', prefix: 'big', body: `// ${name}\n${'x'.repeat(300 * 1024)}` } }) }),
  });
  try {
    // Each import's two files go as one 600 KiB request.
    const first = importsClient.imports.importFiles([bigFile('a1.code-snippets'), bigFile('a2.code-snippets')]);
    // Awaited below; a failed assertion before that closes the host under it.
    first.catch(() => undefined);
    await waitFor(() => waiting === 1);
    // Its body held: another 600 KiB does not fit the 1 MiB.
    const probe = [await bigFile('p1.code-snippets').read(), await bigFile('p2.code-snippets').read()];
    // An import the host took would answer only after the gate: given up on after 5 s.
    const refused = await fetch(`${host.url}/satchel/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ files: probe }),
      signal: AbortSignal.timeout(5000),
    }).then(
      async (reply) => ({ status: reply.status, text: await reply.text() }),
      () => ({ status: 0, text: 'taken: no answer within 5 s' }),
    );
    assert.equal(refused.status, 503, refused.text);
    assert.match(refused.text, /"busy"/);
    const second = importsClient.imports.importFiles([bigFile('b1.code-snippets'), bigFile('b2.code-snippets')]);
    setTimeout(open, 1500);
    const [a, b] = await Promise.all([first, second]);
    assert.deepEqual([a.imported, b.imported, a.failed + b.failed], [2, 2, 0]);
  } finally {
    open();
    host.core.imports.import = original;
    importsClient.dispose();
    await host.close();
  }
});
