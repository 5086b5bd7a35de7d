/**
 * How many windows of a benchmark set the embedded-block label rule (embedded.ts) leaves out, per
 * language: each window's file is read again from the corpus, no classifier is run.
 *
 *   node --experimental-strip-types test/bench/languages/embeddedCount.ts CORPUS SET.json
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import { insideEmbeddedBlock } from './embedded.ts';

const [corpus, setFile] = process.argv.slice(2);
if (!corpus || !setFile) throw new Error('usage: embeddedCount.ts CORPUS SET.json');
const affected = new Map<string, Record<BenchSnippet['size'], number>>();
let total = 0;
for (const snippet of readBenchSet(setFile)) {
  const colon = snippet.source.lastIndexOf(':');
  const start = Number(snippet.source.slice(colon + 1)) - 1;
  const lines = readFileSync(path.join(corpus, snippet.source.slice(0, colon)), 'utf8').replace(/\r\n?/g, '\n').split('\n');
  const length = snippet.text.split('\n').length - 1;
  if (lines.slice(start, start + length).join('\n') !== snippet.text.slice(0, -1)) throw new Error(`${snippet.source} differs from the corpus`);
  if (!insideEmbeddedBlock(lines, snippet.language, start, length)) continue;
  const counts = affected.get(snippet.language) ?? { short: 0, medium: 0, line: 0 };
  counts[snippet.size]++;
  affected.set(snippet.language, counts);
  total++;
  if (process.env['LIST'] === '1') console.log(`  ${snippet.language} ${snippet.size} ${snippet.source}`);
}
for (const [language, { short, medium, line }] of affected) console.log(`${language}: ${short + medium + line} (short ${short}, medium ${medium}, one to three lines ${line})`);
console.log(`${total} windows inside an embedded block`);
