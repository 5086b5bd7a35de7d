/**
 * Import from Pieces (POST /satchel/import/pieces) through a real host, reading a stand-in Pieces OS
 * that serves a recorded library as Pieces OS does (test/support/piecesOsServer.ts): the library
 * arrives whole, field by field; a second run adds nothing; a changed record is updated in place;
 * a cancelled run resumes where it stopped; discovery never takes Satchel for Pieces OS.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { startTestServer, request, type TestServer } from '../support/helpers.ts';
import { startPiecesOs, type PiecesOsStandIn } from '../support/piecesOsServer.ts';
import { SatchelClient } from '../../src/client/satchelClient.ts';
import { findPiecesOs, resolvePiecesOs } from '../../src/core/import/piecesOs.ts';
import { ANNOTATIONS, ANCHOR, ANCHOR_POINT, ASSETS, CONVERSATION, JETBRAINS, MDN, MESSAGES, PNG, TEXTS, VS_CODE } from '../fixtures/piecesOs/library.ts';
import type { Asset } from '../../src/core/piecesTypes.ts';

let h: TestServer;
let client: SatchelClient;
let pieces: PiecesOsStandIn;
before(async () => {
  h = await startTestServer();
  client = new SatchelClient(h.url);
  pieces = await startPiecesOs();
});
after(async () => {
  client.dispose();
  await h.close();
  await pieces.close();
});

async function asset(id: string): Promise<Asset> {
  const reply = await request(h.url, 'GET', `/asset/${id}`);
  assert.equal(reply.status, 200, `asset ${id}: ${reply.text.slice(0, 200)}`);
  return reply.json as Asset;
}

const idsOf = (collection: { iterable: Array<{ id: string }> } | undefined): string[] => (collection?.iterable ?? []).map((item) => item.id).sort();

test('the recorded library arrives whole: every snippet, format, label, annotation, anchor, time, author and conversation', async () => {
  const progress: Array<{ imported: number; filesDone: number; files: number | undefined }> = [];
  const summary = await client.imports.importPieces(pieces.url, { onProgress: (p) => progress.push({ imported: p.imported, filesDone: p.filesDone, files: p.files }) });
  assert.equal(summary.source, `Pieces OS 12.3.1 at 127.0.0.1:${pieces.port}`);
  assert.deepEqual(summary.failures, []);
  assert.equal(summary.imported, ASSETS.length);
  assert.equal(summary.conversations, 1);
  assert.equal(summary.cancelled, false);
  // Progress counts the parts read (one of assets, one of conversations), known from the start.
  assert.ok(progress.length > 0 && progress.every((p) => p.files === 2));
  assert.deepEqual(progress.at(-1), { imported: ASSETS.length, filesDone: 2, files: 2 });

  const listed = await client.assets.list();
  assert.deepEqual(listed.iterable.map((a) => a.id).sort(), ASSETS.map((a) => a.id).sort(), 'each snippet keeps its Pieces id');

  const retry = await asset('asset-retry-0001');
  assert.equal(retry.name, 'Retry with backoff');
  assert.equal(retry.created.value, '2024-03-05T10:00:00.123Z');
  assert.equal(retry.updated.value, '2024-06-01T08:30:00.000Z');
  assert.equal(retry.favorited, true);
  const format = retry.formats.iterable[0]!;
  assert.equal(format.fragment?.string?.raw, TEXTS.retry);
  assert.equal(format.classification.specific, 'ts');
  assert.equal(format.application.id, VS_CODE.id, 'the application that saved it in Pieces stays its author');
  assert.equal(format.application.name, 'VS_CODE');
  assert.deepEqual((retry.tags?.iterable ?? []).map((t) => t.text).sort(), ['http', 'retry']);
  assert.deepEqual((retry.websites?.iterable ?? []).map((w) => [w.url, w.name]), [[MDN.url, MDN.name]]);
  const annotations = (await request(h.url, 'GET', '/annotations')).json as { iterable: Array<{ id: string; type: string; text: string; assets?: { iterable: Array<{ id: string }> } }> };
  const ofRetry = annotations.iterable.filter((a) => idsOf(a.assets).includes('asset-retry-0001'));
  assert.deepEqual(ofRetry.map((a) => [a.type, a.text]).sort(), [
    ['COMMENT', ANNOTATIONS.retryComment.text],
    ['DESCRIPTION', ANNOTATIONS.retryDescription.text],
  ]);
  assert.ok(ofRetry.some((a) => a.id === ANNOTATIONS.retryComment.id), 'an annotation keeps its Pieces id');
  const anchor = (await request(h.url, 'GET', `/anchor/${ANCHOR.id}`)).json as { type: string; name: string; points: { iterable: Array<{ reference?: { fullpath: string } }> }; assets: { iterable: Array<{ id: string }> } };
  assert.equal(anchor.type, 'FILE');
  assert.equal(anchor.name, 'http.ts');
  assert.equal(anchor.points.iterable[0]?.reference?.fullpath, ANCHOR_POINT.fullpath);
  assert.deepEqual(idsOf(anchor.assets), ['asset-retry-0001']);

  const parse = await asset('asset-parse-0002');
  assert.equal(parse.formats.iterable[0]!.fragment?.string?.raw ?? parse.formats.iterable[0]!.file?.string?.raw, TEXTS.parseArgs, 'a file format arrives');
  assert.equal(parse.formats.iterable[0]!.classification.specific, 'py');
  assert.equal(parse.formats.iterable[0]!.application.name, JETBRAINS.name);
  assert.deepEqual((parse.tags?.iterable ?? []).map((t) => t.text), ['python']);
  assert.equal(parse.created.value, '2024-02-02T10:00:00.000Z');

  const sql = await asset('asset-sql-0003');
  assert.equal(sql.formats.iterable[0]!.fragment?.string?.raw, TEXTS.sql, 'a base64 fragment arrives as its text');
  assert.equal(sql.created.value, '2023-11-20T16:45:10.500Z');
  assert.equal(sql.updated.value, '2024-01-15T09:12:00.000Z');

  const shot = await asset('asset-shot-0004');
  assert.deepEqual(shot.formats.iterable[0]!.fragment?.bytes?.raw, PNG, 'an image arrives as its bytes');
  assert.equal(shot.formats.iterable[0]!.classification.specific, 'png');

  const conversation = (await request(h.url, 'GET', `/conversation/${CONVERSATION.id}`)).json as {
    name: string;
    favorited: boolean;
    created: { value: string };
    updated: { value: string };
    assets: { iterable: Array<{ id: string }> };
    websites: { iterable: Array<{ id: string }> };
  };
  assert.equal(conversation.name, 'Backoff in fetch');
  assert.equal(conversation.favorited, true);
  assert.equal(conversation.created.value, CONVERSATION.created.value);
  assert.equal(conversation.updated.value, CONVERSATION.updated.value);
  assert.deepEqual(idsOf(conversation.assets), ['asset-retry-0001']);
  assert.equal(conversation.websites.iterable.length, 1);
  const messages = (await request(h.url, 'GET', `/conversation/${CONVERSATION.id}/messages?transferables=true`)).json as {
    iterable: Array<{ id: string; role: string; created: { value: string }; fragment?: { string?: { raw?: string } } }>;
  };
  assert.deepEqual(
    messages.iterable.map((m) => [m.id, m.role, m.created.value, m.fragment?.string?.raw]).sort(),
    MESSAGES.map((m) => [m.id, m.role, m.created.value, m.fragment?.string?.raw]).sort(),
  );
});

test('a second run adds nothing and changes nothing', async () => {
  const before = (await client.assets.list()).iterable.length;
  const revisions = (await request(h.url, 'GET', '/satchel/assets/asset-retry-0001/revisions')).json as { revisions: Array<{ author: { kind: string; name: string } }> };
  assert.equal(revisions.revisions.length, 1);
  assert.deepEqual(revisions.revisions[0]!.author, { kind: 'import', name: `Pieces OS 12.3.1 at 127.0.0.1:${pieces.port}` }, 'history says where it came from');
  const again = await client.imports.importPieces(pieces.url);
  assert.equal(again.imported, 0);
  assert.equal(again.updated, 0);
  assert.equal(again.duplicates, ASSETS.length);
  assert.equal(again.conversations ?? 0, 0);
  assert.deepEqual(again.failures, []);
  assert.equal((await client.assets.list()).iterable.length, before);
  const after = (await request(h.url, 'GET', '/satchel/assets/asset-retry-0001/revisions')).json as { revisions: unknown[] };
  assert.equal(after.revisions.length, 1, 'no revision written for an unchanged record');
});

test('a record changed in Pieces is updated in place, not added beside', async () => {
  const changed = pieces.library.assets[0]!;
  changed.name = 'Retry with jittered backoff';
  changed.updated = { value: '2024-07-01T00:00:00.000Z', readable: 'July 1' };
  changed.tags!.iterable.push({ id: 'tag-jitter-09', text: 'jitter', category: 'HANDLE', created: changed.updated, updated: changed.updated });
  pieces.library.messages.push({ ...pieces.library.messages[1]!, id: 'msg-q-03', role: 'USER', created: { value: '2024-03-06T08:01:00.000Z' }, updated: { value: '2024-03-06T08:01:00.000Z' }, fragment: { string: { raw: 'And with jitter?' } } });
  const run = await client.imports.importPieces(pieces.url);
  assert.equal(run.imported, 0);
  assert.equal(run.updated, 1);
  assert.equal(run.conversations, 1);
  const retry = await asset('asset-retry-0001');
  assert.equal(retry.name, 'Retry with jittered backoff');
  assert.equal(retry.updated.value, '2024-07-01T00:00:00.000Z');
  assert.deepEqual((retry.tags?.iterable ?? []).map((t) => t.text).sort(), ['http', 'jitter', 'retry']);
  assert.equal((await client.assets.list()).iterable.length, ASSETS.length);
  const messages = (await request(h.url, 'GET', `/conversation/${CONVERSATION.id}/messages`)).json as { iterable: unknown[] };
  assert.equal(messages.iterable.length, 3);
});

test('a cancelled run resumes: the next brings the rest, nothing twice', async () => {
  const fresh = await startTestServer();
  const freshClient = new SatchelClient(fresh.url);
  const big = await startPiecesOs();
  try {
    const template = big.library.assets[2]!;
    big.library.assets = Array.from({ length: 260 }, (_, i) => {
      const id = `asset-bulk-${String(i).padStart(4, '0')}`;
      const format = { ...template.formats.iterable[0]!, fragment: { string: { raw: `SELECT ${i} AS n; -- bulk ${i}\n` } } };
      return { ...template, id, name: `Bulk ${i}`, formats: { iterable: [format] }, original: { id: format.id, reference: { ...format, asset: id } } };
    });
    const stop = new AbortController();
    const first = await freshClient.imports.importPieces(big.url, {
      batchSize: 20,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.imported >= 40) stop.abort();
      },
    });
    assert.equal(first.cancelled, true);
    await fresh.core.context.database.settled();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = (await freshClient.assets.list()).iterable.length;
    assert.ok(written >= 40 && written < 260, `${written} written before the cancel`);

    const second = await freshClient.imports.importPieces(big.url, { batchSize: 20 });
    assert.equal(second.cancelled, false);
    assert.equal(second.imported + second.duplicates, 260);
    assert.equal(second.imported, 260 - written, 'only what the cancelled run had not written');
    const ids = (await freshClient.assets.list()).iterable.map((a) => a.id);
    assert.equal(ids.length, 260);
    assert.equal(new Set(ids).size, 260);
  } finally {
    freshClient.dispose();
    await fresh.close();
    await big.close();
  }
});

test('discovery finds Pieces OS on its ports and never takes Satchel for it', async () => {
  const satchelPort = Number(new URL(h.url).port);
  const found = await findPiecesOs({ ports: [satchelPort, pieces.port] });
  assert.equal(found?.url, pieces.url, 'Satchel answers the version check too, and is passed over');
  assert.equal(found?.version, '12.3.1');
  assert.equal(await findPiecesOs({ ports: [satchelPort] }), undefined);
  assert.equal(await findPiecesOs({ ports: [pieces.port], skip: [pieces.port] }), undefined, 'a skipped port (the host own) is never tried');
  await assert.rejects(resolvePiecesOs(h.url), /is Satchel itself/);
  await assert.rejects(resolvePiecesOs('http://example.com:39300'), /on this machine only/);
  const readsBefore = pieces.reads.length;
  assert.equal(await findPiecesOs({ ports: [pieces.port] }).then((p) => p?.url), pieces.url);
  assert.deepEqual(pieces.reads.slice(readsBefore), ['/.well-known/version']);
});

/** Two ports of Pieces OS's range that are free now, lowest first (the range's upper end: Satchel's own default is 39300). */
async function freePiecesPorts(): Promise<[number, number]> {
  const free: number[] = [];
  for (let port = 39333; port >= 39301 && free.length < 2; port--) {
    const server = createServer();
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) {
      free.push(port);
      await new Promise((resolve) => server.close(resolve));
    }
  }
  assert.equal(free.length, 2, 'two free ports in 39301-39333');
  return [free[1]!, free[0]!];
}

test('with no address the host finds Pieces OS on its ports, passing over its own (which answers the version check too)', async () => {
  const [ownPort, piecesPort] = await freePiecesPorts();
  const own = await startTestServer({ port: ownPort });
  const ownClient = new SatchelClient(own.url);
  const standIn = await startPiecesOs('12.4.0', piecesPort);
  try {
    const summary = await ownClient.imports.importPieces(undefined);
    assert.equal(summary.source, `Pieces OS 12.4.0 at 127.0.0.1:${piecesPort}`);
    assert.equal(summary.imported, ASSETS.length);
    assert.ok(standIn.reads.includes('/assets/identifiers'));
  } finally {
    ownClient.dispose();
    await own.close();
    await standIn.close();
  }
});

test('given Satchel own address, the import refuses it as not Pieces OS; with none running, it says so', async () => {
  await assert.rejects(client.imports.importPieces(h.url), (error: Error & { status?: number }) => /Satchel itself/.test(error.message) && error.status === 400);
  const reply = await request(h.url, 'POST', '/satchel/import/pieces', { body: { url: 12 } });
  assert.equal(reply.status, 400);
  const gone = await startPiecesOs();
  const port = gone.port;
  await gone.close();
  await assert.rejects(resolvePiecesOs(undefined, { ports: [port] }), (error: Error & { code?: string }) => /No Pieces OS is running/.test(error.message) && error.code === 'unavailable');
  await assert.rejects(client.imports.importPieces(`http://127.0.0.1:${port}`), (error: Error & { status?: number }) => /No Pieces OS answers at/.test(error.message) && error.status === 503);
});
