/**
 * Model downloads against a hostile origin on 127.0.0.1: dropped connections, a server that
 * ignores Range, a file that changes between attempts (with and without validators), a wrong
 * checksum and cancels at random moments up to the final rename. A model is never reported
 * downloaded unless its file on disk is, byte for byte, one whole version of the source.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, tempDir, type TestServer } from '../support/helpers.ts';
import { downloadFile, DownloadError } from '../../src/core/models/downloader.ts';
import { createCustomModel, figures, raw, sleep } from './support.ts';

const SIZE = 256 * 1024;
/** Two versions of the same size, both with the GGUF magic the host checks. */
const makeVersion = (): Buffer => Buffer.concat([Buffer.from('GGUF'), randomBytes(SIZE - 4)]);
const A = makeVersion();
const B = makeVersion();
const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

interface Behaviour {
  /** The bytes served on the n-th request (0-based). */
  content(n: number): Buffer;
  /** A strong validator for the n-th request's content, or none. */
  etag?(n: number): string | undefined;
  /** Whether the n-th request honours Range. */
  honoursRange(n: number): boolean;
  /** Bytes after which the n-th response is cut off (undefined: sent whole). */
  cutAt?(n: number): number | undefined;
  /** Sends the body in 16 KB chunks this many ms apart, so a cancel can land anywhere in it. */
  readonly paceMs?: number;
}

let origin: Server;
let originPort = 0;
const behaviours = new Map<string, Behaviour>();
const requests = new Map<string, number>();

function serveFile(req: IncomingMessage, res: ServerResponse): void {
  const name = (req.url ?? '/').slice(1);
  const behaviour = behaviours.get(name.replace(/\.gguf$/, ''));
  if (!behaviour) {
    res.writeHead(404).end();
    return;
  }
  const n = requests.get(name) ?? 0;
  requests.set(name, n + 1);
  const content = behaviour.content(n);
  const etag = behaviour.etag?.(n);
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  const ifRange = req.headers['if-range'];
  let start = 0;
  if (range && behaviour.honoursRange(n) && (ifRange === undefined || ifRange === etag)) start = Number(range[1]);
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream', 'content-length': String(content.length - start) };
  if (etag) headers.etag = etag;
  if (start > 0) {
    headers['content-range'] = `bytes ${start}-${content.length - 1}/${content.length}`;
    res.writeHead(206, headers);
  } else res.writeHead(200, headers);
  const body = content.subarray(start);
  const cut = behaviour.cutAt?.(n);
  if (cut !== undefined && cut < body.length) {
    res.write(body.subarray(0, cut), () => setTimeout(() => res.destroy(), 20));
    return;
  }
  if (behaviour.paceMs === undefined) {
    res.end(body);
    return;
  }
  let offset = 0;
  const next = (): void => {
    if (res.destroyed) return;
    if (offset >= body.length) return void res.end();
    res.write(body.subarray(offset, offset + 16 * 1024));
    offset += 16 * 1024;
    setTimeout(next, behaviour.paceMs);
  };
  next();
}

let t: TestServer;
before(async () => {
  origin = createServer(serveFile);
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as { port: number }).port;
  t = await startTestServer({ models: { retryBackoffMs: 20 } });
});
after(async () => {
  await t.close();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
});


function customModel(name: string): Promise<string> {
  return createCustomModel(t.server.port, { name, unique: `http://127.0.0.1:${originPort}/${name}.gguf` });
}

interface ModelState {
  readonly downloaded: boolean;
  readonly downloading: boolean;
}

async function modelState(id: string): Promise<ModelState> {
  const reply = await raw(t.server.port, { path: `/model/${encodeURIComponent(id)}` });
  assert.equal(reply.status, 200, reply.text.slice(0, 200));
  const model = reply.json as { downloaded?: boolean; downloading?: boolean };
  return { downloaded: model.downloaded === true, downloading: model.downloading === true };
}

async function settle(id: string, limitMs = 20_000): Promise<ModelState> {
  const until = Date.now() + limitMs;
  for (;;) {
    const state = await modelState(id);
    if (!state.downloading) return state;
    if (Date.now() > until) throw new Error(`model ${id} is still downloading after ${limitMs} ms`);
    await sleep(30);
  }
}

/** The model's complete file (not a .part), if any. */
function modelFile(id: string): Buffer | undefined {
  const dir = join(t.dataDir, 'models', id);
  if (!existsSync(dir)) return undefined;
  const file = readdirSync(dir).find((name) => name.endsWith('.gguf'));
  return file ? readFileSync(join(dir, file)) : undefined;
}

/** The suite's one rule: reported downloaded ⇒ the file is exactly one whole version. */
function assertHonest(id: string, state: ModelState, allowed: readonly Buffer[], what: string): void {
  if (!state.downloaded) return;
  const file = modelFile(id);
  assert.ok(file, `${what}: reported downloaded with no file`);
  assert.ok(
    allowed.some((version) => version.equals(file)),
    `${what}: reported downloaded with a file of ${file.length} bytes that is no whole version (sha256 ${sha(file).slice(0, 12)})`,
  );
}

async function download(id: string): Promise<void> {
  const reply = await raw(t.server.port, { method: 'POST', path: `/model/${encodeURIComponent(id)}/download` });
  assert.equal(reply.status, 200, reply.text.slice(0, 300));
}

const scenarios: Array<{ name: string; behaviour: Behaviour; expect: Buffer | 'not-mixed' }> = [
  {
    name: 'dropped',
    behaviour: { content: () => A, etag: () => '"a"', honoursRange: () => true, cutAt: (n) => (n < 3 ? 40_000 : undefined) },
    expect: A,
  },
  {
    name: 'ignoresrange',
    behaviour: { content: () => A, etag: () => '"a"', honoursRange: () => false, cutAt: (n) => (n === 0 ? 100_000 : undefined) },
    expect: A,
  },
  {
    name: 'changedetag',
    behaviour: { content: (n) => (n === 0 ? A : B), etag: (n) => (n === 0 ? '"a"' : '"b"'), honoursRange: () => true, cutAt: (n) => (n === 0 ? 100_000 : undefined) },
    expect: B,
  },
  {
    // No ETag, no Last-Modified: the client cannot tell the file changed, so it must not splice.
    name: 'changednovalidator',
    behaviour: { content: (n) => (n === 0 ? A : B), honoursRange: () => true, cutAt: (n) => (n === 0 ? 100_000 : undefined) },
    expect: 'not-mixed',
  },
];

for (const scenario of scenarios) {
  test(`model download, ${scenario.name}: never reported downloaded with a wrong or partial file`, async () => {
    behaviours.set(scenario.name, scenario.behaviour);
    const id = await customModel(scenario.name);
    await download(id);
    const state = await settle(id);
    assertHonest(id, state, [A, B], scenario.name);
    if (scenario.expect !== 'not-mixed') {
      assert.ok(state.downloaded, `${scenario.name}: the download should have completed`);
      assert.ok(modelFile(id)!.equals(scenario.expect), `${scenario.name}: the wrong version was kept`);
    }
    figures(`models.${scenario.name}`, { requests: requests.get(`${scenario.name}.gguf`) ?? 0, downloaded: state.downloaded ? 'yes' : 'no', honest: 'yes' });
  });
}

test('a download whose bytes do not match the expected sha256 is refused and leaves nothing behind', async () => {
  behaviours.set('checksum', { content: () => B, etag: () => '"b"', honoursRange: () => true });
  const dest = join(tempDir('satchel-rel-sha-'), 'model.gguf');
  await assert.rejects(
    downloadFile({ source: `http://127.0.0.1:${originPort}/checksum.gguf`, dest, sha256: sha(A), signal: new AbortController().signal, backoffMs: 10 }),
    (error: unknown) => error instanceof DownloadError && error.reason === 'checksum',
  );
  assert.equal(existsSync(dest), false, 'the refused file was put in place');
  assert.equal(existsSync(`${dest}.part`), false, 'the refused bytes were kept');
});

test('cancels at random moments, up to the final rename, never leave a model reported downloaded with a wrong file', async () => {
  const trials = 16;
  let completed = 0;
  let canceled = 0;
  for (let i = 0; i < trials; i++) {
    const name = `cancel${i}`;
    behaviours.set(name, { content: () => A, etag: () => '"a"', honoursRange: () => true, paceMs: 3 });
    const id = await customModel(name);
    await download(id);
    // The body takes ~50 ms: cancels land before it, inside it, around the rename and after it.
    await sleep(randomInt(0, 80));
    const cancel = await raw(t.server.port, { method: 'POST', path: `/model/${encodeURIComponent(id)}/download/cancel` });
    assert.ok(cancel.status < 500, cancel.text);
    const state = await settle(id);
    assertHonest(id, state, [A], name);
    if (state.downloaded) completed++;
    else canceled++;
    // And what it reports survives a second look: a canceled model has no file that claims to be whole.
    if (!state.downloaded) assert.equal((await modelState(id)).downloaded, false);
  }
  figures('models.cancel', { trials, completedBeforeCancel: completed, canceled, dishonest: 0 });
});
