/**
 * The folder Pieces' export tool writes (archive format 5: manifest.json, and one JSON file per
 * record under data/<material>/, named by an opaque hash), built here from the recorded library as
 * its EXPORT_LAYOUT.md describes it, with the assets' formats, tags and websites named by id only
 * (their records in their own folders). Imported as `satchel import <folder>` reads it
 * (importInputs): every snippet, label, annotation, anchor, time and conversation arrives; a second
 * run, or a run against the live Pieces OS afterwards, adds nothing.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, request, tempDir, type TestServer } from '../support/helpers.ts';
import { startPiecesOs } from '../support/piecesOsServer.ts';
import { writePiecesArchive } from '../support/piecesArchive.ts';
import { importInputs } from '../../src/core/import/importInputs.ts';
import { piecesArchiveRecords } from '../../src/core/import/piecesArchive.ts';
import { diskArchive } from '../../src/core/import/piecesArchiveDisk.ts';
import { resolvePiecesOs } from '../../src/core/import/piecesOs.ts';
import { listPiecesLibrary, piecesOsSources } from '../../src/core/import/piecesOsLibrary.ts';
import type { ImportSource } from '../../src/core/import/importSource.ts';
import type { Asset } from '../../src/core/piecesTypes.ts';
import { ANNOTATIONS, ANCHOR_POINT, ASSETS, CONVERSATION, MESSAGES, PNG, TEXTS } from '../fixtures/piecesOs/library.ts';

let h: TestServer;
let archive: string;

async function* sourcesOf(path: string): AsyncGenerator<ImportSource> {
  for (const input of await importInputs(path)) {
    if ('read' in input) yield { name: input.name, parsed: await input.read() };
  }
}

before(async () => {
  h = await startTestServer();
  archive = join(tempDir('satchel-pieces-archive-'), 'Pieces-Export');
  mkdirSync(archive);
  writePiecesArchive(archive);
});
after(async () => {
  await h.close();
  rmSync(join(archive, '..'), { recursive: true, force: true });
});

test('an archive is recognised by its manifest and records folder; other folders are not', async () => {
  assert.equal(await piecesArchiveRecords(diskArchive(archive)), 'raw');
  assert.equal(await piecesArchiveRecords(diskArchive(join(archive, 'raw'))), undefined);
  assert.equal(await piecesArchiveRecords(diskArchive(join(archive, 'missing'))), undefined);
});

test('the archive imports whole: snippets with their Pieces ids, labels, annotations, anchors, times and the conversation', async () => {
  const summary = await h.core.imports.import(sourcesOf(archive));
  assert.deepEqual(summary.failures, []);
  assert.equal(summary.imported, ASSETS.length);
  assert.equal(summary.conversations, 1);
  assert.deepEqual(summary.formats, { pieces: 2 });

  const retry = (await request(h.url, 'GET', '/asset/asset-retry-0001')).json as Asset;
  assert.equal(retry.name, 'Retry with backoff');
  assert.equal(retry.formats.iterable[0]!.fragment?.string?.raw, TEXTS.retry);
  assert.equal(retry.formats.iterable[0]!.application.name, 'VS_CODE');
  assert.equal(retry.created.value, '2024-03-05T10:00:00.123Z');
  assert.equal(retry.updated.value, '2024-06-01T08:30:00.000Z');
  assert.deepEqual((retry.tags?.iterable ?? []).map((tag) => tag.text).sort(), ['http', 'retry']);
  assert.equal(retry.websites?.iterable.length, 1);
  const comment = (await request(h.url, 'GET', `/annotation/${ANNOTATIONS.retryComment.id}`)).json as { text: string; type: string };
  assert.deepEqual([comment.type, comment.text], ['COMMENT', ANNOTATIONS.retryComment.text]);
  const anchor = (await request(h.url, 'GET', '/anchor/anchor-http-ts')).json as { points: { iterable: Array<{ reference?: { fullpath: string } }> } };
  assert.equal(anchor.points.iterable[0]?.reference?.fullpath, ANCHOR_POINT.fullpath);
  const shot = (await request(h.url, 'GET', '/asset/asset-shot-0004')).json as Asset;
  assert.deepEqual(shot.formats.iterable[0]!.fragment?.bytes?.raw, PNG);
  const messages = (await request(h.url, 'GET', `/conversation/${CONVERSATION.id}/messages?transferables=true`)).json as { iterable: Array<{ id: string }> };
  assert.deepEqual(messages.iterable.map((message) => message.id).sort(), MESSAGES.map((message) => message.id).sort());
});

test('a second run of the archive, then the live Pieces OS it came from, add nothing', async () => {
  const again = await h.core.imports.import(sourcesOf(archive));
  assert.equal(again.imported, 0);
  assert.equal(again.updated, 0);
  assert.equal(again.duplicates, ASSETS.length);
  assert.equal(again.conversations ?? 0, 0);
  const pieces = await startPiecesOs();
  try {
    const found = await resolvePiecesOs(pieces.url);
    const live = await h.core.imports.import(piecesOsSources(found, await listPiecesLibrary(found)));
    assert.equal(live.imported, 0);
    assert.equal(live.updated, 0);
    assert.equal(live.conversations ?? 0, 0);
  } finally {
    await pieces.close();
  }
  assert.equal(h.core.assets.identifiers().length, ASSETS.length);
});
