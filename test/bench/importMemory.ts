/**
 * The host's side of an import of VS Code snippet files (issue 34), in one process: opens the store of
 * a data directory (a copy: the import writes to it), imports `--size` generated snippets (files of
 * 5,000, as bench:day writes them) through the import child process as the host does, and prints this
 * process's RSS, JS heap and external memory at each progress step and after (after a GC, and 30 s on).
 *
 *   cp -r <library> /tmp/lib && ./node_modules/.bin/node --expose-gc --experimental-strip-types \
 *     --disable-warning=ExperimentalWarning test/bench/importMemory.ts /tmp/lib [size]
 */
import { Satchel } from '../../src/core/satchel.ts';
import { generateCorpus } from './corpus.ts';
import { snippetFiles } from './figures/importFigure.ts';
import { ownMemoryLine } from './processes.ts';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: importMemory.ts <data dir (a copy)> [size]');
const size = Number(process.argv[3] ?? 10_000);

function sample(label: string): void {
  console.log(ownMemoryLine(label, 24));
}
const gc = (globalThis as { gc?: () => void }).gc;

const files = await Promise.all(snippetFiles(generateCorpus(size, 7)).map((file) => file.read()));
const satchel = Satchel.open({ dataDir, keepBackups: 0 });
sample('opened');
let step = 0;
const summary = await satchel.imports.import(
  files.map((file) => ({ name: file.name, text: () => ('content' in file ? file.content : '') })),
  { onProgress: () => void (++step % 5 === 0 && sample(`progress ${step}`)) },
);
sample('imported');
gc?.();
sample('imported, after gc');
await new Promise((resolve) => setTimeout(resolve, 30_000));
gc?.();
sample('30 s after, after gc');
console.log(`imported ${summary.imported}, duplicates ${summary.duplicates}`);
await satchel.close();
