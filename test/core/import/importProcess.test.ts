/**
 * Imports run in a child process with its own connection: the store's own connection commits none
 * of the batches, the child is gone once the imports are done, a child that dies fails only the
 * import it held, and a store closing during an import waits for the child and keeps whole batches.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Satchel } from '../../../src/core/satchel.ts';
import { tempDir, waitFor, withCore } from '../../support/helpers.ts';
import { isAlive } from '../../support/processes.ts';
import { ImportProcess, type ChildScript } from '../../../src/core/import/importProcess.ts';
import { importProcessFor, snippetFile, snippetFileBytes } from '../../support/importSources.ts';
import { SOURCE_PIECE_BYTES } from '../../../src/core/import/importProtocol.ts';
import { DATA_HOST_NODE_FLAGS, NO_NODE_FLAGS_ENV, dataHostNodeFlags } from '../../../src/core/hostNodeFlags.ts';




test('the batches are written by a child process: none commits on the store\'s own connection, and the child ends with the imports', async () => {
  await withCore(async (core) => {
    const database = core.context.database;
    // Turns FTS5's automerge off up front: the import's own deferral then has nothing to write here.
    const deferral = core.assets.deferMerging();
    const original = database.transaction.bind(database);
    let ownTransactions = 0;
    database.transaction = (fn) => {
      ownTransactions++;
      return original(fn);
    };
    const pids = new Set<number>();
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open 'gone.json'"), { code: 'ENOENT', syscall: 'open' });
    let summary;
    try {
      summary = await core.imports.import([snippetFile('a.code-snippets', 1500), { name: 'gone.json', text: () => Promise.reject(missing) }, snippetFile('b.code-snippets', 500, 1500)], {
        batchSize: 250,
        onProgress: () => void pids.add(core.imports.pid ?? -1),
      });
    } finally {
      database.transaction = original;
      deferral.dispose();
    }
    assert.deepEqual([summary.imported, summary.failed, summary.filesDone], [2000, 1, 3]);
    assert.ok(summary.failures.some((failure) => failure.source === 'gone.json' && /ENOENT/.test(failure.reason)), JSON.stringify(summary.failures));
    assert.equal(ownTransactions, 0, 'the store\'s connection committed none of the batches');
    assert.equal(pids.size, 1);
    const [pid] = [...pids];
    assert.ok(pid !== undefined && pid > 0 && pid !== process.pid);
    await waitFor(() => !isAlive(pid), 5000); // the import process ended after the import
    assert.equal(core.assets.identifiers().length, 2000);
    assert.equal(core.connector.index.size, 2000);
  });
});

test('a child that dies mid-import fails that import with the reason; its batches stay and the next import completes the rest', async () => {
  await withCore(async (core) => {
    let killed = false;
    const failed = await core.imports
      .import([snippetFile('a.code-snippets', 3000)], {
        batchSize: 100,
        onProgress: (progress) => {
          if (progress.imported >= 300 && !killed) {
            killed = true;
            process.kill(core.imports.pid!, 'SIGKILL');
          }
        },
      })
      .then(
        () => undefined,
        (error: Error) => error,
      );
    assert.match(String(failed?.message), /import process was killed by SIGKILL/);
    const stored = core.assets.identifiers().length;
    assert.ok(stored >= 300 && stored < 3000 && stored % 100 === 0, `${stored} stored`);
    const rest = await core.imports.import([snippetFile('a.code-snippets', 3000)]);
    assert.deepEqual([rest.imported, rest.duplicates], [3000 - stored, stored]);
    assert.equal(core.assets.identifiers().length, 3000);
  });
});

test('closing the store during an import fails it, waits for the child, and leaves whole batches', async () => {
  const dataDir = tempDir();
  try {
    const core = Satchel.open({ dataDir });
    let pid: number | undefined;
    let closing: Promise<void> | undefined;
    const outcome = core.imports
      .import([snippetFile('a.code-snippets', 3000)], {
        batchSize: 100,
        onProgress: (progress) => {
          pid ??= core.imports.pid;
          if (progress.imported >= 200) closing ??= core.close();
        },
      })
      .then(
        () => 'finished',
        (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
      );
    // An expected end (a domain error: no stack in the log, 503 for the client), not a failure.
    assert.equal(await outcome, 'unavailable: Satchel is closing; the import stopped between batches (what it wrote stays).');
    await closing;
    assert.ok(pid !== undefined && !isAlive(pid), 'the child had exited when close resolved');
    const again = Satchel.open({ dataDir });
    try {
      const stored = again.assets.identifiers().length;
      assert.ok(stored >= 200 && stored < 3000 && stored % 100 === 0, `${stored} stored`);
      assert.equal(again.context.database.integrityCheck(), 'ok');
    } finally {
      await again.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * An ImportProcess of `core`'s store whose child runs `script`, a stand-in that ends before it is
 * ready: the imports then run in this process, which writes them.
 */
function importsWithChild(core: Satchel, script: ChildScript, warn: (message: string) => void = () => {}): ImportProcess {
  return importProcessFor(core, { script, logger: { info() {}, warn, error() {} } });
}

test('a child that cannot open the store (ends before it is ready): the import runs in this process instead, and the next ones too', async () => {
  await withCore(async (core) => {
    const script = join(tempDir(), 'broken.cjs');
    writeFileSync(script, "process.stderr.write('no SQLite here\\n'); process.exit(3);\n");
    const warnings: string[] = [];
    const imports = importsWithChild(core, { path: script, execArgv: [] }, (message) => void warnings.push(message));
    const first = await imports.import([snippetFile('a.code-snippets', 40)]);
    assert.equal(first.imported, 40);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /exited with code 3 before it started: no SQLite here; importing in this process instead/);
    const second = await imports.import([snippetFile('b.code-snippets', 10, 40)]);
    assert.equal(second.imported, 10);
    assert.equal(warnings.length, 1, 'no second attempt to start the child');
    assert.equal(core.assets.identifiers().length, 50);
    await imports.close();
  });
});

test("the import process is started with the data host's V8 flags, the script's own after them", async () => {
  await withCore(async (core) => {
    const dir = tempDir();
    const script = join(dir, 'flags.cjs');
    const out = join(dir, 'execArgv.json');
    // A stand-in child: it writes the Node flags it was given and ends before it is ready (the import then runs here).
    writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.execArgv)); process.exit(3);\n`);
    const imports = importsWithChild(core, { path: script, execArgv: ['--max-semi-space-size=8'] });
    assert.equal((await imports.import([snippetFile('a.code-snippets', 5)])).imported, 5);
    await imports.close();
    assert.deepEqual(DATA_HOST_NODE_FLAGS, ['--max-semi-space-size=2', '--heap-growing-percent=20']);
    assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), [...DATA_HOST_NODE_FLAGS, '--max-semi-space-size=8']);
  });
});

test('a host started without the V8 flags (its runtime refused them) forks its import process without them too', async () => {
  assert.deepEqual(dataHostNodeFlags({ [NO_NODE_FLAGS_ENV]: '1' }), []);
  assert.deepEqual(dataHostNodeFlags({}), DATA_HOST_NODE_FLAGS);
  const before = process.env[NO_NODE_FLAGS_ENV];
  process.env[NO_NODE_FLAGS_ENV] = '1';
  try {
    await withCore(async (core) => {
      const dir = tempDir();
      const script = join(dir, 'flags.cjs');
      const out = join(dir, 'execArgv.json');
      writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.execArgv)); process.exit(3);\n`);
      const imports = importsWithChild(core, { path: script, execArgv: [] });
      assert.equal((await imports.import([snippetFile('a.code-snippets', 5)])).imported, 5);
      await imports.close();
      assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), []);
    });
  } finally {
    if (before === undefined) delete process.env[NO_NODE_FLAGS_ENV];
    else process.env[NO_NODE_FLAGS_ENV] = before;
  }
});

test('an import cancelled while it waits its turn settles at once: its files are never read, and the queue goes on', async () => {
  await withCore(async (core) => {
    let frontDone = false;
    const front = core.imports.import([snippetFile('front.code-snippets', 3000)], { batchSize: 100 }).then((summary) => {
      frontDone = true;
      return summary;
    });
    let read = 0;
    const stop = new AbortController();
    const queued = core.imports.import([{ name: 'queued.code-snippets', text: () => (read++, '{}') }], { signal: stop.signal, files: 1 });
    const after = core.imports.import([snippetFile('after.code-snippets', 10, 6000)]);
    stop.abort();
    const summary = await queued;
    assert.equal(frontDone, false, 'answered before the import in front of it ended');
    assert.deepEqual([summary.cancelled, summary.imported, summary.files], [true, 0, 1]);
    assert.equal((await front).imported, 3000);
    assert.equal((await after).imported, 10, 'the import behind it ran in turn');
    assert.equal(read, 0, 'its file was never read');
    assert.equal(core.assets.identifiers().length, 3010);
  });
});


test('a file given as its JSON string\'s bytes is decoded where the import runs, and let go of once taken: before its batches are written', async () => {
  await withCore(async (core) => {
    const events: string[] = [];
    const summary = await core.imports.import([snippetFileBytes('a.code-snippets', 1200, 0, events), { name: 'bad.json', jsonText: Buffer.from('"unterminated') }, snippetFileBytes('b.code-snippets', 300, 2000, events)], {
      batchSize: 250,
      onProgress: (progress) => void events.push(`progress ${progress.imported}`),
    });
    assert.deepEqual([summary.imported, summary.failed, summary.filesDone], [1500, 1, 3]);
    assert.ok(summary.failures.some((failure) => failure.source === 'bad.json' && /not a JSON string/.test(failure.reason)), JSON.stringify(summary.failures));
    assert.equal(events[0], 'taken a.code-snippets', 'taken before any batch of it was written');
    assert.ok(events.indexOf('taken b.code-snippets') < events.findIndex((event) => /^progress (1[3-9]\d\d|1500)$/.test(event)));
    assert.equal(core.assets.identifiers().length, 1500);
  });
});

test('in this process too (no child): the bytes are decoded as the import gets to the file, and taken then', async () => {
  await withCore(async (core) => {
    const imports = importProcessFor(core, { script: false });
    const events: string[] = [];
    const summary = await imports.import([snippetFileBytes('a.code-snippets', 300, 0, events), snippetFileBytes('b.code-snippets', 200, 1000, events)], {
      batchSize: 100,
      onProgress: (progress) => void events.push(`progress ${progress.imported}`),
    });
    assert.equal(summary.imported, 500);
    assert.equal(events[0], 'taken a.code-snippets');
    assert.ok(events.indexOf('taken b.code-snippets') > events.indexOf('progress 200'), 'b is decoded when the import gets to it');
    await imports.close();
  });
});

test('a file\'s bytes larger than a piece cross to the child in pieces and arrive whole', async () => {
  await withCore(async (core) => {
    const events: string[] = [];
    const large = snippetFileBytes('large.code-snippets', 9000, 0, events);
    assert.ok('jsonText' in large && large.jsonText.length > 2 * SOURCE_PIECE_BYTES, 'three pieces at least');
    const summary = await core.imports.import([large, snippetFileBytes('small.code-snippets', 10, 20_000, events)], { batchSize: 1000 });
    assert.deepEqual([summary.imported, summary.failed], [9010, 0]);
    assert.deepEqual(events, ['taken large.code-snippets', 'taken small.code-snippets'], 'each taken once, after its last piece');
    assert.equal(core.assets.identifiers().length, 9010);
  });
});
