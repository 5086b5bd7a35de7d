/**
 * Satchel: Import from Pieces in a real VS Code: from a stand-in Pieces OS serving the recorded
 * library (test/support/piecesOsServer.ts) at an address, then again (nothing added), then from the
 * same library as Pieces' export tool writes it (the same ids: nothing added either).
 */
import * as vscode from 'vscode';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTENSION_ID, until } from './support.ts';
import type { SatchelExtension } from '../../../src/extension/satchelExtension.ts';
import type { ImportSummary } from '../../../src/client/imports.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';
import { startPiecesOs, type PiecesOsStandIn } from '../../support/piecesOsServer.ts';
import { writePiecesArchive } from '../../support/piecesArchive.ts';
import { ASSETS, CONVERSATION, TEXTS } from '../../fixtures/piecesOs/library.ts';

describe('Import from Pieces in VS Code', function () {
  let client: SatchelClient;
  let pieces: PiecesOsStandIn;

  before(async function () {
    const api = await vscode.extensions.getExtension<SatchelExtension>(EXTENSION_ID)!.activate();
    await until('the server role', () => (api.server.connection ? true : undefined), 30_000);
    client = new SatchelClient(api.server.connection!.url);
    pieces = await startPiecesOs();
  });

  after(async () => {
    client?.dispose();
    await pieces?.close();
  });

  it('imports the Pieces OS at an address: snippets with their ids and content, the conversation', async function () {
    const summary = (await vscode.commands.executeCommand<ImportSummary>('satchel.importFromPieces', { url: pieces.url }))!;
    assert.equal(summary.source, `Pieces OS 12.3.1 at 127.0.0.1:${pieces.port}`);
    assert.deepEqual(summary.failures, []);
    assert.equal(summary.imported, ASSETS.length);
    assert.equal(summary.conversations, 1);
    const retry = await client.assets.get('asset-retry-0001');
    assert.equal(retry.name, 'Retry with backoff');
    assert.equal(retry.formats.iterable[0]?.fragment?.string?.raw, TEXTS.retry);
    assert.equal(retry.created.value, '2024-03-05T10:00:00.123Z');
    const conversations = await client.conversations.list();
    assert.ok(conversations.iterable.some((conversation) => conversation.id === CONVERSATION.id));
  });

  it('run again, from Pieces OS or from its export folder, adds nothing', async function () {
    const again = (await vscode.commands.executeCommand<ImportSummary>('satchel.importFromPieces', { url: pieces.url }))!;
    assert.equal(again.imported, 0);
    assert.equal(again.duplicates, ASSETS.length);
    const folder = join(mkdtempSync(join(tmpdir(), 'satchel-pieces-export-')), 'Pieces-Export');
    mkdirSync(folder);
    writePiecesArchive(folder);
    const fromFolder = (await vscode.commands.executeCommand<ImportSummary>('satchel.importFromPieces', { folder: vscode.Uri.file(folder) }))!;
    assert.deepEqual(fromFolder.failures, []);
    assert.equal(fromFolder.imported, 0);
    assert.equal(fromFolder.duplicates, ASSETS.length);
  });
});
