/**
 * Measures the centre the built-in sentence encoder's vectors are moved by (encoderCentre.ts): the
 * mean direction of its vectors over a reference corpus of real code that has nothing to do with
 * the benchmark's, read as the encoder reads snippets (wordsText): JavaScript from the libraries
 * Satchel depends on, cut into snippet-sized pieces, and highlight.js's grammars of 190 languages.
 *
 *   node --experimental-strip-types scripts/encoderCentre.ts   (writes src/core/models/encoderCentre.json)
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EncoderProcess } from '../src/core/models/encoderProcess.ts';
import { encoderFiles } from '../src/core/models/encoderFiles.ts';
import { ENCODER_MAX_TOKENS } from '../src/core/models/catalog.ts';
import { wordsText } from '../src/core/search/embeddedText.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const modules = path.join(root, 'node_modules');
/** Library sources cut into pieces of this many lines, as snippets are. */
const PIECE_LINES = 25;
/** Pieces embedded, evenly spread over all of them: a mean of unit vectors settles long before (±0.01 per dimension). */
const PIECES = 1200;
const SOURCES = ['undici/lib', 'koa/lib', 'ws/lib', 'zod/v4/core', '@modelcontextprotocol/sdk/dist/esm/server', 'highlight.js/lib/languages'];

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...files(full));
    else if (/\.js$/.test(name) && !/\.min\.js$/.test(name)) out.push(full);
  }
  return out;
}

function pieces(): string[] {
  const texts: string[] = [];
  for (const source of SOURCES) {
    for (const file of files(path.join(modules, source))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      const name = path.basename(file, '.js');
      for (let at = 0; at < lines.length; at += PIECE_LINES) {
        const text = wordsText(name, [], lines.slice(at, at + PIECE_LINES).join('\n'));
        // A piece of only braces and imports says nothing a snippet would.
        if (text.split(' ').length >= 8) texts.push(text);
      }
    }
  }
  return texts;
}

const every = pieces();
const texts = Array.from({ length: Math.min(PIECES, every.length) }, (_, i) => every[Math.floor((i * every.length) / Math.min(PIECES, every.length))]!);
const files0 = encoderFiles();
if (!files0) throw new Error('the encoder package is not installed (npm ci)');
const encoder = await EncoderProcess.start({ files: files0, maxTokens: ENCODER_MAX_TOKENS, timeoutMs: 120_000 });
const sum = new Float64Array(512);
try {
  for (let at = 0; at < texts.length; at += 32) {
    for (const vector of await encoder.embed(texts.slice(at, at + 32))) {
      let norm = 0;
      for (const x of vector) norm += x * x;
      norm = Math.sqrt(norm) || 1;
      vector.forEach((x, i) => (sum[i]! += x / norm));
    }
    if (at % 640 === 0) process.stdout.write(`${at}/${texts.length} `);
  }
} finally {
  await encoder.stop();
}
const centre = Array.from(sum, (x) => Number((x / texts.length).toFixed(6)));
const note = `Mean unit vector of ${texts.length} of ${every.length} reference pieces (scripts/encoderCentre.ts: ${SOURCES.join(', ')}), read as wordsText, ${ENCODER_MAX_TOKENS} pieces each.`;
writeFileSync(path.join(root, 'src/core/models/encoderCentre.json'), `${JSON.stringify({ note, centre })}\n`);
console.log(`\n${note} Norm of the mean: ${Math.hypot(...centre).toFixed(3)}.`);
