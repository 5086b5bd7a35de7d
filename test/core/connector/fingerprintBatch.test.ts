/** The import path's batch writes of the fingerprint index and of links leave what single writes leave. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Database } from '../../../src/core/store/database.ts';
import { baseMigrations } from '../../../src/core/store/baseSchema.ts';
import { connectorMigrations } from '../../../src/core/connector/schema.ts';
import { FingerprintIndex } from '../../../src/core/connector/fingerprintIndex.ts';
import { Links } from '../../../src/core/store/links.ts';
import { savedSnippets } from '../../support/snippetFixture.ts';
import { tempDir } from '../../support/helpers.ts';

function open(): { db: Database; close(): void } {
  const dir = tempDir('satchel-fp-batch-');
  const db = Database.open({ dataDir: dir, migrations: [...baseMigrations, ...connectorMigrations] });
  return { db, close: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

const rows = (db: Database, sql: string): unknown[] => db.prepare(sql).all();

test('upsertBatch writes the same documents and postings as upsert one by one, and finds exact texts', () => {
  const one = open();
  const many = open();
  try {
    const items = savedSnippets.map((snippet, i) => ({ id: `asset-${i}`, text: snippet.code }));
    const single = new FingerprintIndex(one.db);
    for (const item of items) single.upsert(item.id, item.text);
    const batch = new FingerprintIndex(many.db);
    batch.upsertBatch(items);
    batch.upsertBatch(items.slice(0, 3));
    for (const sql of ['SELECT asset_id, text_hash, hashes, count FROM connector_fp_docs ORDER BY asset_id', 'SELECT hash, doc FROM connector_fp_postings ORDER BY hash, doc']) {
      assert.deepEqual(rows(many.db, sql), rows(one.db, sql), sql);
    }
    // Enough postings for several full multi-row statements of the batch path and a remainder.
    const postings = (rows(many.db, 'SELECT count(*) AS n FROM connector_fp_postings')[0] as { n: number }).n;
    assert.ok(postings > 300 && postings % 100 !== 0, `${postings} postings`);
    const textOf = (id: string): string | undefined => items.find((item) => item.id === id)?.text;
    assert.equal(batch.hasText(items[4]!.text, textOf), true);
    assert.equal(batch.hasText(`${items[4]!.text} `, textOf), false, 'a different text is not saved');
    assert.equal(batch.hasText('not saved anywhere', textOf), false);
  } finally {
    one.close();
    many.close();
  }
});

test('linkMany links both directions, once, like link', () => {
  const { db, close } = open();
  try {
    const links = new Links(db);
    links.link({ kind: 'asset', id: 'a' }, { kind: 'tag', id: 't1' });
    links.linkMany([
      [{ kind: 'asset', id: 'a' }, { kind: 'tag', id: 't1' }],
      [{ kind: 'asset', id: 'b' }, { kind: 'tag', id: 't1' }],
      [{ kind: 'annotation', id: 'n' }, { kind: 'asset', id: 'b' }],
    ]);
    assert.deepEqual(links.partners({ kind: 'tag', id: 't1' }, 'asset').sort(), ['a', 'b']);
    assert.deepEqual(links.partners({ kind: 'asset', id: 'b' }, 'annotation'), ['n']);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM links').get() as { n: number }).n, 6);
  } finally {
    close();
  }
});
