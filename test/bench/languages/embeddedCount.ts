/**
 * How many windows of a benchmark set the embedded-block label rule (embedded.ts) leaves out, per
 * language: each window's file is read again from the corpus, no classifier is run. RULE=comment
 * counts the comment rule's instead (comments.ts: windows mostly of lines holding no code).
 *
 *   node --experimental-strip-types test/bench/languages/embeddedCount.ts CORPUS SET.json
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readBenchSet, type BenchSnippet } from './benchSet.ts';
import { commentLines } from './comments.ts';
import { insideEmbeddedBlock } from './embedded.ts';
import { usable, usableLines } from './windows.ts';

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
  const window = lines.slice(start, start + length);
  const leftOut =
    process.env['RULE'] === 'comment'
      ? !(snippet.size === 'line' ? usableLines : usable)(window, commentLines(lines, snippet.language).slice(start, start + length))
      : insideEmbeddedBlock(lines, snippet.language, start, length);
  if (!leftOut) continue;
  const counts = affected.get(snippet.language) ?? { short: 0, medium: 0, line: 0 };
  counts[snippet.size]++;
  affected.set(snippet.language, counts);
  total++;
  if (process.env['LIST'] === '1') console.log(`  ${snippet.language} ${snippet.size} ${snippet.source}`);
}
for (const [language, { short, medium, line }] of affected) console.log(`${language}: ${short + medium + line} (short ${short}, medium ${medium}, one to three lines ${line})`);
console.log(`${total} windows ${process.env['RULE'] === 'comment' ? 'mostly comment' : 'inside an embedded block'}`);
