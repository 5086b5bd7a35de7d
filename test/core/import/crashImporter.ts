/**
 * Child process of crash.test.ts: imports argv[3] generated snippets into the data directory argv[2]
 * in batches of argv[4], printing the import process's pid and the imported count after each
 * batch. The test kills it mid-import.
 */
import { Satchel } from '../../../src/core/satchel.ts';

const [dataDir, total, batch] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4])];
const core = Satchel.open({ dataDir });
const snippets = Object.fromEntries(
  Array.from({ length: total }, (_, i) => [`Crash ${i}`, { prefix: `k${i}`, body: `export const crash${i} = ${i}; // ${'x'.repeat(i % 200)}` }]),
);
await core.imports.import([{ name: 'typescript.json', text: () => JSON.stringify(snippets) }], {
  batchSize: batch,
  onProgress: (progress) => process.stdout.write(`${core.imports.pid ?? 0} ${progress.imported}\n`),
});
process.stdout.write('done\n');
