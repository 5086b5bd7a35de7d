/**
 * How long the data host's event loop is held while an import body is checked (src/server/importBody.ts):
 * the day's first snippet file (5,000 snippets, 9.4 MB as the client sends it) read `--runs` times,
 * each with the total time and the longest turn of the event loop while it was read.
 *
 *   ./node_modules/.bin/node --experimental-strip-types --disable-warning=ExperimentalWarning test/bench/importBodyRead.ts [--runs=4]
 */
import { parseArgs } from 'node:util';
import { generateCorpus } from './corpus.ts';
import { snippetFiles } from './figures/importFigure.ts';
import { importJsonPieces } from '../../src/client/importPieces.ts';
import { importBodySkeleton } from '../../src/server/importBody.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '4' } } });
const [first] = snippetFiles(generateCorpus(10_000, 7));
const read = await first!.read();
if (!('content' in read)) throw new Error('the corpus file was not read');
let text = '';
for await (const piece of importJsonPieces({ files: [{ name: read.name, content: read.content }] })) text += piece;
const raw = Buffer.from(text);
for (let run = 0; run < Number(values.runs); run++) {
  let longest = 0;
  let last = performance.now();
  let reading = true;
  const turn = (): void => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (reading) setImmediate(turn);
  };
  setImmediate(turn);
  const started = performance.now();
  const skeleton = await importBodySkeleton(raw);
  const ms = performance.now() - started;
  reading = false;
  if (skeleton === undefined) throw new Error('the body was not read');
  console.log(`${raw.length} bytes read in ${ms.toFixed(1)} ms; longest turn of the event loop ${longest.toFixed(1)} ms`);
}
