/**
 * In-process import cost, for a shared machine where wall time is noisy: imports the benchmark
 * corpus (as VS Code snippet files, like the import figure) straight into core and prints CPU
 * time (the writer's thread alone, and the whole process with the import's worker thread), wall
 * time and assets per second, for the whole import or for the last `--measure` assets
 * after the rest went in unmeasured (the cost into a large store).
 *   node --experimental-strip-types test/bench/importCpu.ts --size 20000 --measure 10000 [--no-worker]
 * With --merge, then times the search index's merge after the import (segmentMerger.ts) and the
 * benchmark's queries before and after it.
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Satchel } from '../../src/core/satchel.ts';
import { generateCorpus } from './corpus.ts';
import { removeDir, tempDataDir } from './processes.ts';
import { SnippetImporter } from '../../src/core/import/importer.ts';
import type { ImportSource } from '../../src/core/import/importSource.ts';
import { BulkWriter } from '../../src/core/assets/bulkWriter.ts';
import { BatchPreparer } from '../../src/core/import/batchPreparer.ts';

const { values } = parseArgs({
  options: { size: { type: 'string', default: '10000' }, measure: { type: 'string' }, tables: { type: 'boolean', default: false }, merge: { type: 'boolean', default: false }, 'no-worker': { type: 'boolean', default: false } },
});
const size = Number(values.size);
const measure = Number(values.measure ?? size);
const corpus = generateCorpus(size);

function files(from: number, to: number): ImportSource[] {
  const out: ImportSource[] = [];
  for (let start = from; start < to; start += 5_000) {
    const entries = corpus.assets.slice(start, Math.min(to, start + 5_000)).map((a) => [`${a.name} · ${a.key}`, { scope: a.language, prefix: [...a.tags], body: a.code }]);
    const text = JSON.stringify(Object.fromEntries(entries));
    out.push({ name: `bench-${start}.code-snippets`, text: () => text });
  }
  return out;
}

/** Bytes this process has written to storage so far (Linux), or 0 where /proc is absent. */
function writtenBytes(): number {
  try {
    return Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const dataDir = tempDataDir();
const core = Satchel.open({ dataDir });
// In this process, so its CPU is this process's (core.imports would run it in a child process):
// the import process's own importer, composed the same way over the store's connection.
const importer = new SnippetImporter({
  writer: new BulkWriter(core.context, core.assets.bulkTargets()),
  isSaved: (text) => core.connector.index.hasText(text, (id) => core.assets.text(id)),
  classify: async (text) => (await core.classifier.classify(text)).specific,
  preparer: values['no-worker'] ? new BatchPreparer(false) : undefined,
});
try {
  if (size > measure) await importer.import(files(0, size - measure));
  const sources = files(size - measure, size);
  const written = writtenBytes();
  const cpu = process.cpuUsage();
  const mainCpu = process.threadCpuUsage();
  const wall = performance.now();
  const summary = await importer.import(sources);
  const used = process.cpuUsage(cpu);
  // The writer's thread is the bottleneck; process.cpuUsage also counts the import's worker thread.
  const main = process.threadCpuUsage(mainCpu);
  const mainMs = (main.user + main.system) / 1000;
  const ms = performance.now() - wall;
  const pagesPerAsset = (writtenBytes() - written) / 4096 / Math.max(1, summary.imported);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(JSON.stringify({
    store: size - measure, imported: summary.imported, wallMs: Math.round(ms), cpuMs: Math.round(cpuMs),
    userMs: Math.round(used.user / 1000), sysMs: Math.round(used.system / 1000),
    worker: !values['no-worker'], mainThreadCpuMs: Math.round(mainMs), mainCpuMsPerAsset: +(mainMs / summary.imported).toFixed(3),
    cpuMsPerAsset: +(cpuMs / summary.imported).toFixed(3), perSecondWall: Math.round(summary.imported / (ms / 1000)),
    perSecondCpu: Math.round(summary.imported / (cpuMs / 1000)), pagesWrittenPerAsset: +pagesPerAsset.toFixed(1), load: loadavg().map((l) => +l.toFixed(2)),
  }));
  if (values.merge) {
    const queries = corpus.queries.slice(0, 50);
    const searchMs = (): number => {
      const started = performance.now();
      for (const { query } of queries) core.assets.searches.search({ query }, { transferables: false, pseudo: false });
      return (performance.now() - started) / queries.length;
    };
    const before = searchMs();
    const merging = performance.now();
    await importer.merged();
    const mergeMs = performance.now() - merging;
    console.log(JSON.stringify({ searchMsPerQueryBeforeMerge: +before.toFixed(2), mergeMs: Math.round(mergeMs), searchMsPerQueryAfterMerge: +searchMs().toFixed(2) }));
  }
  if (values.tables) {
    // Pages per table and index: what a batch's random-key inserts are spread over.
    const rows = core.context.database.db.prepare('SELECT name, count(*) AS pages FROM dbstat GROUP BY name ORDER BY pages DESC LIMIT 15').all();
    console.log(rows.map((r) => `${String(r.name)} ${String(r.pages)}`).join('\n'));
  }
} finally {
  await core.close();
  removeDir(dataDir);
}
