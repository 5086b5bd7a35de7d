/**
 * A request's files spooled before an import's session (importSpool.ts): each file's bytes written
 * to the data directory and let go, read where the import runs and removed; what cannot be written
 * stays in memory; an import that stops leaves no file behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, waitFor, withCore } from '../../support/helpers.ts';
import { ImportSpool, SPOOL_FOLDER } from '../../../src/core/import/importSpool.ts';
import { readSpooled } from '../../../src/core/import/spoolFile.ts';
import type { ImportSource } from '../../../src/core/import/importSource.ts';
import type { ImportProcess } from '../../../src/core/import/importProcess.ts';
import { importProcessFor, snippetFileBytes } from '../../support/importSources.ts';
import type { Satchel } from '../../../src/core/satchel.ts';


const spooledFiles = (dataDir: string): string[] => (existsSync(join(dataDir, SPOOL_FOLDER)) ? readdirSync(join(dataDir, SPOOL_FOLDER)) : []);

/** Everything an iterable of sources yields. */
async function all(sources: Iterable<ImportSource> | AsyncIterable<ImportSource>): Promise<ImportSource[]> {
  const out: ImportSource[] = [];
  for await (const source of sources) out.push(source);
  return out;
}

test('each file given as bytes is written and let go, in order; other sources pass as they are; discard removes what is left', async () => {
  const dataDir = tempDir();
  try {
    const events: string[] = [];
    const text: ImportSource = { name: 'read.json', text: () => '{}' };
    const a = snippetFileBytes('a.code-snippets', 3, 0, events);
    const spool = new ImportSpool(dataDir);
    const spooled = await spool.spool([a, text, snippetFileBytes('b.code-snippets', 2, 10, events)]);
    assert.deepEqual(events, ['taken a.code-snippets', 'taken b.code-snippets'], 'each let go once written, before the import begins');
    const out = await all(spooled.sources);
    assert.deepEqual(out.map((source) => source.name), ['a.code-snippets', 'read.json', 'b.code-snippets']);
    assert.equal(out[1], text);
    const first = out[0]!;
    assert.ok('spooled' in first && 'jsonText' in a);
    assert.deepEqual(readFileSync(first.spooled), Buffer.from(a.jsonText));
    assert.deepEqual(spooledFiles(dataDir).length, 2);
    assert.equal(spooled.files.length, 2);
    assert.deepEqual(Buffer.from(await readSpooled(first.spooled)), Buffer.from(a.jsonText));
    assert.equal(existsSync(first.spooled), false, 'a spooled file goes once read');
    await spool.discard(spooled.files);
    assert.deepEqual(spooledFiles(dataDir), []);
    writeFileSync(join(dataDir, SPOOL_FOLDER, 'left.json'), '""');
    spool.clear();
    assert.equal(existsSync(join(dataDir, SPOOL_FOLDER)), false, 'what a stopped process left is cleared');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('where a file cannot be written, it and the rest go as without a spool: read as the import asks, the sources not finished before', async () => {
  const dataDir = tempDir();
  try {
    const events: string[] = [];
    const folder = join(dataDir, SPOOL_FOLDER);
    let finished = false;
    async function* sources(): AsyncGenerator<ImportSource> {
      try {
        yield snippetFileBytes('a.code-snippets', 2, 0, events);
        // The spool's folder can no longer be made: a file holds its name.
        rmSync(folder, { recursive: true, force: true });
        writeFileSync(folder, 'not a folder');
        yield snippetFileBytes('b.code-snippets', 2, 10, events);
        yield snippetFileBytes('c.code-snippets', 2, 20, events);
      } finally {
        // A request's body is let go here (routes/imports.ts): never before the import took every file.
        finished = true;
      }
    }
    const spooled = await new ImportSpool(dataDir).spool(sources());
    assert.deepEqual(events, ['taken a.code-snippets']);
    assert.equal(finished, false, 'the rest is read as the import asks');
    const out = await all(spooled.sources);
    assert.deepEqual(out.map((source) => ('spooled' in source ? 'spooled' : 'jsonText' in source ? 'bytes' : 'other')), ['spooled', 'bytes', 'bytes']);
    assert.equal(finished, true);
    rmSync(folder);
    const stop = new AbortController();
    stop.abort();
    const after = await new ImportSpool(dataDir).spool([snippetFileBytes('d.code-snippets', 2, 0, events)], stop.signal);
    assert.ok('jsonText' in (await all(after.sources))[0]!, 'after the signal, nothing is written');
    assert.deepEqual(spooledFiles(dataDir), []);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** An ImportProcess of `core`'s store with a spool in its data directory, noting when the copy before the session would be taken. */
function spoolingImports(core: Satchel, events: string[], script?: false, gate?: Promise<void>): ImportProcess {
  return importProcessFor(core, {
    beforeSession: async () => {
      events.push('copy of the store');
      await gate;
    },
    adopt: (changes) => core.assets.adoptWritten(changes.flatMap((change) => (change.kind === 'asset' ? [change.id] : []))),
    spool: new ImportSpool(core.dataDir),
    ...(script === false ? { script } : {}),
  });
}

for (const where of ['the import process', 'this process'] as const) {
  test(`spooled, a request's files are let go before the store's copy, read in ${where}, and the spool is empty after`, async () => {
    await withCore(async (core) => {
      const events: string[] = [];
      const imports = spoolingImports(core, events, where === 'this process' ? false : undefined);
      try {
        const summary = await imports.import([snippetFileBytes('a.code-snippets', 300, 0, events), snippetFileBytes('b.code-snippets', 200, 1000, events)], {
          batchSize: 100,
          spool: true,
          onProgress: (progress) => void events.push(`progress ${progress.imported}`),
        });
        assert.deepEqual([summary.imported, summary.failed], [500, 0]);
        assert.deepEqual(events.slice(0, 3), ['taken a.code-snippets', 'taken b.code-snippets', 'copy of the store']);
        assert.equal(core.assets.identifiers().length, 500);
        assert.deepEqual(spooledFiles(core.dataDir), []);
        // Without `spool`, the bytes are taken as the import gets to each file: after the copy.
        events.length = 0;
        await imports.import([snippetFileBytes('c.code-snippets', 10, 5000, events)], { batchSize: 100 });
        assert.deepEqual(events.filter((event) => !event.startsWith('progress')), ['copy of the store', 'taken c.code-snippets']);
      } finally {
        await imports.close();
      }
    });
  });
}

test('an import that stops before it reads its spooled files leaves none behind', async () => {
  await withCore(async (core) => {
    const events: string[] = [];
    const stop = new AbortController();
    const imports = spoolingImports(core, events);
    try {
      const summary = await imports.import([snippetFileBytes('a.code-snippets', 50, 0, events), snippetFileBytes('b.code-snippets', 50, 100, events)], {
        spool: true,
        signal: stop.signal,
        // The first progress stops it: b is never read.
        onProgress: () => stop.abort(),
      });
      assert.equal(summary.cancelled, true);
      assert.ok(summary.filesDone < 2, 'b was never read');
      assert.ok(events.includes('taken b.code-snippets'), 'b was spooled');
      assert.deepEqual(spooledFiles(core.dataDir), []);
    } finally {
      await imports.close();
    }
  });
});

test('imports queued behind another are spooled at once; one cancelled in the queue leaves no file', async () => {
  await withCore(async (core) => {
    const events: string[] = [];
    let open!: () => void;
    const imports = spoolingImports(core, events, undefined, new Promise<void>((resolve) => (open = resolve)));
    const stop = new AbortController();
    const first = imports.import([snippetFileBytes('a.code-snippets', 100, 0, events)], { spool: true });
    let firstDone = false;
    void first.then(() => (firstDone = true));
    const second = imports.import([snippetFileBytes('b.code-snippets', 10, 1000, events)], { spool: true, signal: stop.signal });
    const third = imports.import([snippetFileBytes('c.code-snippets', 10, 2000, events)], { spool: true });
    try {
      // The first waits for the store's copy (held shut here): the others' bodies are let go meanwhile.
      await waitFor(() => events.includes('copy of the store') && events.includes('taken b.code-snippets') && events.includes('taken c.code-snippets'), 5000);
      assert.equal(firstDone, false, 'b and c spooled while a waited for its copy');
      stop.abort();
      assert.equal((await second).cancelled, true);
      open();
      assert.deepEqual([(await first).imported, (await third).imported], [100, 10]);
      await waitFor(() => spooledFiles(core.dataDir).length === 0, 5000);
      assert.equal(core.assets.identifiers().length, 110);
    } finally {
      open();
      await Promise.allSettled([first, second, third]);
      await imports.close();
    }
  });
});
