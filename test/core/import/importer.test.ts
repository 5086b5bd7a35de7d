/** The import path in core: fixtures into a real store, duplicates on re-run, cancellation, labels and search. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withCore } from '../../support/helpers.ts';
import { SnippetImporter } from '../../../src/core/import/importer.ts';
import type { ImportSource } from '../../../src/core/import/importSource.ts';
import { BulkWriter } from '../../../src/core/assets/bulkWriter.ts';
import { BatchPreparer } from '../../../src/core/import/batchPreparer.ts';
import type { ChangeEvent } from '../../../src/core/events.ts';
import { TEST_AUTHOR } from '../../support/authors.ts';

const FIXTURES = ['web.code-snippets', 'python.json', 'massCode-db.json', 'pieces-assets.json', 'gist.json', 'gists-list.json', 'unknown.json', 'truncated.json'];

function fixtures(names: readonly string[] = FIXTURES): ImportSource[] {
  return names.map((name) => ({ name, text: () => readFileSync(new URL(`../../fixtures/import/${name}`, import.meta.url), 'utf8') }));
}


test('a template without a language is classified as it inserts, not by its tab stops', async () => {
  await withCore(async (core) => {
    // Raycast's `{cursor}` becomes `$0`, which alone reads as Swift's closure argument.
    const summary = await core.imports.import(fixtures(['raycast.json']));
    assert.equal(summary.imported, 4);
    const language = (name: string): string | undefined => core.assets.list().find((asset) => asset.name === name)?.formats.iterable[0]?.classification.specific;
    const asInserted = (await core.classifier.classify('console.log()')).specific;
    assert.notEqual(asInserted, 'swift');
    assert.equal(language('Console Log'), asInserted);
    assert.equal(language('Commit and Push'), 'sh');
  });
});

test('every fixture imports: assets with their language, tags and description; bad files fail alone with reasons', async () => {
  await withCore(async (core) => {
    const summary = await core.imports.import(fixtures());
    assert.equal(summary.imported, 10);
    assert.equal(summary.duplicates, 0);
    // Broken entry, empty massCode snippet, binary Pieces asset, truncated gist file, content-less listed file, two bad files.
    assert.equal(summary.failed, 7);
    assert.ok(summary.failures.some((f) => f.source === 'unknown.json' && /not a file Satchel imports/.test(f.reason)));
    assert.ok(summary.failures.some((f) => f.source === 'truncated.json' && /not JSON/.test(f.reason)));
    assert.deepEqual(summary.formats, { vscode: 2, masscode: 1, pieces: 1, gist: 2 });
    assert.equal(summary.cancelled, false);
    assert.equal(summary.filesDone, FIXTURES.length);

    const assets = core.assets.list();
    assert.equal(assets.length, 10);
    const byName = new Map(assets.map((a) => [a.name, a]));
    const active = byName.get('Active users')!;
    assert.deepEqual(active.tags?.iterable.map((t) => t.text).sort(), ['Backend', 'SQL', 'reporting']);
    assert.equal(active.formats.iterable[0]?.classification.specific, 'sql');
    assert.equal(byName.get('Fetch JSON')!.formats.iterable[0]?.classification.specific, 'js');
    // Imported assets are found by search, by name, by tag and through the connector's index.
    assert.ok(core.assets.searches.search({ query: 'debounce' }, { transferables: false, pseudo: false }).iterable.some((hit) => hit.asset?.name === 'Debounce'));
    assert.deepEqual(core.assets.labels.assetsTagged('fj'), [byName.get('Fetch JSON')!.id]);
    assert.equal(core.connector.index.size, 10);
    const description = core.context.links.partners({ kind: 'asset', id: byName.get('Debounce')!.id }, 'annotation');
    assert.equal(description.length, 1);
    assert.equal(core.context.records.get<{ text: string }>('annotation', description[0]!)?.text, 'Delays calls until the input settles');
  });
});

test('re-running an import skips every snippet it already wrote, and repeats inside one import', async () => {
  await withCore(async (core) => {
    await core.imports.import(fixtures(['python.json', 'gist.json']));
    const again = await core.imports.import(fixtures(['python.json', 'python.json', 'gist.json']));
    assert.equal(again.imported, 0);
    assert.equal(again.duplicates, 6);
    assert.equal(core.assets.list().length, 4);
    // A snippet saved by hand is a duplicate too (the connector's index knows every asset).
    await core.assets.writes.create({ type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw: 'print("by hand")' } } } } } as never, { author: TEST_AUTHOR });
    const repeated = { 'By hand': { prefix: 'h', body: 'print("by hand")' }, 'Twice A': { prefix: 'a', body: 'x = 1' }, 'Twice B': { prefix: 'b', body: 'x = 1' } };
    const summary = await core.imports.import([{ name: 'py.json', text: () => JSON.stringify(repeated) }]);
    assert.deepEqual([summary.imported, summary.duplicates], [1, 2]);
  });
});

test('batches: progress after each, change events for every new asset, in-memory indexers follow each batch (worker thread)', async () => {
  await withCore(async (core) => {
    const snippets = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`S${i}`, { prefix: `p${i}`, body: `const value${i} = ${i};` }]));
    const changes: ChangeEvent[] = [];
    const listening = core.context.onDidChange((change) => changes.push(change));
    // An indexer of this connection (semantic recall's is one) hears of each batch the worker committed.
    const written: string[][] = [];
    const follower = core.assets.registerIndexer({ upsert: () => assert.fail('the worker wrote the batch'), remove: () => {}, written: (ids) => void written.push([...ids]) });
    const progress: number[] = [];
    const filesDone: number[] = [];
    const heardBeforeProgress: number[] = [];
    const summary = await core.imports.import([{ name: 'typescript.json', text: () => JSON.stringify(snippets) }], {
      batchSize: 10,
      onProgress: (p) => {
        progress.push(p.imported);
        filesDone.push(p.filesDone);
        heardBeforeProgress.push(written.flat().length);
      },
    });
    listening.dispose();
    follower.dispose();
    assert.equal(summary.imported, 25);
    // The file's last batch is written after the file is read (it was being prepared): the file is done with it.
    assert.deepEqual(progress, [10, 20, 25]);
    assert.deepEqual(filesDone, [0, 0, 1]);
    assert.deepEqual(written.map((ids) => ids.length), [10, 10, 5]);
    assert.deepEqual(heardBeforeProgress, [10, 20, 25], 'a batch is adopted before the progress that counts it');
    assert.deepEqual(written.flat().sort(), core.assets.identifiers().sort());
    const created = new Set(changes.filter((c) => c.kind === 'asset').map((c) => c.id));
    assert.deepEqual([...created].sort(), core.assets.identifiers().sort());
    // The labels the worker wrote are in this thread's in-memory label index: a name substring finds them.
    assert.deepEqual(core.assets.searches.search({ query: 'S17' }, { transferables: false, pseudo: false }).iterable.map((hit) => hit.asset?.name), ['S17']);
  });
});

test('on the store\'s own thread (no worker), every registered indexer is written inside each batch\'s transaction', async () => {
  await withCore(async (core) => {
    const snippets = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`S${i}`, { prefix: `p${i}`, body: `const value${i} = ${i};` }]));
    const changes: ChangeEvent[] = [];
    const listening = core.context.onDidChange((change) => changes.push(change));
    const indexed: string[] = [];
    const batched: number[] = [];
    const perAsset = core.assets.registerIndexer({ upsert: (id) => void indexed.push(id), remove: () => {} });
    const perBatch = core.assets.registerIndexer({ upsert: () => assert.fail('a batch indexer gets batches'), remove: () => {}, upsertBatch: (items) => void batched.push(items.length) });
    const progress: number[] = [];
    const summary = await core.imports.import([{ name: 'typescript.json', text: () => JSON.stringify(snippets) }], { batchSize: 10, onProgress: (p) => void progress.push(p.imported) });
    listening.dispose();
    perAsset.dispose();
    perBatch.dispose();
    assert.equal(summary.imported, 25);
    assert.deepEqual(progress, [10, 20, 25]);
    assert.deepEqual(indexed.sort(), core.assets.identifiers().sort());
    assert.deepEqual(batched, [10, 10, 5]);
    assert.equal(new Set(changes.filter((c) => c.kind === 'asset').map((c) => c.id)).size, 25);
  }, { importWorker: false });
});

test('cancellation between batches keeps the batches written and reports cancelled', async () => {
  await withCore(async (core) => {
    const snippets = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`S${i}`, { prefix: `p${i}`, body: `let n${i} = ${i};` }]));
    const stop = new AbortController();
    const pragma = (name: string) => Object.values(core.context.database.db.prepare(`PRAGMA ${name}`).get()!)[0];
    const during: unknown[] = [];
    const summary = await core.imports.import([{ name: 'javascript.json', text: () => JSON.stringify(snippets) }], {
      batchSize: 10,
      signal: stop.signal,
      onProgress: (p) => {
        during.push(pragma('wal_autocheckpoint'));
        if (p.imported >= 20) stop.abort();
      },
    });
    assert.equal(summary.cancelled, true);
    // The worker stops at the first batch boundary after the cancel reaches it: a batch or two later.
    assert.ok(summary.imported >= 20 && summary.imported < 50 && summary.imported % 10 === 0, `${summary.imported} imported`);
    assert.equal(core.assets.identifiers().length, summary.imported);
    // The worker thread keeps checkpointing during the import: SQLite's own checkpoint (inside a
    // commit, on the event loop) stays off. The import's larger page cache is given back when it ends.
    assert.ok(during.length >= 2 && during.every((value) => value === 0), String(during));
    assert.deepEqual([pragma('cache_size'), pragma('wal_autocheckpoint')], [-2000, 0]);
  });
});

test('a snippet whose file names no language is classified', async () => {
  await withCore(async (core) => {
    const body = 'package main\n\nfunc main() {\n\tfmt.Println("hi")\n}\n';
    const summary = await core.imports.import([{ name: 'mixed.code-snippets', text: () => JSON.stringify({ Go: { prefix: 'g', body } }) }]);
    assert.equal(summary.imported, 1);
    const [asset] = core.assets.list();
    // The classifier's answer, not the `txt` an unknown file language would otherwise leave.
    const stored = asset!.formats.iterable[0]!.classification.specific;
    assert.equal(stored, (await core.classifier.classify(body)).specific);
    assert.equal(stored, 'go');
  });
});

test('a snippet named like a file takes the file’s language; a shebang names its interpreter', async () => {
  await withCore(async (core) => {
    // Ruby to read, but the snippet is named for a Python file (a gist's file, a `*.code-snippets` key).
    const snippets = { 'first.py': { prefix: 'f', body: 'def first\n  1\nend\n' }, deploy: { prefix: 'd', body: '#!/usr/bin/env python3\nimport sys\nsys.exit(main())\n' } };
    const summary = await core.imports.import([{ name: 'named.code-snippets', text: () => JSON.stringify(snippets) }]);
    assert.equal(summary.imported, 2);
    const byName = new Map(core.assets.list().map((asset) => [asset.name, asset.formats.iterable[0]!.classification.specific]));
    assert.equal(byName.get('first.py'), 'py');
    assert.equal(byName.get('deploy'), 'py');
  });
});

test('an import gives its assets time-ordered ids, in the order they were written (appends to the id indexes)', async () => {
  await withCore(async (core) => {
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`snippet ${i}`, { prefix: 'p', body: `const value${i} = ${i};` }])));
    const summary = await core.imports.import([{ name: 'many.code-snippets', text: () => text }]);
    assert.equal(summary.imported, 50);
    const ids = core.context.database.db.prepare('SELECT id FROM assets ORDER BY rowid').all().map((row) => String(row.id));
    assert.equal(ids.length, 50);
    assert.ok(ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab]/.test(id)), ids[0]);
    assert.deepEqual([...ids].sort(), ids);
  });
});

test('a cancel during a batch\'s classification stops asking the classifier at once and writes nothing of the batch', async () => {
  await withCore(async (core) => {
    const preparer = new BatchPreparer(false);
    let asked = 0;
    const stop = new AbortController();
    const importer = new SnippetImporter({
      writer: new BulkWriter(core.context, core.assets.bulkTargets()),
      isSaved: () => false,
      classify: async () => {
        if (++asked === 10) stop.abort();
        await new Promise((resolve) => setTimeout(resolve, 5));
        return 'py';
      },
      preparer,
    });
    // No language named: every snippet is asked of the classifier.
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`C${i}`, { prefix: 'c', body: `value_${i} = compute(${i})` }])));
    try {
      const summary = await importer.import([{ name: 'plain.code-snippets', text: () => text }], { batchSize: 500, signal: stop.signal });
      assert.equal(summary.cancelled, true);
      assert.equal(summary.imported, 0);
      assert.ok(asked < 20, `${asked} snippets of the 500-snippet batch were asked of the classifier; the cancel came at the 10th`);
      assert.equal(core.assets.identifiers().length, 0);
    } finally {
      preparer.dispose();
    }
  });
});
