import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../../src/core/store/database.ts';
import { baseMigrations } from '../../../src/core/store/baseSchema.ts';
import { applicationMigrations } from '../../../src/core/applications/schema.ts';
import { connectorMigrations } from '../../../src/core/connector/schema.ts';
import type { Migration } from '../../../src/core/store/migrations.ts';
import { FingerprintIndex, postedSample, BOTTOM_K, SAMPLE_MODULUS } from '../../../src/core/connector/fingerprintIndex.ts';
import { fingerprints } from '../../../src/core/connector/fingerprint.ts';
import { savedSnippets, unrelatedSnippets, partialOf } from '../../support/snippetFixture.ts';

function open(): { db: Database; index: FingerprintIndex; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'satchel-fp-'));
  const db = Database.open({ dataDir: dir, migrations: [...baseMigrations, ...connectorMigrations] });
  return { db, index: new FingerprintIndex(db), close: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

const opts = { minScore: 0.5, limit: 5 };

test('upsert, query, replace and remove keep docs and postings exact', () => {
  const { db, index, close } = open();
  try {
    const [a, b] = savedSnippets;
    index.upsert('a', a!.code);
    index.upsert('b', b!.code);
    assert.equal(index.query(fingerprints(a!.code), opts)[0]?.assetId, 'a');
    assert.equal(index.query(fingerprints(partialOf(b!.code)), opts)[0]?.assetId, 'b');
    index.upsert('a', unrelatedSnippets[0]!.code);
    assert.equal(index.query(fingerprints(a!.code), opts).length, 0, 'the old text of a replaced asset no longer matches');
    index.remove('a');
    index.remove('b');
    index.remove('missing');
    const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.deepEqual([count('connector_fp_docs'), count('connector_fp_postings')], [0, 0]);
  } finally {
    close();
  }
});

test('a snippet too short to fingerprint is recorded (empty) and matches nothing', () => {
  const { index, close } = open();
  try {
    index.upsert('tiny', 'SELECT 1;');
    assert.equal(index.has('tiny'), true);
    assert.deepEqual(index.query(fingerprints('SELECT 1;'), opts), []);
    index.remove('tiny');
    assert.equal(index.has('tiny'), false);
  } finally {
    close();
  }
});

test('index writes roll back with the transaction they belong to', () => {
  const { db, index, close } = open();
  try {
    assert.throws(() =>
      db.transaction(() => {
        index.upsert('a', savedSnippets[0]!.code);
        throw new Error('asset write failed');
      }),
    );
    assert.equal(index.has('a'), false);
    assert.equal(index.query(fingerprints(savedSnippets[0]!.code), opts).length, 0);
  } finally {
    close();
  }
});

test('rebuild only refingerprints changed or new assets and drops the ones that are gone', () => {
  const { db, index, close } = open();
  try {
    index.upsert('keep', savedSnippets[0]!.code);
    index.upsert('change', savedSnippets[1]!.code);
    index.upsert('gone', savedSnippets[2]!.code);
    const docOf = (id: string) => (db.prepare('SELECT doc FROM connector_fp_docs WHERE asset_id = ?').get(id) as { doc: number } | undefined)?.doc;
    const keptDoc = docOf('keep');
    index.rebuild([
      { id: 'keep', text: savedSnippets[0]!.code },
      { id: 'change', text: savedSnippets[3]!.code },
      { id: 'new', text: savedSnippets[4]!.code },
    ]);
    assert.equal(docOf('keep'), keptDoc, 'an unchanged asset is left alone');
    index.upsert('keep', savedSnippets[0]!.code);
    assert.equal(docOf('keep'), keptDoc, 'an upsert with the same text (a rename) is not fingerprinted again');
    assert.equal(index.has('gone'), false);
    assert.equal(index.query(fingerprints(savedSnippets[3]!.code), opts)[0]?.assetId, 'change');
    assert.equal(index.query(fingerprints(savedSnippets[4]!.code), opts)[0]?.assetId, 'new');
    assert.equal(index.query(fingerprints(savedSnippets[1]!.code), opts).length, 0);
  } finally {
    close();
  }
});

test('partial copies are found among a large synthetic corpus (query times printed, not asserted)', () => {
  // SATCHEL_INDEX_SIZE=100000 reproduces the figure in the report; the default keeps the suite quick.
  const size = Number(process.env.SATCHEL_INDEX_SIZE ?? 2000);
  const { db, index, close } = open();
  try {
    db.db.exec('PRAGMA synchronous = OFF');
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0) >>> 0) / 2 ** 32;
    const words = Array.from({ length: 4000 }, (_, i) => ['count', 'value', 'item', 'user', 'config', 'list'][i % 6]! + i.toString(36));
    const word = () => words[Math.floor(random() ** 2 * words.length)]!;
    const snippet = () => {
      const lines = [`function ${word()}(${word()}, ${word()}) {`];
      for (let i = 0, n = 5 + Math.floor(random() * 20); i < n; i++) {
        const r = random();
        if (r < 0.4) lines.push(`  const ${word()} = ${word()}.${word()}(${word()}, ${Math.floor(random() * 100)});`);
        else if (r < 0.7) lines.push(`  if (${word()} > ${word()}) return ${word()};`);
        else lines.push(`  for (const ${word()} of ${word()}) ${word()}.push(${word()});`);
      }
      return lines.concat('}').join('\n');
    };
    const kept: string[] = [];
    const started = performance.now();
    db.transaction(() => {
      for (let i = 0; i < size; i++) {
        const text = snippet();
        if (i < 200) kept.push(text);
        index.upsert(`a${i}`, text);
      }
    });
    const buildSeconds = (performance.now() - started) / 1000;
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < 400; i++) {
      const query = i % 2 === 0 ? fingerprints(partialOf(kept[i % 200]!)) : fingerprints(snippet());
      const t = performance.now();
      const matches = index.query(query, opts);
      times.push(performance.now() - t);
      if (i % 2 === 0 && matches[0]?.assetId === `a${i % 200}`) found++;
    }
    times.sort((x, y) => x - y);
    const p50 = times[200]!;
    const p95 = times[380]!;
    console.log(`fingerprint index: ${size} snippets built in ${buildSeconds.toFixed(1)} s; query p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms; partial copies found ${found}/200`);
    assert.ok(found >= 190, `partial copies found ${found}/200`);
  } finally {
    close();
  }
});

test('only a content-defined sample is posted: every fingerprint ≡ 0 mod the modulus plus the smallest few', () => {
  const hashes = fingerprints(savedSnippets[0]!.code);
  const posted = postedSample(hashes);
  const expected = Array.from(hashes).filter((hash, i) => i < BOTTOM_K || (hash & (SAMPLE_MODULUS - 1)) === 0);
  assert.deepEqual(Array.from(posted), expected);
  assert.ok(posted.length < hashes.length / 2, `${posted.length} of ${hashes.length} posted`);
  const short = new Int32Array([-9, 3, 5]);
  assert.deepEqual(Array.from(postedSample(short)), [-9, 3, 5], 'a short document posts all its fingerprints');
});

/** The fingerprint tables as the first release made them (in the applications area's version 3). */
const firstLayout: Migration = {
  version: 3,
  name: 'first connector layout',
  up(db) {
    db.exec(`
      CREATE TABLE connector_fp_docs (doc INTEGER PRIMARY KEY, asset_id TEXT NOT NULL UNIQUE, text_hash TEXT NOT NULL, hashes BLOB NOT NULL, count INTEGER NOT NULL);
      CREATE TABLE connector_fp_postings (hash INTEGER NOT NULL, doc INTEGER NOT NULL, PRIMARY KEY (hash, doc)) WITHOUT ROWID;
      CREATE TABLE connector_fp_df (hash INTEGER PRIMARY KEY, df INTEGER NOT NULL);
    `);
  },
};

test('upgrading a store that posted every fingerprint keeps the docs and re-posts the sample', () => {
  const dir = mkdtempSync(join(tmpdir(), 'satchel-fp-'));
  try {
    const hashes = fingerprints(savedSnippets[1]!.code);
    const old = Database.open({ dataDir: dir, migrations: [...baseMigrations, firstLayout] });
    old.db.prepare("INSERT INTO connector_fp_docs (doc, asset_id, text_hash, hashes, count) VALUES (1, 'a', 'x', ?, ?)").run(
      new Uint8Array(hashes.buffer), hashes.length);
    for (const hash of hashes) {
      old.db.prepare('INSERT INTO connector_fp_postings (hash, doc) VALUES (?, 1)').run(hash);
      old.db.prepare('INSERT INTO connector_fp_df (hash, df) VALUES (?, 1)').run(hash);
    }
    old.close();
    // The first layout was applied as version 3, which the applications area still knows.
    const db = Database.open({ dataDir: dir, migrations: [...baseMigrations, ...applicationMigrations, ...connectorMigrations] });
    try {
      const rows = db.prepare('SELECT hash FROM connector_fp_postings ORDER BY hash').all() as Array<{ hash: number }>;
      assert.deepEqual(rows.map((r) => r.hash), Array.from(postedSample(hashes)));
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE name = 'connector_fp_df'").all();
      assert.equal(tables.length, 0);
      assert.equal(new FingerprintIndex(db).query(hashes, opts)[0]?.assetId, 'a');
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
