/**
 * Import throughput: the corpus as VS Code snippet files (5,000 snippets a file, tags as prefixes,
 * the language as scope) imported into a fresh host through POST /satchel/import, the way
 * `satchel import <folder>` sends them; then the same files again, every snippet a duplicate. The
 * host's resident memory is read after the import.
 */
import type { Built } from '../processes.ts';
import { memoryOf, removeDir, startChild, tempDataDir } from '../processes.ts';
import type { Corpus } from '../corpus.ts';
import type { ImportFile } from '../../../src/client/imports.ts';
import { SatchelClient } from '../../../src/client/satchelClient.ts';

export interface ImportFigure {
  readonly assets: number;
  readonly ms: number;
  readonly perSecond: number;
  /** The same files again: every snippet found to be a duplicate. */
  readonly rerunMs: number;
  readonly rssBytes: number;
  readonly peakBytes: number;
  /** Resident memory SETTLE_MS after the re-run: what the host keeps once V8 has collected the import's garbage. */
  readonly settledRssBytes: number;
}

/** V8 gives back a heap that stopped growing after several seconds of idle (its memory reducer). */
const SETTLE_MS = 20_000;

const SNIPPETS_PER_FILE = 5_000;

/** The corpus as VS Code snippet files, SNIPPETS_PER_FILE a file (tags as prefixes, the language as scope). */
export function snippetFiles(corpus: Corpus): ImportFile[] {
  const files: ImportFile[] = [];
  for (let start = 0; start < corpus.assets.length; start += SNIPPETS_PER_FILE) {
    const name = `bench-${files.length + 1}.code-snippets`;
    const entries = corpus.assets.slice(start, start + SNIPPETS_PER_FILE).map((asset) => [
      `${asset.name} · ${asset.key}`,
      { scope: asset.language, prefix: [...asset.tags], body: asset.code },
    ]);
    const content = JSON.stringify(Object.fromEntries(entries));
    files.push({ name, read: async () => ({ name, content }) });
  }
  return files;
}

export async function measureImport(built: Built, corpus: Corpus, hostArgs: (dataDir: string) => string[]): Promise<ImportFigure> {
  const dataDir = tempDataDir();
  const host = await startChild(built.host, hostArgs(dataDir));
  const satchel = new SatchelClient(host.url);
  try {
    const files = snippetFiles(corpus);
    const client = satchel.imports;
    const started = performance.now();
    const summary = await client.importFiles(files);
    const ms = performance.now() - started;
    // The generated corpus may repeat a text; a repeat is skipped as a duplicate, as it should be.
    if (summary.imported + summary.duplicates !== corpus.assets.length || summary.failed > 0) {
      throw new Error(`imported ${summary.imported} of ${corpus.assets.length} (${summary.duplicates} duplicates, ${summary.failed} failed: ${summary.failures[0]?.reason ?? ''})`);
    }
    const memory = memoryOf(host.pid);
    const again = performance.now();
    const rerun = await client.importFiles(files);
    const rerunMs = performance.now() - again;
    if (rerun.imported !== 0 || rerun.duplicates !== corpus.assets.length) throw new Error(`the re-run imported ${rerun.imported} again`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const settled = memoryOf(host.pid);
    return { assets: summary.imported, ms, perSecond: summary.imported / (ms / 1000), rerunMs, rssBytes: memory.rss, peakBytes: memory.peak, settledRssBytes: settled.rss };
  } finally {
    satchel.dispose();
    await host.stop();
    removeDir(dataDir);
  }
}
