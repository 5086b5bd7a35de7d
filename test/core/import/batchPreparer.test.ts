/**
 * Imports prepare each batch's derived rows on a worker thread: the stores it makes are the same
 * as the in-thread computation's, a worker that cannot start falls back, and a repeat of a snippet
 * in the batch being prepared is still caught.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Satchel } from '../../../src/core/satchel.ts';
import { BatchPreparer } from '../../../src/core/import/batchPreparer.ts';
import { prepareAsset, type PreparedAsset } from '../../../src/core/import/preparedAsset.ts';
import { indexedDocument } from '../../../src/core/search/indexedDocument.ts';
import { wordIndexText } from '../../../src/core/search/tokens.ts';
import { defaultFingerprintOptions, fingerprints } from '../../../src/core/connector/fingerprint.ts';
import { textHash } from '../../../src/core/connector/fingerprint.ts';
import type { ImportSource } from '../../../src/core/import/importSource.ts';
import { withCore } from '../../support/helpers.ts';

const TEXTS = [
  'export function parseHeaderLine(line: string) { return line.split(":").map((part) => part.trim()); }',
  'def fetch_user_profile(user_id):\n    return session.get(f"/users/{user_id}").json()',
  'x',
  '',
  `${'AAAA'.repeat(5000)} camelCaseIdentifier snake_case_identifier`,
];

function snippetFile(name: string, count: number, text: (i: number) => string): ImportSource {
  const body = Object.fromEntries(Array.from({ length: count }, (_, i) => [`S${i}`, { prefix: [`tag${i % 3}`], body: text(i) }]));
  return { name, text: () => JSON.stringify(body) };
}

function corpus(): ImportSource[] {
  const text = (i: number) => `function handler${i}(request, response) {\n  const value_${i} = request.body.items[${i % 7}];\n  return response.send(${TEXTS[i % 2]!.length} + value_${i});\n}`;
  return [snippetFile('a.code-snippets', 60, text), snippetFile('b.code-snippets', 45, (i) => `${text(i + 60)}\n// ${TEXTS[i % TEXTS.length]}`)];
}


/** Everything an import stores that is derived from the snippets, without ids and timestamps. */
function storedRows(core: Satchel): Record<string, unknown[]> {
  const db = core.context.database.db;
  for (const table of ['asset_nt', 'asset_cd']) db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_inst USING fts5vocab(main, '${table}', 'instance')`);
  const all = (sql: string) => db.prepare(sql).all().map((row) => ({ ...row }));
  return {
    assets: all('SELECT rowid, name, language, keywords, pseudo, suggested FROM assets ORDER BY rowid'),
    texts: all("SELECT rowid, json_extract(data, '$.formats.iterable[0].fragment.string.raw') AS text FROM assets ORDER BY rowid"),
    labels: all('SELECT rowid, label FROM asset_labels ORDER BY rowid'),
    nameTags: all('SELECT term, doc, col, offset FROM temp.asset_nt_inst ORDER BY doc, col, offset, term'),
    words: all('SELECT term, doc, offset FROM temp.asset_cd_inst ORDER BY doc, offset, term'),
    fingerprintDocs: all('SELECT d.text_hash, hex(d.hashes) AS hashes, d.count, a.rowid FROM connector_fp_docs d JOIN assets a ON a.id = d.asset_id ORDER BY a.rowid'),
    postings: all('SELECT p.hash, a.rowid FROM connector_fp_postings p JOIN connector_fp_docs d ON d.doc = p.doc JOIN assets a ON a.id = d.asset_id ORDER BY p.hash, a.rowid'),
  };
}

/** Prepared rows compared as text (typed arrays included): a structural diff of long texts takes minutes to print. */
function assertSamePrepared(actual: readonly PreparedAsset[], expected: readonly PreparedAsset[], message: string): void {
  const text = (rows: readonly PreparedAsset[]) => JSON.stringify(rows.map((row) => ({ ...row, fingerprint: { ...row.fingerprint, hashes: Array.from(row.fingerprint.hashes) } })));
  assert.ok(text(actual) === text(expected), message);
}

test('prepareAsset makes what the writer would make in-thread', () => {
  for (const text of TEXTS) {
    const document = indexedDocument('n', 't', text);
    const prepared = prepareAsset(text);
    assert.equal(prepared.identifiers, document.identifiers);
    assert.equal(prepared.wordText, wordIndexText(text, document.wordIdentifiers));
    assert.equal(prepared.fingerprint.identity, textHash(text));
    assert.deepEqual(prepared.fingerprint.hashes, fingerprints(text, defaultFingerprintOptions));
  }
});

test('the worker thread answers with the in-thread results, batches in order', async () => {
  const preparer = new BatchPreparer();
  try {
    assert.equal(preparer.threaded, true);
    const [first, second] = await Promise.all([preparer.prepare(TEXTS), preparer.prepare(TEXTS.slice(0, 2))]);
    assert.equal(preparer.threaded, true, 'the worker is still attached');
    assert.equal(preparer.fallbacks, 0, 'no batch was computed in-thread');
    assertSamePrepared(first, TEXTS.map(prepareAsset), 'first batch');
    assertSamePrepared(second, TEXTS.slice(0, 2).map(prepareAsset), 'second batch');
  } finally {
    preparer.dispose();
  }
});

test('a worker that cannot start falls back to in-thread computation', async () => {
  const preparer = new BatchPreparer(new URL('./no-such-worker.cjs', import.meta.url));
  try {
    assertSamePrepared(await preparer.prepare(TEXTS), TEXTS.map(prepareAsset), 'first batch');
    assert.equal(preparer.threaded, false);
    assertSamePrepared(await preparer.prepare(TEXTS.slice(1)), TEXTS.slice(1).map(prepareAsset), 'second batch');
  } finally {
    preparer.dispose();
  }
});

test('an import stores the same rows with and without the worker thread', async () => {
  const run = (importWorker: boolean) =>
    withCore(async (core) => {
      const summary = await core.imports.import(corpus(), { batchSize: 20 });
      return { imported: summary.imported, duplicates: summary.duplicates, filesDone: summary.filesDone, rows: storedRows(core) };
    }, { importWorker });
  const threaded = await run(true);
  const inThread = await run(false);
  assert.equal(threaded.imported, 105);
  assert.equal(threaded.filesDone, 2);
  assert.deepEqual([inThread.imported, inThread.duplicates, inThread.filesDone], [threaded.imported, threaded.duplicates, threaded.filesDone]);
  for (const [table, rows] of Object.entries(threaded.rows)) {
    assert.ok(rows.length > 0, `${table} holds rows`);
    // Compared as text: a structural diff of thousands of rows takes minutes to print.
    assert.ok(JSON.stringify(rows) === JSON.stringify(inThread.rows[table]), `${table} differs with the worker`);
  }
});

test('a repeat of a snippet in the batch being prepared is a duplicate', async () => {
  await withCore(async (core) => {
    // Batches of 10: snippet i + 10 repeats snippet i while batch 1 is still being prepared.
    const summary = await core.imports.import([snippetFile('r.code-snippets', 30, (i) => `const repeated${i % 15} = ${i % 15};`)], { batchSize: 10 });
    assert.equal(summary.imported, 15);
    assert.equal(summary.duplicates, 15);
    assert.equal(core.assets.identifiers().length, 15);
  });
});
